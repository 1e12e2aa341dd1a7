// CLAHE pass 3: the bilinear blend of the four nearest tiles' LUTs over the original (unpadded) image,
// OpenCV's CLAHE_Interpolation_Body: the tile position x * inverseTileWidth - 0.5f, the lower tile
// floor(position) clamped to 0 and the upper floor(position) + 1 clamped to tiles - 1, the weights,
// and (L11 * xa1 + L12 * xa) * ya1 + (L21 * xa1 + L22 * xa) * ya as separate IEEE multiplies and adds
// (shared/Clahe.h's functions are `precise`: no FMA contraction), saturated half to even. OpenCV's
// OpenCL and CUDA versions use four product weights instead and differ by 1 on some pixels.
// One invocation per packed word of the output (PER_WORD samples, which may straddle two rows).
#include "clahe/ClaheCommon.glsl"

#define GROUP_SIZE 256

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
