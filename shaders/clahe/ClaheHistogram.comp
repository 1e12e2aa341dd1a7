// CLAHE pass 1: the tile histograms of the padded image (OpenCV pads right and bottom with
// BORDER_REFLECT_101, hdClaheReflect101). OpenCV's GPU versions run one workgroup per tile, which
// leaves most of a large GPU idle at 8x8 tiles; here each tile is split into slabs of uSlabRows
// padded rows, one workgroup per (slab, tile): gl_WorkGroupID = (slab, tile).
// 8-bit: a shared-memory histogram in uCopies copies (up to MAX_COPIES, one per group of 32
// invocations, so that a subgroup's atomics collide less on photographs, whose values sit in a narrow
// band; one for small tiles, where clearing and merging copies would cost more than it saves),
// merged with one global atomicAdd per non-zero bin. 16-bit: 65536 bins do not fit in shared memory; every sample
// is one global atomicAdd into its tile's histogram (the default; spread over 64K bins, the atomics
// rarely collide), or (CHUNKED16, an experiment: slower on the H200) shared 16-bit counters for one
// chunk of the bins a workgroup (below).
// Columns are read a word (PER_WORD samples) at a time where the word lies inside the image and the
// tile; elsewhere (padding, unaligned rows, a tile's ragged edge) one sample at a time.
// FOLD_LUT 1 (8-bit): each tile's last workgroup also computes the tile's LUT (see below), so the
// 8-bit CLAHE is two dispatches; the accumulator needs no clear between dispatches.
#include "clahe/ClaheCommon.glsl"

#define GROUP_SIZE 256
#define MAX_COPIES 8

layout(local_size_x = GROUP_SIZE) in;

layout(std430, binding = kBindingScratch0) readonly buffer Samples { uint samples[]; };
layout(std430, binding = kBindingHistogram) buffer TileHistograms { uint tileHistograms[]; };

#if !SIXTEEN_BIT
shared uint sBins[MAX_COPIES * BINS];
#endif

#ifndef CHUNKED16
#define CHUNKED16 0
#endif
#if SIXTEEN_BIT && CHUNKED16
// 16-bit, chunked: a workgroup counts only the values of one chunk of CHUNK_BINS bins (gl_WorkGroupID.x
// = slab * CHUNKS + chunk), in 16-bit counters two to a shared word (the host keeps a slab at or
// below 65535 padded pixels, so a half never carries into the other), then adds each non-zero counter
// to the tile's histogram with one global atomicAdd. Each slab is read CHUNKS times (mostly from L2),
// but the per-sample atomics are shared ones, and a photograph's tile, whose values sit in a narrow
// band, makes far fewer global atomics than pixels.
#define CHUNK_BINS 16384
#define CHUNKS (BINS / CHUNK_BINS)
shared uint sHalves[CHUNK_BINS / 2];
#endif

#ifndef FOLD_LUT
#define FOLD_LUT 0
#endif
#if FOLD_LUT
// The LUT pass folded into this one (8-bit): the workgroups add into an accumulator (zero between
// dispatches; tile t's bins at t * BINS, then one ticket per tile), and the last workgroup of each
// tile to finish (its ticket is gl_NumWorkGroups.x - 1) moves the tile's counts into the tile
// histograms (for readback), zeroes the accumulator and the ticket, and computes the tile's LUT as
// ClaheLut.comp does, one bin an invocation.
layout(std430, binding = kBindingScratch2) coherent buffer Accumulator { uint accumulated[]; };
layout(std430, binding = kBindingCurve) writeonly buffer Luts { uint luts[]; };  // 2 values a word
shared uint sTicket;
shared int sScan[GROUP_SIZE];

// The inclusive prefix sum of `value` over the workgroup's invocations (Hillis-Steele in shared
// memory) and the workgroup's total: returns (inclusive prefix, total).
ivec2 workgroupInclusiveScan(int value)
{
    const uint local = gl_LocalInvocationIndex;
    barrier();  // earlier readers of sScan are done
    sScan[local] = value;
    barrier();
    for (uint offset = 1u; offset < uint(GROUP_SIZE); offset <<= 1u) {
        const int add = local >= offset ? sScan[local - offset] : 0;
        barrier();
        sScan[local] += add;
        barrier();
    }
    return ivec2(sScan[local], sScan[GROUP_SIZE - 1]);
}

// The tile's LUT from its histogram, bin `bin` (= the invocation) with `count`: the clipped total,
// the redistribution, the running sum and the LUT value (shared/Clahe.h), two values a word.
void buildLut(uint histogramBase, uint bin, int count)
{
    const int clipLimit = uClipLimit;
    int value = count;
    if (clipLimit > 0) {  // the same for every invocation: barriers allowed
        const int clipped = workgroupInclusiveScan(max(count - clipLimit, 0)).y;
        value = hdClaheRedistributed(count, int(bin), BINS, clipLimit, clipped);
    }
    const uint lut = uint(hdClaheLutValue(workgroupInclusiveScan(value).x, uLutScale, MAX_VALUE));
    barrier();
    sScan[bin] = int(lut);
    barrier();
    if ((bin & 1u) == 0u)
        luts[(histogramBase + bin) >> 1u] = lut | (uint(sScan[bin + 1u]) << 16u);
}
#endif

// copyBase: the 8-bit shared copy's first word; chunked 16-bit: the chunk's first value.
void count(uint value, uint histogramBase, uint copyBase, uint n)
{
#if SIXTEEN_BIT && CHUNKED16
    const uint offset = value - copyBase;  // wraps to a large value below the chunk
    if (offset < uint(CHUNK_BINS))
        atomicAdd(sHalves[offset >> 1u], n << ((offset & 1u) * 16u));
#elif SIXTEEN_BIT
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
#if SIXTEEN_BIT && CHUNKED16
    const uint copyBase = (gl_WorkGroupID.x % uint(CHUNKS)) * uint(CHUNK_BINS);
    const uint slab = gl_WorkGroupID.x / uint(CHUNKS);
    for (uint i = local; i < uint(CHUNK_BINS / 2); i += uint(GROUP_SIZE))
        sHalves[i] = 0u;
    barrier();
#elif SIXTEEN_BIT
    const uint copyBase = 0u;
    const uint slab = gl_WorkGroupID.x;
#else
    const uint slab = gl_WorkGroupID.x;
    const uint copies = uint(uCopies);
    for (uint i = local; i < copies * uint(BINS); i += uint(GROUP_SIZE))
        sBins[i] = 0u;
    barrier();
    const uint copyBase = ((local / 32u) % copies) * uint(BINS);
#endif

    const int firstRow = int(slab) * uSlabRows;
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

#if SIXTEEN_BIT && CHUNKED16
    barrier();
    for (uint i = local; i < uint(CHUNK_BINS / 2); i += uint(GROUP_SIZE)) {
        const uint halves = sHalves[i];
        if ((halves & 0xFFFFu) != 0u)
            atomicAdd(tileHistograms[histogramBase + copyBase + 2u * i], halves & 0xFFFFu);
        if ((halves >> 16u) != 0u)
            atomicAdd(tileHistograms[histogramBase + copyBase + 2u * i + 1u], halves >> 16u);
    }
#endif
#if !SIXTEEN_BIT
    barrier();
    uint total = 0u;
    for (uint c = 0u; c < copies; ++c)
        total += sBins[c * uint(BINS) + local];
#if FOLD_LUT
    if (total != 0u)
        atomicAdd(accumulated[histogramBase + local], total);
    // Every group's additions are done before it takes its ticket (memory barrier, barrier).
    memoryBarrierBuffer();
    barrier();
    const uint ticket = uint(uTilesX * uTilesY) * uint(BINS) + uint(tile);
    if (local == 0u)
        sTicket = atomicAdd(accumulated[ticket], 1u);
    barrier();
    if (sTicket == gl_NumWorkGroups.x - 1u) {  // uniform in the workgroup (shared): barriers allowed
        const uint tileCount = atomicExchange(accumulated[histogramBase + local], 0u);
        tileHistograms[histogramBase + local] = tileCount;
        if (local == 0u)
            atomicExchange(accumulated[ticket], 0u);
        buildLut(histogramBase, local, int(tileCount));
    }
#else
    if (total != 0u)
        atomicAdd(tileHistograms[histogramBase + local], total);
#endif
#endif
}
