// EqualizeCore.glsl: histogram equalization, Bugetti's equation (1) cdf_min form without rounding:
// T[i] = (cdf[i] - cdf_min) / (N - cdf_min), one sample per bin centre over the histogram range
// (Equalize.comp on a scan's CDFs; EqualizeFused.comp after scanning in its own dispatch). N ==
// cdf_min (one occupied bin) or N == 0 gives DEGENERATE_VALUE. Optionally the value is an
// sRGB-encoded level (curve = sRGB EOTF of it). The includer defines `uint cdfAt(uint channel, uint i)`
// and declares the params buffer `params[]` and the curve buffer `curve[]` (or names another in CURVE_OUT).
#ifndef CURVE_OUT
#define CURVE_OUT curve
#endif

float decodeSrgb(float v)
{
    v = clamp(v, 0.0, 1.0);
    return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
}

float equalized(uint channel, uint i, uint bins, bool encodedOutput)
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
    return encodedOutput ? decodeSrgb(v) : v;
}

void writeEqualizeHeader(uint bins, uint channels)
{
    CURVE_OUT[kCurveLogMin] = uintBitsToFloat(params[kParamLogMin]);
    CURVE_OUT[kCurveLogMax] = uintBitsToFloat(params[kParamLogMax]);
    CURVE_OUT[kCurveSampleCount] = float(bins);
    CURVE_OUT[kCurveChannels] = float(channels);
    CURVE_OUT[kCurveMode] = kCurveModeLut;
    CURVE_OUT[kCurveScale] = 0.0;
}

/// The luminance curve from the scanned CDF (cdfAt(0, i)): the header and a sample per bin, the samples
/// spread over the `groupSize` invocations of the workgroup (`thread` is this one's index).
void writeEqualizeCurve(uint thread, uint groupSize, uint bins, bool encodedOutput)
{
    if (thread == 0u)
        writeEqualizeHeader(bins, 1u);
    for (uint i = thread; i < bins; i += groupSize)
        CURVE_OUT[kCurveHeaderWords + i] = equalized(0u, i, bins, encodedOutput);
}
