// HostDevice.h: the one header of constants and small functions shared by C++, GLSL and CUDA.
//
// Included by the C++ host (namespace hd), by every GLSL shader (through the shader loader's
// #include) and by CUDA kernels. It holds binding indices, limits, workgroup sizes, the luminance
// and binning definition, and buffer layouts. Layout rule: buffers are std430 arrays of 32-bit
// scalars addressed by the offsets below (no structs with vec3, no bool), so the three languages
// agree byte for byte.
#ifndef HDRLAB_HOST_DEVICE_H
#define HDRLAB_HOST_DEVICE_H

#if defined(__CUDACC__)
#define HD_FUNC __host__ __device__ inline
#define HD_CONST(type, name, value) constexpr type name = value;
#define HD_NAMESPACE_BEGIN namespace hd {
#define HD_NAMESPACE_END }
#define HD_UINT unsigned // one keyword, so HD_UINT(x) casts compile
#define HD_IS_NAN(x) isnan(x)
#define HD_IS_INF(x) isinf(x)
#define HD_LOG2(x) log2f(x)
#define HD_FLOOR(x) floorf(x)
#elif defined(__cplusplus)
#include <cmath>
#include <cstdint>
#define HD_FUNC inline
#define HD_CONST(type, name, value) inline constexpr type name = value;
#define HD_NAMESPACE_BEGIN namespace hd {
#define HD_NAMESPACE_END }
#define HD_UINT std::uint32_t
#define HD_IS_NAN(x) std::isnan(x)
#define HD_IS_INF(x) std::isinf(x)
#define HD_LOG2(x) std::log2(x)
#define HD_FLOOR(x) std::floor(x)
#else // GLSL
#define HD_FUNC
#define HD_CONST(type, name, value) const type name = value;
#define HD_NAMESPACE_BEGIN
#define HD_NAMESPACE_END
#define HD_UINT uint
#define HD_IS_NAN(x) isnan(x)
#define HD_IS_INF(x) isinf(x)
#define HD_LOG2(x) log2(x)
#define HD_FLOOR(x) floor(x)
#endif

HD_NAMESPACE_BEGIN

// ---- Limits ------------------------------------------------------------------------------------
HD_CONST(HD_UINT, kMaxHistogramBins, 4096u)   // every method supports 1..kMaxHistogramBins
HD_CONST(HD_UINT, kDefaultHistogramBins, 256u)
HD_CONST(HD_UINT, kMaxCurveSamples, 4096u)    // tone-curve LUT entries per channel
HD_CONST(HD_UINT, kWardDefaultBins, 100u)     // pcond's HISTRES

// ---- Luminance (Rec. 709 / sRGB primaries, scene-linear) ----------------------------------------
HD_CONST(float, kLumaR, 0.2126f)
HD_CONST(float, kLumaG, 0.7152f)
HD_CONST(float, kLumaB, 0.0722f)

HD_FUNC float hdLuminance(float r, float g, float b)
{
    return kLumaR * r + kLumaG * g + kLumaB * b;
}

// ---- Binning ------------------------------------------------------------------------------------
// The histogram is over log2(L) in [logMin, logMax] (EV), split into binCount equal bins
// [logMin + i*w, logMin + (i+1)*w), the last one closed on the right. hdBinOf returns the bin, or
// one of the negative codes below for pixels that go in no bin.
HD_CONST(int, kBinNaN, -1)          // L is NaN
HD_CONST(int, kBinInf, -2)          // L is +-Inf
HD_CONST(int, kBinNonPositive, -3)  // L <= 0 (negative or zero)
HD_CONST(int, kBinBelow, -4)        // log2 L < logMin and the policy counts it separately
HD_CONST(int, kBinAbove, -5)        // log2 L > logMax and the policy counts it separately

// Out-of-range policy (HistogramParams.flags bit 0).
HD_CONST(HD_UINT, kOutOfRangeClamp, 0u)     // below/above go into the end bins (default)
HD_CONST(HD_UINT, kOutOfRangeSeparate, 1u)  // below/above are counted in their own counters

HD_FUNC int hdBinOf(float L, float logMin, float logMax, HD_UINT binCount, HD_UINT outOfRange)
{
    if (HD_IS_NAN(L))
        return kBinNaN;
    if (HD_IS_INF(L))
        return kBinInf;
    if (L <= 0.0f)
        return kBinNonPositive;
    // A degenerate or NaN range (never set by the pipeline) puts every valid pixel in bin 0 instead
    // of dividing by zero (int(NaN) is undefined in GLSL and C++).
    float t = logMax > logMin ? (HD_LOG2(L) - logMin) / (logMax - logMin) : 0.0f;
    if (t < 0.0f)
        return outOfRange == kOutOfRangeSeparate ? kBinBelow : 0;
    if (t > 1.0f)
        return outOfRange == kOutOfRangeSeparate ? kBinAbove : int(binCount) - 1;
    int bin = int(HD_FLOOR(t * float(binCount)));
    return bin < int(binCount) ? bin : int(binCount) - 1;
}

// ---- Histogram buffer layout (uint32 SSBO, kHistogramBufferWords words) -------------------------
// [0, kMaxHistogramBins): bin counts; then the counters of pixels in no bin.
HD_CONST(HD_UINT, kCounterNaN, 0u)
HD_CONST(HD_UINT, kCounterInf, 1u)
HD_CONST(HD_UINT, kCounterNonPositive, 2u)
HD_CONST(HD_UINT, kCounterBelow, 3u)
HD_CONST(HD_UINT, kCounterAbove, 4u)
HD_CONST(HD_UINT, kCounterCount, 8u)
HD_CONST(HD_UINT, kHistogramCountersOffset, 4096u)  // == kMaxHistogramBins
HD_CONST(HD_UINT, kHistogramBufferWords, 4104u)     // bins + counters

// Maps a negative hdBinOf code to its counter index.
HD_FUNC HD_UINT hdCounterOfCode(int code)
{
    return HD_UINT(-code - 1);
}

// ---- Histogram parameters (std430 SSBO of 32-bit words, kHistogramParamsWords) ------------------
// Lives on the GPU so that an automatic range (a GPU reduction) never needs a CPU readback.
HD_CONST(HD_UINT, kParamLogMin, 0u)       // float bits
HD_CONST(HD_UINT, kParamLogMax, 1u)       // float bits
HD_CONST(HD_UINT, kParamBinCount, 2u)     // uint
HD_CONST(HD_UINT, kParamOutOfRange, 3u)   // uint policy
HD_CONST(HD_UINT, kParamWidth, 4u)        // input width in pixels
HD_CONST(HD_UINT, kParamHeight, 5u)       // input height in pixels
HD_CONST(HD_UINT, kHistogramParamsWords, 8u)

// ---- Tone curve buffer layout (float SSBO) ------------------------------------------------------
// A LUT of display luminance (display-referred linear, 0..1) over log2 of world luminance. Sample i
// sits at logMin + (i + 0.5) * (logMax - logMin) / sampleCount; the apply pass interpolates
// linearly between samples, continues linearly in Lw (constant Ld/Lw) below the first sample
// and clamps above the last. Per-channel curves use three LUTs.
HD_CONST(HD_UINT, kCurveLogMin, 0u)
HD_CONST(HD_UINT, kCurveLogMax, 1u)
HD_CONST(HD_UINT, kCurveSampleCount, 2u)  // float holding an integer count
HD_CONST(HD_UINT, kCurveChannels, 3u)     // 1 (luminance) or 3 (per channel R, G, B)
HD_CONST(HD_UINT, kCurveMode, 4u)         // kCurveModeLut / kCurveModeLinearScale
HD_CONST(HD_UINT, kCurveScale, 5u)        // display = scale * Lw in kCurveModeLinearScale
// Local adaptation (percentile operator, CUDA summed-area table): with it on, the apply pass looks
// the curve up at Lw * 2^(blend * (reference - localMean)), localMean being the mean log2 L around
// the pixel and reference the globally metered log2 L, so dark neighbourhoods are exposed up.
HD_CONST(HD_UINT, kCurveLocalBlend, 6u)
HD_CONST(HD_UINT, kCurveLocalReference, 7u)
HD_CONST(float, kLocalAdaptationMaxShiftEv, 8.0f)  // the local shift is clamped to +-8 EV
HD_CONST(HD_UINT, kCurveHeaderWords, 16u)
HD_CONST(HD_UINT, kCurveBufferWords, 12304u)  // header + 3 * kMaxCurveSamples
HD_CONST(float, kCurveModeLut, 0.0f)
HD_CONST(float, kCurveModeLinearScale, 1.0f)

// ---- Binding points (shared by every pass; no pass relies on state left by another) -----------
HD_CONST(HD_UINT, kBindingHistogram, 0u)        // SSBO uint[kHistogramBufferWords]
HD_CONST(HD_UINT, kBindingHistogramParams, 1u)  // SSBO uint[kHistogramParamsWords]
HD_CONST(HD_UINT, kBindingCdf, 2u)              // SSBO uint[kMaxHistogramBins]
HD_CONST(HD_UINT, kBindingCurve, 3u)            // SSBO float[kCurveBufferWords]
HD_CONST(HD_UINT, kBindingOperatorState, 4u)    // SSBO, operator-specific state
HD_CONST(HD_UINT, kBindingScratch0, 5u)
HD_CONST(HD_UINT, kBindingScratch1, 6u)
HD_CONST(HD_UINT, kBindingScratch2, 7u)
HD_CONST(HD_UINT, kBindingLocalAdaptation, 8u) // SSBO float[w*h]: local mean log2 L per pixel
HD_CONST(HD_UINT, kTextureUnitInput, 0u)        // sampler2D scene-linear input
HD_CONST(HD_UINT, kTextureUnitAux, 1u)
HD_CONST(HD_UINT, kImageUnitOutput, 0u)

// Apply-pass modes.
HD_CONST(HD_UINT, kApplyGlobal, 0u)          // the curve alone
HD_CONST(HD_UINT, kApplyLocal, 1u)           // the curve with local adaptation
HD_CONST(HD_UINT, kApplyViewLocalMean, 2u)   // show the local mean log2 L as grey over the histogram range

// ---- Workgroup sizes ----------------------------------------------------------------------------
HD_CONST(HD_UINT, kHistogramGroupX, 16u)
HD_CONST(HD_UINT, kHistogramGroupY, 16u)
HD_CONST(HD_UINT, kScanGroupSize, 1024u)
HD_CONST(HD_UINT, kReduceGroupSize, 256u)

HD_NAMESPACE_END

#endif // HDRLAB_HOST_DEVICE_H
