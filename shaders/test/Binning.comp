// Test shader: evaluates the shared header's binning functions on the GPU for a list of cases, so a
// test can compare them bit for bit with the CPU (tests/post/BinningExactnessTest.cpp).
// Input per case (8 words): r, g, b, logMin, logMax (float bits), binCount, policy, unused; the
// luminance weights (run-time, as the params buffer gives them to every pass) in uWeights.
// Output per case (5 words): luminance bits, hdLog2(luminance) bits, hdBinScale bits, hdBinOf code,
// hdBinOfFast code (with this GPU's log2: must be hdBinOf's).
#include "shared/HostDevice.h"
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer Cases { uint cases[]; };
layout(std430, binding = 1) writeonly buffer Results { uint results[]; };
layout(location = 0) uniform uint uCaseCount;
layout(location = 1) uniform vec3 uWeights;
void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= uCaseCount)
        return;
    float r = uintBitsToFloat(cases[8u * i + 0u]);
    float g = uintBitsToFloat(cases[8u * i + 1u]);
    float b = uintBitsToFloat(cases[8u * i + 2u]);
    float logMin = uintBitsToFloat(cases[8u * i + 3u]);
    float logMax = uintBitsToFloat(cases[8u * i + 4u]);
    uint bins = cases[8u * i + 5u];
    uint policy = cases[8u * i + 6u];
    float L = hdLuminanceWeighted(r, g, b, uWeights.x, uWeights.y, uWeights.z);
    results[5u * i + 0u] = floatBitsToUint(L);
    results[5u * i + 1u] = (L >= kMinLuminance && !isinf(L)) ? floatBitsToUint(hdLog2(L)) : 0u;
    results[5u * i + 2u] = floatBitsToUint(hdBinScale(logMin, logMax, bins));
    results[5u * i + 3u] = uint(hdBinOf(L, logMin, logMax, bins, policy));
    const float scale = hdBinScale(logMin, logMax, bins);
    results[5u * i + 4u] = uint(hdBinOfFast(L, logMin, logMax, scale, bins, policy, hdBinFastMargin(logMin, logMax, scale, bins)));
}
