// Equalize.comp: histogram equalization curve, Bugetti's equation (1) cdf_min form without rounding:
// T[i] = (cdf[i] - cdf_min) / (N - cdf_min), one sample per bin centre over the histogram range.
// Reads one (luminance) or three (R, G, B) inclusive CDFs; N == cdf_min (one occupied bin) or N == 0
// gives DEGENERATE_VALUE. Optionally the value is an sRGB-encoded level (curve = sRGB EOTF of it).
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

float decodeSrgb(float v)
{
    v = clamp(v, 0.0, 1.0);
    return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
}

float equalized(uint channel, uint i, uint bins)
{
    uint total = cdfAt(channel, bins - 1u);
    // cdf_min: the first non-zero CDF value (binary search; the CDF never decreases).
    uint lo = 0u;
    uint hi = bins - 1u;
    while (lo < hi) {
        uint mid = (lo + hi) / 2u;
        if (cdfAt(channel, mid) > 0u)
            hi = mid;
        else
            lo = mid + 1u;
    }
    uint cdfMin = cdfAt(channel, lo);
    if (total == cdfMin)
        return DEGENERATE_VALUE;
    uint c = cdfAt(channel, i);
    float v = c < cdfMin ? 0.0 : float(c - cdfMin) / float(total - cdfMin);
    return uEncodedOutput != 0u ? decodeSrgb(v) : v;
}

void main()
{
    uint bins = clamp(params[kParamBinCount], 1u, kMaxHistogramBins);
    uint i = gl_GlobalInvocationID.x;
    if (i == 0u) {
        curve[kCurveLogMin] = uintBitsToFloat(params[kParamLogMin]);
        curve[kCurveLogMax] = uintBitsToFloat(params[kParamLogMax]);
        curve[kCurveSampleCount] = float(bins);
        curve[kCurveChannels] = float(uChannels);
        curve[kCurveMode] = kCurveModeLut;
        curve[kCurveScale] = 0.0;
    }
    if (i >= bins)
        return;
    for (uint c = 0u; c < uChannels; ++c)
        curve[kCurveHeaderWords + c * kMaxCurveSamples + i] = equalized(c, i, bins);
}
