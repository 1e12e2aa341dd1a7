// Equalize.comp: the histogram equalization curve (tonemap/EqualizeCore.glsl) from one (luminance) or
// three (R, G, B) inclusive CDFs a scan method made.
#include "shared/HostDevice.h"

layout(local_size_x = 256) in;

layout(std430, binding = kBindingHistogramParams) readonly buffer Params { uint params[]; };
layout(std430, binding = kBindingScratch0) readonly buffer Cdf0 { uint cdf0[]; };
layout(std430, binding = kBindingScratch1) readonly buffer Cdf1 { uint cdf1[]; };
layout(std430, binding = kBindingScratch2) readonly buffer Cdf2 { uint cdf2[]; };
layout(std430, binding = kBindingCurve) writeonly buffer Curve { float curve[]; };

layout(location = 0) uniform uint uChannels;
layout(location = 1) uniform uint uEncodedOutput;

uint cdfAt(uint channel, uint i)
{
    if (channel == 0u)
        return cdf0[i];
    if (channel == 1u)
        return cdf1[i];
    return cdf2[i];
}

#include "tonemap/EqualizeCore.glsl"

void main()
{
    uint bins = clamp(params[kParamBinCount], 1u, kMaxHistogramBins);
    uint i = gl_GlobalInvocationID.x;
    if (i == 0u)
        writeEqualizeHeader(bins, uChannels);
    if (i >= bins)
        return;
    for (uint c = 0u; c < uChannels; ++c)
        curve[kCurveHeaderWords + c * kMaxCurveSamples + i] = equalized(c, i, bins, uEncodedOutput != 0u);
}
