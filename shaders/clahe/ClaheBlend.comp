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
//    BLOCK_WORDS x 4 columns and BLOCK_ROWS rows; an invocation takes one word column (its four
//    columns' weights computed once) in every ROW_PHASES-th row, and loads its words before the
//    table fill. The pixels between the same four tile centres (a
//    "cell") read the same four LUTs, so the workgroup first packs, for each cell it overlaps, the
//    four LUTs' 8-bit values of every level into one shared word (the idea of the CUDA backend's
//    blend); each sample then reads one shared word instead of four LUT entries. A block overlapping
//    more than MAX_CELLS cells (fine grids) reads the LUT buffer as CELLS 0 does.
#include "clahe/ClaheCommon.glsl"

#define GROUP_SIZE 256
#ifndef CELLS
#define CELLS 0
#endif
#ifndef BITS_BLEND
#define BITS_BLEND 0
#endif
#define BLOCK_WORDS 64
#define BLOCK_ROWS 32
#define ROW_PHASES (GROUP_SIZE / BLOCK_WORDS)    // an invocation's rows are ROW_PHASES apart
#define ROWS_PER_INVOCATION (BLOCK_ROWS / ROW_PHASES)
#define MAX_CELLS 12

layout(local_size_x = GROUP_SIZE) in;

layout(std430, binding = kBindingScratch0) readonly buffer Samples { uint samples[]; };
layout(std430, binding = kBindingCurve) readonly buffer Luts { uint luts[]; };
layout(std430, binding = kBindingScratch1) writeonly buffer Result { uint result[]; };

// BITS_BLEND 1: the conversion-free forms of shared/Clahe.h (float adds and integer operations; a GPU
// converts int to float and back at a fraction of its float rate), equal to the plain ones.
float lutFloat(uint value)
{
#if BITS_BLEND
    return hdClaheSmallFloat(value);
#else
    return float(value);
#endif
}

int saturateBlend(float value)
{
#if BITS_BLEND
    return hdClaheSaturateBits(value, MAX_VALUE);
#else
    return hdClaheSaturate(value, MAX_VALUE);
#endif
}

float lutAt(int tile, uint value)
{
    const uint index = uint(tile) * uint(BINS) + value;
    return lutFloat((luts[index >> 1u] >> ((index & 1u) * 16u)) & 0xFFFFu);
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

// The 16-bit word of LUT entry `index` (tile * BINS + value) as a uint (8-bit LUT values: < 256).
uint lutWord(uint index)
{
    return (luts[index >> 1u] >> ((index & 1u) * 16u)) & 0xFFFFu;
}

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
    // This invocation's word column and rows: columns x .. x + 3, rows y0 + phase + ROW_PHASES j.
    const int x = x0 + int(local % uint(BLOCK_WORDS)) * PER_WORD;
    const int phase = int(local / uint(BLOCK_WORDS));
    const bool inside = x <= x1;
    // The words first, so that their loads overlap the table fill below.
    uint sources[ROWS_PER_INVOCATION];
    for (int j = 0; j < ROWS_PER_INVOCATION; ++j) {
        const int y = y0 + phase + j * ROW_PHASES;
        sources[j] = inside && y <= y1 ? samples[(uint(y) * uint(uWidth) + uint(x)) / uint(PER_WORD)] : 0u;
    }
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
            const uint base1 = uint(ty1 * uTilesX) * uint(BINS) + value;
            const uint base2 = uint(ty2 * uTilesX) * uint(BINS) + value;
            sCells[i] = lutWord(base1 + uint(tx1 * BINS)) | (lutWord(base1 + uint(tx2 * BINS)) << 8u) |
                        (lutWord(base2 + uint(tx1 * BINS)) << 16u) | (lutWord(base2 + uint(tx2 * BINS)) << 24u);
        }
    }
    barrier();
    if (!inside)
        return;  // no barrier follows

    // The four columns' weights and cell columns, once.
    float xa[PER_WORD], xa1[PER_WORD];
    int columnCell[PER_WORD];   // cell column - c0 (cells)
    int tx1[PER_WORD], tx2[PER_WORD];  // the LUT tiles' columns (reads from the LUT buffer)
    for (int k = 0; k < PER_WORD; ++k) {
        const float columnPosition = hdClaheTilePosition(x + k, uInverseTileWidth);
        const int columnBelow = int(floor(columnPosition));
        xa[k] = hdClaheUpperWeight(columnPosition);
        xa1[k] = hdClaheLowerWeight(xa[k]);
        columnCell[k] = columnBelow + 1 - c0;
        tx1[k] = max(columnBelow, 0);
        tx2[k] = min(columnBelow + 1, uTilesX - 1);
    }
    for (int j = 0; j < ROWS_PER_INVOCATION; ++j) {
        const int y = y0 + phase + j * ROW_PHASES;
        if (y > y1)
            break;  // rows only increase with j
        const float rowPosition = hdClaheTilePosition(y, uInverseTileHeight);
        const int rowBelow = int(floor(rowPosition));
        const float ya = hdClaheUpperWeight(rowPosition);
        const float ya1 = hdClaheLowerWeight(ya);
        const int ty1 = max(rowBelow, 0);
        const int ty2 = min(rowBelow + 1, uTilesY - 1);
        const uint cellRow = uint((rowBelow + 1 - r0) * columns);
        uint blended = 0u;
        for (int k = 0; k < PER_WORD; ++k) {
            const uint value = (sources[j] >> (BITS * uint(k))) & SAMPLE_MASK;
            float res;
            if (fromCells) {
                const uint four = sCells[(cellRow + uint(columnCell[k])) * uint(BINS) + value];
                res = hdClaheBlend(lutFloat(four & 0xFFu), lutFloat((four >> 8u) & 0xFFu),
                                   lutFloat((four >> 16u) & 0xFFu), lutFloat(four >> 24u), xa[k], xa1[k], ya, ya1);
            } else {
                res = hdClaheBlend(lutAt(ty1 * uTilesX + tx1[k], value), lutAt(ty1 * uTilesX + tx2[k], value),
                                   lutAt(ty2 * uTilesX + tx1[k], value), lutAt(ty2 * uTilesX + tx2[k], value), xa[k],
                                   xa1[k], ya, ya1);
            }
            blended |= uint(saturateBlend(res)) << (BITS * uint(k));
        }
        result[(uint(y) * uint(uWidth) + uint(x)) / uint(PER_WORD)] = blended;
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
        blended |= uint(saturateBlend(blendAt(value, x, ty1, ty2, ya, ya1))) << (BITS * k);
    }
    result[word] = blended;
}
#endif
