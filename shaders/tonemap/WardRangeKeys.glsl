// WardRangeKeys.glsl: the keys in which Ward's frame fit (ToneWard.h) gathers the minimum and maximum
// of its foveal samples' luminance with one 32-bit atomicMax each, order-independent and exact. A
// sample counts as max(L, 0) when finite and not at all otherwise (WardFit.glsl, step 1); its float
// bits then order like its value, so the minimum's key is ~bits and the maximum's bits + 1, and 0 (no
// key can be 0: bits <= 0x7f800000 and ~bits >= 0x807fffff) means "no sample". Shared by
// WardCurveSpread.comp's range stage and the histogram pass that makes the foveal image
// (histogram/SharedAtomic.comp, FOVEAL_KEYS 1), so both fold a texel into the same bits.

// (minimum key, maximum key) of one sample of luminance L, or (0, 0) for a non-finite one.
uvec2 wardRangeKeys(float L)
{
    if (isnan(L) || isinf(L))
        return uvec2(0u);
    uint bits = floatBitsToUint(max(L, 0.0)) & 0x7fffffffu; // -0 as +0: the floats' order, as uints
    return uvec2(~bits, bits + 1u);
}

// The extremes back from the keys: with no sample, the one-workgroup kernel's starting values.
float wardRangeMinimum(uint minKey)
{
    return minKey == 0u ? 3.0e38 : uintBitsToFloat(~minKey);
}

float wardRangeMaximum(uint maxKey)
{
    return maxKey == 0u ? -3.0e38 : uintBitsToFloat(maxKey - 1u);
}
