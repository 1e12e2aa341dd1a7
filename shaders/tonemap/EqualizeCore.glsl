// EqualizeCore.glsl: histogram equalization, Bugetti's equation (1) cdf_min form without rounding:
// T[i] = (cdf[i] - cdf_min) / (N - cdf_min), one sample per bin centre over the histogram range
// (Equalize.comp on a scan's CDFs; EqualizeFused.comp after scanning in its own dispatch). N ==
// cdf_min (one occupied bin) or N == 0 gives DEGENERATE_VALUE. Optionally the value is an
// sRGB-encoded level (curve = sRGB EOTF of it). The includer defines `uint cdfAt(uint channel, uint i)`.

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
    curve[kCurveLogMin] = uintBitsToFloat(params[kParamLogMin]);
    curve[kCurveLogMax] = uintBitsToFloat(params[kParamLogMax]);
    curve[kCurveSampleCount] = float(bins);
    curve[kCurveChannels] = float(channels);
    curve[kCurveMode] = kCurveModeLut;
    curve[kCurveScale] = 0.0;
}
