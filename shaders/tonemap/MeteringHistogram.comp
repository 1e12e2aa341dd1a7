// MeteringHistogram.comp: the weighted histogram of the percentile operator's metering mask. Each
// pixel goes to its bin exactly as in the plain histogram (binOfColor: NaN, Inf, non-positive and,
// with the separate policy, out-of-range pixels go to no bin) and adds its quantised weight there.
// Each 16 x 16 group sums a 16 x (16 kMeteringRowsPerInvocation) tile in shared memory (4096 pixels
// x 65535 < 2^32), then adds its bins into global memory as 64-bit sums, two words with carry (lo,
// hi per bin), so no frame size can overflow. One pixel per invocation was 3-4x slower at 4K: 16x
// the groups, each clearing and flushing every bin.
#include "histogram/HistogramCommon.glsl"
#include "tonemap/MeteringWeight.glsl"

layout(local_size_x = kHistogramGroupX, local_size_y = kHistogramGroupY) in;

layout(binding = kTextureUnitInput) uniform sampler2D uImage;
layout(std430, binding = kBindingScratch0) buffer Weighted { uint weighted[]; }; // uint[2 * bins]: lo, hi

shared uint sBins[kMaxHistogramBins];

void main()
{
    uint bins = paramBinCount();
    uint local = gl_LocalInvocationIndex;
    const uint groupSize = kHistogramGroupX * kHistogramGroupY;
    for (uint i = local; i < bins; i += groupSize)
        sBins[i] = 0u;
    barrier();

    int x = int(gl_GlobalInvocationID.x);
    int tileTop = int(gl_WorkGroupID.y * kHistogramGroupY * kMeteringRowsPerInvocation);
    if (x < uImageSize.x) {
        for (uint row = 0u; row < kMeteringRowsPerInvocation; ++row) {
            ivec2 texel = ivec2(x, tileTop + int(row * kHistogramGroupY + gl_LocalInvocationID.y));
            if (texel.y >= uImageSize.y)
                break;
            vec4 color = texelFetch(uImage, texel, 0);
            int code = binOfColor(color);
            if (code >= 0) {
                uint q = meteringWeight(texel, hdLuminance(color.r, color.g, color.b));
                if (q != 0u)
                    atomicAdd(sBins[code], q);
            }
        }
    }
    barrier();

    for (uint i = local; i < bins; i += groupSize) {
        uint v = sBins[i];
        if (v == 0u)
            continue;
        uint before = atomicAdd(weighted[2u * i], v);
        if (before + v < before) // the low word wrapped: carry into the high word
            atomicAdd(weighted[2u * i + 1u], 1u);
    }
}
