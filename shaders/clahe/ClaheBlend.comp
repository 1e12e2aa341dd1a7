// CLAHE pass 3: the bilinear blend of the four nearest tiles' LUTs over the original (unpadded) image,
// OpenCV's CLAHE_Interpolation_Body: the tile position x * inverseTileWidth - 0.5f, the lower tile
// floor(position) clamped to 0 and the upper floor(position) + 1 clamped to tiles - 1, the weights,
// and (L11 * xa1 + L12 * xa) * ya1 + (L21 * xa1 + L22 * xa) * ya as separate IEEE multiplies and adds
// (shared/Clahe.h's functions are `precise`: no FMA contraction), saturated half to even. OpenCV's
// OpenCL and CUDA versions use four product weights instead and differ by 1 on some pixels.
// Two layouts, chosen by the host:
//  * CELLS 0 (16-bit, and 8-bit images whose width is not a multiple of 4): one invocation per
//    packed word of the output (PER_WORD samples, which may straddle two rows), four LUT reads from
//    the LUT buffer per sample;
//  * CELLS 1 (8-bit, width a multiple of 4, so every row starts a word): one workgroup per block of
//    BLOCK_WORDS x 4 columns and BLOCK_ROWS rows. The pixels between the same four tile centres (a
//    "cell") read the same four LUTs, so the workgroup first packs, for each cell it overlaps, the
//    four LUTs' 8-bit values of every level into one shared word (the idea of the CUDA backend's
//    blend); each sample then reads one shared word instead of four LUT entries. A block overlapping
//    more than MAX_CELLS cells (fine grids) reads the LUT buffer as CELLS 0 does.
#include "clahe/ClaheCommon.glsl"

#define GROUP_SIZE 256
#ifndef CELLS
#define CELLS 0
#endif
#define BLOCK_WORDS 32
#define BLOCK_ROWS 32
#define MAX_CELLS 12

layout(local_size_x = GROUP_SIZE) in;

layout(std430, binding = kBindingScratch0) readonly buffer Samples { uint samples[]; };
layout(std430, binding = kBindingCurve) readonly buffer Luts { uint luts[]; };
layout(std430, binding = kBindingScratch1) writeonly buffer Result { uint result[]; };

float lutAt(int tile, uint value)
{
    const uint index = uint(tile) * uint(BINS) + value;
    return float((luts[index >> 1u] >> ((index & 1u) * 16u)) & 0xFFFFu);
}

// The blend of the four LUTs' values for `value` at tile rows (ty1, ty2) and column x.
float blendAt(uint value, int x, int ty1, int ty2, float ya, float ya1)
{
    const float columnPosition = hdClaheTilePosition(x, uInverseTileWidth);
    const int columnBelow = int(floor(columnPosition));
    const float xa = hdClaheUpperWeight(columnPosition);
    const float xa1 = hdClaheLowerWeight(xa);
    const int tx1 = max(columnBelow, 0);
    const int tx2 = min(columnBelow + 1, uTilesX - 1);
    return hdClaheBlend(lutAt(ty1 * uTilesX + tx1, value), lutAt(ty1 * uTilesX + tx2, value),
                        lutAt(ty2 * uTilesX + tx1, value), lutAt(ty2 * uTilesX + tx2, value), xa, xa1, ya, ya1);
}

#if CELLS
shared uint sCells[MAX_CELLS * BINS];

// floor of the tile position: the lower tile before clamping, -1 .. tiles - 1.
int tileBelow(int p, float inverseTileSize)
{
    return int(floor(hdClaheTilePosition(p, inverseTileSize)));
}

void main()
{
    const uint local = gl_LocalInvocationIndex;
    const int x0 = int(gl_WorkGroupID.x) * BLOCK_WORDS * PER_WORD;
    const int y0 = int(gl_WorkGroupID.y) * BLOCK_ROWS;
    const int x1 = min(x0 + BLOCK_WORDS * PER_WORD, uWidth) - 1;
    const int y1 = min(y0 + BLOCK_ROWS, uHeight) - 1;
    // Cell (r, c) lies between tile rows r - 1 and r and tile columns c - 1 and c (clamped); the
    // block's cells are a rectangle, as tileBelow grows with the coordinate.
    const int c0 = tileBelow(x0, uInverseTileWidth) + 1;
    const int r0 = tileBelow(y0, uInverseTileHeight) + 1;
    const int columns = tileBelow(x1, uInverseTileWidth) + 1 - c0 + 1;
    const int cells = columns * (tileBelow(y1, uInverseTileHeight) + 1 - r0 + 1);
    const bool fromCells = cells <= MAX_CELLS;  // the same for the whole workgroup
    if (fromCells) {
        for (uint i = local; i < uint(cells * BINS); i += uint(GROUP_SIZE)) {
            const int cell = int(i / uint(BINS));
            const uint value = i % uint(BINS);
            const int r = r0 + cell / columns;
            const int c = c0 + cell % columns;
            const int ty1 = max(r - 1, 0), ty2 = min(r, uTilesY - 1);
            const int tx1 = max(c - 1, 0), tx2 = min(c, uTilesX - 1);
            sCells[i] = uint(lutAt(ty1 * uTilesX + tx1, value)) | (uint(lutAt(ty1 * uTilesX + tx2, value)) << 8u) |
                        (uint(lutAt(ty2 * uTilesX + tx1, value)) << 16u) |
                        (uint(lutAt(ty2 * uTilesX + tx2, value)) << 24u);
        }
    }
    barrier();

    for (uint w = local; w < uint(BLOCK_WORDS * BLOCK_ROWS); w += uint(GROUP_SIZE)) {
        const int y = y0 + int(w / uint(BLOCK_WORDS));
        const int x = x0 + int(w % uint(BLOCK_WORDS)) * PER_WORD;
        if (y > y1 || x > x1)
            continue;
        const float rowPosition = hdClaheTilePosition(y, uInverseTileHeight);
        const int rowBelow = int(floor(rowPosition));
        const float ya = hdClaheUpperWeight(rowPosition);
        const float ya1 = hdClaheLowerWeight(ya);
        const int ty1 = max(rowBelow, 0);
        const int ty2 = min(rowBelow + 1, uTilesY - 1);
        const uint word = (uint(y) * uint(uWidth) + uint(x)) / uint(PER_WORD);
        const uint source = samples[word];
        uint blended = 0u;
        for (uint k = 0u; k < uint(PER_WORD); ++k) {
            const uint value = (source >> (BITS * k)) & SAMPLE_MASK;
            float res;
            if (fromCells) {
                const float columnPosition = hdClaheTilePosition(x + int(k), uInverseTileWidth);
                const int columnBelow = int(floor(columnPosition));
                const float xa = hdClaheUpperWeight(columnPosition);
                const float xa1 = hdClaheLowerWeight(xa);
                const int cell = (rowBelow + 1 - r0) * columns + (columnBelow + 1 - c0);
                const uint four = sCells[uint(cell) * uint(BINS) + value];
                res = hdClaheBlend(float(four & 0xFFu), float((four >> 8u) & 0xFFu), float((four >> 16u) & 0xFFu),
                                   float(four >> 24u), xa, xa1, ya, ya1);
            } else {
                res = blendAt(value, x + int(k), ty1, ty2, ya, ya1);
            }
            blended |= uint(hdClaheSaturate(res, MAX_VALUE)) << (BITS * k);
        }
        result[word] = blended;
    }
}
#else
void main()
{
    const uint word = gl_GlobalInvocationID.y * (gl_NumWorkGroups.x * uint(GROUP_SIZE)) + gl_GlobalInvocationID.x;
    const uint count = uint(uWidth) * uint(uHeight);
    if (word * uint(PER_WORD) >= count)
        return;
    const uint source = samples[word];
    // The row's tiles and weights once per word (one division); a word that runs past the end of its
    // row (widths that are not a multiple of PER_WORD) takes the next row's.
    const uint first = word * uint(PER_WORD);
    int y = int(first / uint(uWidth));
    int x = int(first - uint(y) * uint(uWidth));
    int ty1 = 0, ty2 = 0;
    float ya = 0.0, ya1 = 0.0;
    uint blended = 0u;
    for (uint k = 0u; k < uint(PER_WORD) && first + k < count; ++k, ++x) {
        if (k == 0u || x == uWidth) {
            if (x == uWidth) {
                x = 0;
                ++y;
            }
            const float rowPosition = hdClaheTilePosition(y, uInverseTileHeight);
            const int rowBelow = int(floor(rowPosition));
            ya = hdClaheUpperWeight(rowPosition);
            ya1 = hdClaheLowerWeight(ya);
            ty1 = max(rowBelow, 0);
            ty2 = min(rowBelow + 1, uTilesY - 1);
        }
        const uint value = (source >> (BITS * k)) & SAMPLE_MASK;
        blended |= uint(hdClaheSaturate(blendAt(value, x, ty1, ty2, ya, ya1), MAX_VALUE)) << (BITS * k);
    }
    result[word] = blended;
}
#endif
