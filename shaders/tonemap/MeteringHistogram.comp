// MeteringHistogram.comp: the weighted histogram of the percentile operator's metering mask. Each
// pixel goes to its bin exactly as in the plain histogram (binOfColor: NaN, Inf, non-positive and,
// with the separate policy, out-of-range pixels go to no bin) and adds its quantised weight there.
// Each 16 x 16 group sums a 16 x (16 kMeteringRowsPerInvocation) tile in shared memory (4096 pixels
// x 65535 < 2^32), then adds its bins into global memory as 64-bit sums, two words with carry (lo,
// hi per bin), so no frame size can overflow. One pixel per invocation was 1.3x slower at 4K (16x
// the groups, each clearing and flushing every bin).
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

    // Each invocation walks kMeteringRowsPerInvocation consecutive rows of its column and adds a run
    // of pixels in one bin with one shared atomic: neighbours mostly share a bin, and a busy bin's
    // atomics serialise (the sums are integers, so the order does not matter).
    int x = int(gl_GlobalInvocationID.x);
    int top = int((gl_WorkGroupID.y * kHistogramGroupY + gl_LocalInvocationID.y) * kMeteringRowsPerInvocation);
    int runBin = -1;
    uint runSum = 0u;
    // The range once per invocation, not per pixel (binOfColor's hdBinOf: the same bins, bit for bit).
    const float logMin = paramLogMin();
    const float logMax = paramLogMax();
    const uint policy = paramPolicy();
    const float scale = hdBinScale(logMin, logMax, bins);
    const vec3 weights = paramLuminanceWeights();
    if (x < uImageSize.x) {
        for (uint row = 0u; row < kMeteringRowsPerInvocation; ++row) {
            ivec2 texel = ivec2(x, top + int(row));
            if (texel.y >= uImageSize.y)
                break;
            vec4 color = texelFetch(uImage, texel, 0);
            float luminance = hdLuminanceWeighted(color.r, color.g, color.b, weights.x, weights.y, weights.z);
            int code = hdBinOfScaled(luminance, logMin, logMax, scale, bins, policy);
            if (code < 0)
                continue;
            uint q = meteringWeight(texel, luminance);
            if (code != runBin) {
                if (runSum != 0u)
                    atomicAdd(sBins[runBin], runSum);
                runBin = code;
                runSum = 0u;
            }
            runSum += q;
        }
    }
    if (runSum != 0u)
        atomicAdd(sBins[runBin], runSum);
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
