// CLAHE pass 1: the tile histograms of the padded image (OpenCV pads right and bottom with
// BORDER_REFLECT_101, hdClaheReflect101). OpenCV's GPU versions run one workgroup per tile, which
// leaves most of a large GPU idle at 8x8 tiles; here each tile is split into slabs of uSlabRows
// padded rows, one workgroup per (slab, tile): gl_WorkGroupID = (slab, tile).
// 8-bit: a shared-memory histogram in uCopies copies (up to MAX_COPIES, one per group of 32
// invocations, so that a subgroup's atomics collide less on photographs, whose values sit in a narrow
// band; one for small tiles, where clearing and merging copies would cost more than it saves),
// merged with one global atomicAdd per non-zero bin. 16-bit: 65536 bins do not fit in shared memory; every sample
// is one global atomicAdd into its tile's histogram (spread over 64K bins, the atomics rarely collide).
// Columns are read a word (PER_WORD samples) at a time where the word lies inside the image and the
// tile; elsewhere (padding, unaligned rows, a tile's ragged edge) one sample at a time.
#include "clahe/ClaheCommon.glsl"

#define GROUP_SIZE 256
#define MAX_COPIES 8

layout(local_size_x = GROUP_SIZE) in;

layout(std430, binding = kBindingScratch0) readonly buffer Samples { uint samples[]; };
layout(std430, binding = kBindingHistogram) buffer TileHistograms { uint tileHistograms[]; };

#if !SIXTEEN_BIT
shared uint sBins[MAX_COPIES * BINS];
#endif

void count(uint value, uint histogramBase, uint copyBase, uint n)
{
#if SIXTEEN_BIT
    atomicAdd(tileHistograms[histogramBase + value], n);
#else
    atomicAdd(sBins[copyBase + value], n);
#endif
}

void main()
{
    const uint local = gl_LocalInvocationIndex;
    const int tile = int(gl_WorkGroupID.y);
    const int tileX = tile % uTilesX;
    const int tileY = tile / uTilesX;
    const uint histogramBase = uint(tile) * uint(BINS);
#if SIXTEEN_BIT
    const uint copyBase = 0u;
#else
    const uint copies = uint(uCopies);
    for (uint i = local; i < copies * uint(BINS); i += uint(GROUP_SIZE))
        sBins[i] = 0u;
    barrier();
    const uint copyBase = ((local / 32u) % copies) * uint(BINS);
#endif

    const int firstRow = int(gl_WorkGroupID.x) * uSlabRows;
    const int rows = min(uSlabRows, uTileHeight - firstRow);
    const int wordsPerRow = (uTileWidth + PER_WORD - 1) / PER_WORD;  // column groups of a tile row
    const int tileLeft = tileX * uTileWidth;
    for (int item = int(local); item < rows * wordsPerRow; item += GROUP_SIZE) {
        const int row = item / wordsPerRow;
        const int group = item - row * wordsPerRow;
        const int sourceRow = hdClaheReflect101(tileY * uTileHeight + firstRow + row, uHeight);
        const uint rowStart = uint(sourceRow) * uint(uWidth);
        const int x = tileLeft + group * PER_WORD;
        const int columns = min(PER_WORD, uTileWidth - group * PER_WORD);
        const uint first = rowStart + uint(x);
        if (columns == PER_WORD && x + PER_WORD <= uWidth && first % uint(PER_WORD) == 0u) {
            // Equal neighbours (flat regions: sky, clipped highlights, black borders) in one atomic.
            const uint word = samples[first / uint(PER_WORD)];
            uint run = word & SAMPLE_MASK;
            uint length = 1u;
            for (uint k = 1u; k < uint(PER_WORD); ++k) {
                const uint value = (word >> (BITS * k)) & SAMPLE_MASK;
                if (value == run) {
                    ++length;
                } else {
                    count(run, histogramBase, copyBase, length);
                    run = value;
                    length = 1u;
                }
            }
            count(run, histogramBase, copyBase, length);
        } else {
            for (int k = 0; k < columns; ++k) {
                const uint index = rowStart + uint(hdClaheReflect101(x + k, uWidth));
                count(claheSampleOf(samples[index / uint(PER_WORD)], index), histogramBase, copyBase, 1u);
            }
        }
    }

#if !SIXTEEN_BIT
    barrier();
    uint total = 0u;
    for (uint c = 0u; c < copies; ++c)
        total += sBins[c * uint(BINS) + local];
    if (total != 0u)
        atomicAdd(tileHistograms[histogramBase + local], total);
#endif
}
