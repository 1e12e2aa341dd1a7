// HostDevice.h: the one header of constants and small functions shared by C++, GLSL and CUDA.
//
// Included by the C++ host (namespace hd), by every GLSL shader (through the shader loader's
// #include) and by CUDA kernels. It holds binding indices, limits, workgroup sizes, the luminance
// and binning definition, and buffer layouts. Layout rule: buffers are std430 arrays of 32-bit
// scalars addressed by the offsets below (no structs with vec3, no bool), so the three languages
// agree byte for byte. The macros that make one source valid in all three are in HostDeviceMacros.h,
// the float maths that gives the same bits on every device (hdLog2, hdDivide, ...) in ExactFloat.h;
// both come with this header.
#ifndef HDRLAB_HOST_DEVICE_H
#define HDRLAB_HOST_DEVICE_H

#include "shared/ExactFloat.h"

HD_NAMESPACE_BEGIN

// ---- Limits ------------------------------------------------------------------------------------
HD_CONST(HD_UINT, kMaxHistogramBins, 4096u)   // every method supports 1..kMaxHistogramBins
HD_CONST(HD_UINT, kDefaultHistogramBins, 256u)
HD_CONST(HD_UINT, kMaxCurveSamples, 4096u)    // tone-curve LUT entries per channel
HD_CONST(HD_UINT, kWardDefaultBins, 100u)     // pcond's HISTRES

// ---- Luminance (scene-linear) ---------------------------------------------------------------------
// The default weights: Rec. 709 / sRGB primaries, 1 unit = 1 cd/m^2. The pipeline's weights are a
// run-time choice (post::LuminanceUnits: a Radiance picture's are 179/EXPOSURE times Radiance's RGB
// weights), written into the histogram params (kParamLuma*) that every pass computing luminance reads.
HD_CONST(float, kLumaR, 0.2126f)
HD_CONST(float, kLumaG, 0.7152f)
HD_CONST(float, kLumaB, 0.0722f)

// Channels closer to zero than kTinyChannel count as zero. GPUs flush denormal floats to zero
// (llvmpipe and NVIDIA alike) and the CPU does not; with tiny channels gone, every product below is a
// normal float, so the luminance is the same bit for bit everywhere (a denormal result of a
// cancellation is caught by hdBinOf's kMinLuminance test).
HD_CONST(float, kTinyChannel, 7.8886091e-31f) // 2^-100

HD_FUNC float hdFlushTiny(float c)
{
    return (c > -kTinyChannel && c < kTinyChannel) ? 0.0f : c;
}

// Luminance in cd/m^2 of a colour under the weights (wr, wg, wb) (cd/m^2 per channel unit).
// Evaluated in exactly this order with one IEEE rounding per operation on the CPU, in GLSL
// (`precise`) and in CUDA (__fmul_rn/__fadd_rn), so all three agree bit for bit.
HD_FUNC float hdLuminanceWeighted(float r, float g, float b, float wr, float wg, float wb)
{
    HD_PRECISE float red = HD_MUL(wr, hdFlushTiny(r));
    HD_PRECISE float green = HD_MUL(wg, hdFlushTiny(g));
    HD_PRECISE float blue = HD_MUL(wb, hdFlushTiny(b));
    HD_PRECISE float luminance = HD_ADD(HD_ADD(red, green), blue);
    return luminance;
}

// The default weights (scenes, tests; the display histogram of sRGB output).
HD_FUNC float hdLuminance(float r, float g, float b)
{
    return hdLuminanceWeighted(r, g, b, kLumaR, kLumaG, kLumaB);
}

// ---- The frame's storage (scene/PreExposure.h) -------------------------------------------------
// A half-float frame stores the scene pre-exposed: radiance times 2^k, k an integer in
// [kMinPreExposure, kMaxPreExposure], so every consumer undoes it exactly by folding 2^-k into the
// luminance weights (and cd/m^2 per unit): a power of two only shifts the exponent.
HD_CONST(float, kHalfFloatMax, 65504.0f)         // the largest finite half float: the clamp
HD_CONST(float, kHalfFloatRoundsToMax, 65488.0f) // a float above it is stored as 65504 (round to nearest even)
HD_CONST(int, kMinPreExposure, -24)              // 65504 x 2^24 ~ 1.1e12 cd/m^2: the RGBA32F frame's own clamp
HD_CONST(int, kMaxPreExposure, 24)
// The scene's frame statistics (uint SSBO, kFrameStatsWords words, cleared every frame): written
// while the frame is stored, read back asynchronously for the choice of k and the clip count.
HD_CONST(HD_UINT, kFrameStatsClipped, 0u)  // pixels with a channel stored at the clamp (clipped)
HD_CONST(HD_UINT, kFrameStatsPeak, 1u)     // float bits: the largest channel before pre-exposure and clamp, cd/m^2
HD_CONST(HD_UINT, kFrameStatsWords, 4u)

// ---- Binning ------------------------------------------------------------------------------------
// The histogram is over log2(L) in [logMin, logMax] (EV), split into binCount equal bins
// [logMin + i*w, logMin + (i+1)*w), the last one closed on the right. hdBinOf returns the bin, or
// one of the negative codes below for pixels that go in no bin.
//
// Bit-exact everywhere: the GPUs' log2 and division differ from the CPU's in the last bits, which
// moved pixels near bin edges into the neighbouring bin. So binning uses only operations that IEEE
// 754 rounds the same way on every device (add, subtract, multiply, compare, integer and bit
// operations), evaluated in a fixed order: hdLog2 is a polynomial, and the bins-per-EV scale is a
// reciprocal by Newton's iteration (both in ExactFloat.h). The CPU reference, every GLSL shader and
// every CUDA kernel call these same functions, so a pixel lands in the same bin on all of them.
HD_CONST(int, kBinNaN, -1)          // L is NaN
HD_CONST(int, kBinInf, -2)          // L is +-Inf
HD_CONST(int, kBinNonPositive, -3)  // L <= 0 (negative or zero), or below kMinLuminance
HD_CONST(int, kBinBelow, -4)        // log2 L < logMin and the policy counts it separately
HD_CONST(int, kBinAbove, -5)        // log2 L > logMax and the policy counts it separately

// Out-of-range policy (HistogramParams.flags bit 0).
HD_CONST(HD_UINT, kOutOfRangeClamp, 0u)     // below/above go into the end bins (default)
HD_CONST(HD_UINT, kOutOfRangeSeparate, 1u)  // below/above are counted in their own counters

// The smallest normal float: a luminance below it would be a denormal, which GPUs flush to zero.
HD_CONST(float, kMinLuminance, 1.17549435e-38f)
// Range widths (logMax - logMin) outside [2^-60, 2^60] EV count as degenerate.
HD_CONST(float, kMinRangeWidth, 8.6736174e-19f)
HD_CONST(float, kMaxRangeWidth, 1.1529215e18f)

// Bins per EV, binCount / (logMax - logMin), correctly rounded (so "nice" ranges bin exactly as the
// real numbers say): a reciprocal by Newton's iteration from a bit-trick guess, then the nearest of
// the candidates around binCount * reciprocal by exact residuals. 0 when the range is degenerate:
// then every valid pixel goes to bin 0. Uniform per dispatch, so kernels compute it once.
HD_FUNC float hdBinScale(float logMin, float logMax, HD_UINT binCount)
{
    if (!(logMax > logMin))
        return 0.0f; // also NaN
    HD_PRECISE float width = HD_SUB(logMax, logMin);
    if (!(width >= kMinRangeWidth && width <= kMaxRangeWidth))
        return 0.0f;
    HD_PRECISE float r = hdReciprocalEstimate(width);
    float bins = float(binCount);
    HD_PRECISE float estimate = HD_MUL(bins, r); // within a few ulp of bins / width
    HD_UINT best = HD_FLOAT_BITS(estimate);
    float bestResidual = hdQuotientResidual(bins, width, estimate);
    for (int step = -3; step <= 3; ++step) {
        HD_UINT candidate = HD_UINT(int(HD_FLOAT_BITS(estimate)) + step);
        float residual = hdQuotientResidual(bins, width, HD_BITS_FLOAT(candidate));
        if (residual < bestResidual) {
            bestResidual = residual;
            best = candidate;
        }
    }
    return HD_BITS_FLOAT(best);
}

// hdBinOf with the scale of hdBinScale(logMin, logMax, binCount) computed by the caller.
HD_FUNC int hdBinOfScaled(float L, float logMin, float logMax, float scale, HD_UINT binCount, HD_UINT outOfRange)
{
    if (HD_IS_NAN(L))
        return kBinNaN;
    if (HD_IS_INF(L))
        return kBinInf;
    if (!(L >= kMinLuminance))
        return kBinNonPositive;
    // A degenerate or NaN range (never set by the pipeline) puts every valid pixel in bin 0.
    if (!(scale > 0.0f))
        return 0;
    HD_PRECISE float lg = hdLog2(L);
    if (lg < logMin)
        return outOfRange == kOutOfRangeSeparate ? kBinBelow : 0;
    if (lg > logMax)
        return outOfRange == kOutOfRangeSeparate ? kBinAbove : int(binCount) - 1;
    HD_PRECISE float position = HD_MUL(HD_SUB(lg, logMin), scale); // >= 0: int() is floor
    int bin = int(position);
    return bin < int(binCount) ? bin : int(binCount) - 1;
}

HD_FUNC int hdBinOf(float L, float logMin, float logMax, HD_UINT binCount, HD_UINT outOfRange)
{
    return hdBinOfScaled(L, logMin, logMax, hdBinScale(logMin, logMax, binCount), binCount, outOfRange);
}

// ---- Exact binning at the speed of the hardware log2 ---------------------------------------------
// hdBinOfFast gives hdBinOfScaled's bin, bit for bit, for most pixels without its polynomial: it
// bins with the platform's fast log2 (HD_LOG2_FAST) and keeps that bin only where the position is
// further than `margin` from every bin edge and from both ends of the range; the few pixels nearer
// (about 2 x margin of them) take the exact path. The margin bounds the difference between the two
// positions: the fast log2 within 2^-21 + 3 ulp of log2 L (the GLSL 4.6 and CUDA precision of
// log2), hdLog2 within 1.5e-7 + 1/2 ulp, each then rounded by the subtraction and the scaling, all
// doubled. hdBinFastMargin returns 2 (never fast) where the margin would not be small. Uniform per
// dispatch, so kernels compute it once, as the scale.
HD_FUNC float hdBinFastMargin(float logMin, float logMax, float scale, HD_UINT binCount)
{
    if (!(scale > 0.0f))
        return 2.0f;
    const float largestLog = (logMin < 0.0f ? -logMin : logMin) > (logMax < 0.0f ? -logMax : logMax)
                                 ? (logMin < 0.0f ? -logMin : logMin)
                                 : (logMax < 0.0f ? -logMax : logMax);
    // 2^-19 = 2 x (2^-21 + 2^-22 + 4 x 2^-23 per unit of |log2 L|, rounded up); 2^-22 per bin: the
    // position's own rounding, doubled.
    const float margin = scale * (2.0f + largestLog) * 1.9073486e-06f + float(binCount) * 2.3841858e-07f;
    return margin < 0.25f ? margin : 2.0f;
}

HD_FUNC int hdBinOfFast(float L, float logMin, float logMax, float scale, HD_UINT binCount, HD_UINT outOfRange,
                        float margin)
{
    if (L >= kMinLuminance && !HD_IS_INF(L)) { // NaN fails the first test
        const float position = (HD_LOG2_FAST(L) - logMin) * scale;
        if (position >= margin && position <= float(binCount) - margin) {
            const float below = HD_FLOOR(position);
            const float fraction = position - below;
            if (fraction >= margin && fraction <= 1.0f - margin)
                return int(below);
        }
    }
    return hdBinOfScaled(L, logMin, logMax, scale, binCount, outOfRange);
}

// ---- Ward's threshold contrast (tonemap/WardCurve.comp, reference/ToneWardExact) -----------------
// Ward's threshold contrast dLt(La) in cd/m^2 (pcond htcontrs, after Ferwerda et al. 1996) with the
// exact float functions of ExactFloat.h, for the frame fit and its exact reference.
HD_FUNC float hdWardThreshold(float La)
{
    if (La < 1.148e-4f)
        return 1.38e-3f;
    HD_PRECISE float l = hdLog10(La);
    HD_PRECISE float logDl;
    if (l < -1.44f) {
        HD_PRECISE float base = HD_ADD(HD_MUL(0.405f, l), 1.6f);
        logDl = HD_SUB(hdPow(base, 2.18f), 2.86f);
    } else if (l < -0.0184f) {
        logDl = HD_SUB(l, 0.395f);
    } else if (l < 1.9f) {
        HD_PRECISE float base = HD_ADD(HD_MUL(0.249f, l), 0.65f);
        logDl = HD_SUB(hdPow(base, 2.7f), 0.72f);
    } else
        logDl = HD_SUB(l, 1.255f);
    return hdExp10(logDl);
}

// ---- False-colour EV view and pixel probe ------------------------------------------------------
// EV in hdrlab is plain log2 of scene-linear luminance in cd/m^2, the histogram's axis: EV 0 is
// 1 cd/m^2, each EV doubles it. The photographic exposure value at ISO 100 (reflected-light
// calibration K = 12.5) is EV100 = log2(L * 100 / 12.5) = EV + kEv100Offset.
HD_CONST(float, kEv100Offset, 3.0f)

// The false-colour ramp: one band per whole EV from floor(logMin) to ceil(logMax) of the histogram's
// range (several whole EV per band where that would make more than kFalseColourMaxBands bands),
// coloured along a Turbo-like ramp interpolated in 8-bit integers between its anchors, so the CPU
// reference and every GPU give the same bytes. log2 L is hdLog2, exactly as the histogram bins it.
HD_CONST(int, kFalseColourMaxBands, 48)
HD_CONST(int, kFalseColourEvLimit, 160)         // band limits are clamped to +-160 EV (floats end near 2^128)
HD_CONST(int, kFalseColourAnchorCount, 9)
HD_CONST(HD_UINT, kFalseColourInvalid, 0xFF00FFu)  // L NaN, +-Inf or negative: magenta (0xRRGGBB)
HD_CONST(HD_UINT, kFalseColourUnder, 0x000000u)    // L zero (or denormal) or log2 L below logMin: black
HD_CONST(HD_UINT, kFalseColourOver, 0xFFFFFFu)     // log2 L above logMax: white
HD_CONST(int, kFalseColourBandInvalid, -1)
HD_CONST(int, kFalseColourBandUnder, -2)
HD_CONST(int, kFalseColourBandOver, -3)

// Turbo (Mikhailov 2019) at 9 evenly spaced points, sRGB bytes 0xRRGGBB.
HD_FUNC HD_UINT hdFalseColourAnchor(int index)
{
    if (index <= 0)
        return 0x30123Bu;
    if (index == 1)
        return 0x446AEEu;
    if (index == 2)
        return 0x26BDE1u;
    if (index == 3)
        return 0x40F392u;
    if (index == 4)
        return 0x96FA50u;
    if (index == 5)
        return 0xEED02Du;
    if (index == 6)
        return 0xFF801Du;
    if (index == 7)
        return 0xC92D0Cu;
    return 0x900D00u;
}

// floor(x) as an int for |x| <= kFalseColourEvLimit (NaN and beyond clamp to the limits).
HD_FUNC int hdFloorEv(float x)
{
    if (!(x >= -float(kFalseColourEvLimit)))
        return -kFalseColourEvLimit;
    if (x > float(kFalseColourEvLimit))
        return kFalseColourEvLimit;
    int truncated = int(x);
    return float(truncated) > x ? truncated - 1 : truncated;
}

HD_FUNC int hdFalseColourFirstEv(float logMin)
{
    return hdFloorEv(logMin);
}

// Whole EV per band: 1 unless the range spans more than kFalseColourMaxBands EV.
HD_FUNC int hdFalseColourEvPerBand(float logMin, float logMax)
{
    int first = hdFloorEv(logMin);
    int last = -hdFloorEv(-logMax); // ceil
    int span = last - first > 1 ? last - first : 1;
    return (span + kFalseColourMaxBands - 1) / kFalseColourMaxBands;
}

HD_FUNC int hdFalseColourBandCount(float logMin, float logMax)
{
    int first = hdFloorEv(logMin);
    int last = -hdFloorEv(-logMax);
    int span = last - first > 1 ? last - first : 1;
    int perBand = hdFalseColourEvPerBand(logMin, logMax);
    return (span + perBand - 1) / perBand;
}

// The band of luminance L: 0..bandCount-1 for log2 L in [logMin, logMax], band b covering
// [first + b * perBand, first + (b + 1) * perBand) EV; else one of the kFalseColourBand* codes.
HD_FUNC int hdFalseColourBand(float L, float logMin, float logMax)
{
    if (HD_IS_NAN(L) || HD_IS_INF(L) || L < 0.0f)
        return kFalseColourBandInvalid;
    if (!(L >= kMinLuminance))
        return kFalseColourBandUnder;
    HD_PRECISE float lg = hdLog2(L);
    if (lg < logMin)
        return kFalseColourBandUnder;
    if (lg > logMax)
        return kFalseColourBandOver;
    int band = (hdFloorEv(lg) - hdFalseColourFirstEv(logMin)) / hdFalseColourEvPerBand(logMin, logMax);
    int count = hdFalseColourBandCount(logMin, logMax);
    return band < 0 ? 0 : (band >= count ? count - 1 : band);
}

// The colour (0xRRGGBB, sRGB bytes) of a band or band code; integer interpolation in 1/256 steps.
HD_FUNC HD_UINT hdFalseColourOfBand(int band, int bandCount)
{
    if (band == kFalseColourBandInvalid)
        return kFalseColourInvalid;
    if (band == kFalseColourBandUnder)
        return kFalseColourUnder;
    if (band == kFalseColourBandOver)
        return kFalseColourOver;
    int scaled = bandCount > 1 ? (band * (kFalseColourAnchorCount - 1) * 256) / (bandCount - 1) : 0;
    int segment = scaled / 256;
    int fraction = scaled - segment * 256;
    if (segment >= kFalseColourAnchorCount - 1) {
        segment = kFalseColourAnchorCount - 2;
        fraction = 256;
    }
    HD_UINT from = hdFalseColourAnchor(segment);
    HD_UINT to = hdFalseColourAnchor(segment + 1);
    HD_UINT result = 0u;
    for (int shift = 0; shift <= 16; shift += 8) {
        HD_UINT a = (from >> HD_UINT(shift)) & 0xFFu;
        HD_UINT b = (to >> HD_UINT(shift)) & 0xFFu;
        HD_UINT mixed = (a * HD_UINT(256 - fraction) + b * HD_UINT(fraction) + 128u) / 256u;
        result |= mixed << HD_UINT(shift);
    }
    return result;
}

HD_FUNC HD_UINT hdFalseColourOf(float L, float logMin, float logMax)
{
    return hdFalseColourOfBand(hdFalseColourBand(L, logMin, logMax), hdFalseColourBandCount(logMin, logMax));
}

// Rows at the bottom of a false-colour image that show the legend strip (headless screenshots): none
// below 64 rows, else height / 24 within [8, 20].
HD_FUNC int hdFalseColourLegendRows(int height)
{
    if (height < 64)
        return 0;
    int rows = height / 24;
    return rows < 8 ? 8 : (rows > 20 ? 20 : rows);
}

// Pixel probe records (float/uint SSBO, kProbeRecordWords words per probe): what the probe pass
// reads at one texel (bottom-up texel coordinates, as GL stores the frame).
HD_CONST(HD_UINT, kMaxProbes, 8u)
HD_CONST(HD_UINT, kProbeRecordWords, 24u)
HD_CONST(HD_UINT, kProbeX, 0u)              // int texel x
HD_CONST(HD_UINT, kProbeY, 1u)              // int texel y (row 0 at the bottom)
HD_CONST(HD_UINT, kProbeFlags, 2u)          // uint: kProbeInside | kProbeLogValid
HD_CONST(HD_UINT, kProbeRed, 3u)            // float scene-linear RGB (the frame's texel)
HD_CONST(HD_UINT, kProbeGreen, 4u)
HD_CONST(HD_UINT, kProbeBlue, 5u)
HD_CONST(HD_UINT, kProbeLuminance, 6u)      // float hdLuminance
HD_CONST(HD_UINT, kProbeLog2, 7u)           // float hdLog2(L) where kProbeLogValid, else 0
HD_CONST(HD_UINT, kProbeBin, 8u)            // int hdBinOf(L, histogram params) or a kBin* code
HD_CONST(HD_UINT, kProbeDisplay, 9u)        // float display luminance through the curve (luminance LUT)
HD_CONST(HD_UINT, kProbeShown, 10u)         // uint packUnorm4x8 of the tone-mapped output texel (sRGB bytes)
HD_CONST(HD_UINT, kProbeLogMin, 11u)        // float: the histogram range and bins the probe binned with
HD_CONST(HD_UINT, kProbeLogMax, 12u)
HD_CONST(HD_UINT, kProbeBinCount, 13u)      // uint
HD_CONST(HD_UINT, kProbeBand, 14u)          // int hdFalseColourBand
HD_CONST(HD_UINT, kProbeFalseColour, 15u)   // uint 0xRRGGBB
HD_CONST(HD_UINT, kProbeWidth, 16u)         // uint frame size the probe read
HD_CONST(HD_UINT, kProbeHeight, 17u)
HD_CONST(HD_UINT, kProbeTileValue, 18u)     // 4 floats: the pixel's four tile curves at its L (kProbeTiles; order
                                            // (x1,y1) (x2,y1) (x1,y2) (x2,y2), shared/LocalTiles.h's blend)
HD_CONST(HD_UINT, kProbeTileLocal, 22u)     // float: their bilinear blend (the local value)
HD_CONST(HD_UINT, kProbeTileGlobal, 23u)    // float: the global curve at L, clamped as the tiled apply clamps it
HD_CONST(HD_UINT, kProbeInside, 1u)
HD_CONST(HD_UINT, kProbeLogValid, 2u)
HD_CONST(HD_UINT, kProbeTiles, 4u)          // the tile words are set (a local operator's tile curves were bound)

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
// float bits: what a stored channel is multiplied by to give the input's own units: 2^-k for a
// frame pre-exposed by 2^k (scene/PreExposure.h), else 1. The weights and kParamCdPerUnit already
// include it; passes that report channel values (the probe) use it.
HD_CONST(HD_UINT, kParamStoredScale, 6u)
// The luminance definition (float bits): L = hdLuminanceWeighted(r, g, b, R, G, B) in cd/m^2, and
// cd/m^2 per unit of one channel (per-channel curves look a channel c up at c * kParamCdPerUnit).
// Defaults kLumaR/G/B and 1.
HD_CONST(HD_UINT, kParamLumaR, 8u)
HD_CONST(HD_UINT, kParamLumaG, 9u)
HD_CONST(HD_UINT, kParamLumaB, 10u)
HD_CONST(HD_UINT, kParamCdPerUnit, 11u)
HD_CONST(HD_UINT, kHistogramParamsWords, 12u)

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
HD_CONST(HD_UINT, kImageUnitInput, 1u)         // image2D input (the histogram factor experiments)
HD_CONST(HD_UINT, kImageUnitHdrOutput, 2u)     // image2D rgba32f: the apply pass's HDR10 output (cd/m^2)
HD_CONST(HD_UINT, kImageUnitApplyOutput, 3u)   // the one-pass histogram's display output (SharedAtomic.comp APPLY)

// Apply-pass modes.
HD_CONST(HD_UINT, kApplyGlobal, 0u)          // the curve alone
HD_CONST(HD_UINT, kApplyLocal, 1u)           // the curve with local adaptation
HD_CONST(HD_UINT, kApplyViewLocalMean, 2u)   // show the local mean log2 L as grey over the histogram range
HD_CONST(float, kHdrReferenceWhite, 203.0f)  // ITU-R BT.2408 reference white, cd/m^2 (post::kHdrReferenceWhite)

// ---- Metering masks (percentile operator; src/post/tonemap/MeteringMask.h) -----------------------
HD_CONST(HD_UINT, kMeteringAverage, 0u)         // post::MeteringMask, in order
HD_CONST(HD_UINT, kMeteringCentreWeighted, 1u)
HD_CONST(HD_UINT, kMeteringEllipse, 2u)
HD_CONST(HD_UINT, kMeteringTexture, 3u)
HD_CONST(float, kMeteringWeightScale, 65535.0f)  // a weight w in [0, 1] counts as round(w * 65535)
HD_CONST(HD_UINT, kMeteringCdfTotal, 1073741824u) // 2^30: the last entry of the normalised weighted CDF
HD_CONST(HD_UINT, kMeteringScanGroupSize, 256u)
// Consecutive rows each invocation of the weighted histogram walks (16 x 16 groups, so a 16 x 256
// tile): fewer groups flush fewer shared bins into global atomics, and a run of pixels in one bin
// takes one shared atomic. A group's sums stay below 4096 x 65535 < 2^32.
HD_CONST(HD_UINT, kMeteringRowsPerInvocation, 16u)
HD_CONST(HD_UINT, kTextureUnitDepth, 2u)         // sampler2D scene depth (metering's sky exclusion)

// A weight as the fixed-point count the weighted histogram adds: NaN, negative and zero give 0,
// 1 and above 65535, otherwise floor(w * 65535 + 0.5) with one rounding per operation (exact on
// every device, so the CPU reference quantises identically).
HD_FUNC HD_UINT hdQuantiseMeteringWeight(float w)
{
    if (!(w > 0.0f))
        return 0u;
    if (w >= 1.0f)
        return 65535u;
    HD_PRECISE float scaled = HD_ADD(HD_MUL(w, kMeteringWeightScale), 0.5f);
    return HD_UINT(scaled);
}

// The texel of a `texels`-long axis nearest the centre of pixel x of a `pixels`-long axis:
// floor((x + 0.5) * texels / pixels) in integers (exact; x < 2^14, texels <= 2^14).
HD_FUNC int hdNearestTexel(int x, int pixels, int texels)
{
    return ((2 * x + 1) * texels) / (2 * pixels);
}

// ---- Fused histogram (the fused-lighting method, src/post/histogram/HistogramFusedLighting.h) ----
// The scene's deferred lighting pass bins every pixel as it stores it (shaders/histogram/FusedLighting.glsl).
// SSBO bindings of its outputs, clear of the scene's own (materials at 0):
HD_CONST(HD_UINT, kBindingFusedParams, 9u)      // uint[kHistogramParamsWords]: the pipeline's params of this frame
HD_CONST(HD_UINT, kBindingFusedHistogram, 10u)  // uint[kFusedHistogramWords]
HD_CONST(HD_UINT, kBindingFusedFoveal, 11u)     // vec4 per (lighting tile, foveal slot): finite RGB sum, pixel count
HD_CONST(HD_UINT, kBindingFusedInjection, 12u)  // uint: a stress preset's injected texels, linear index, ascending
// The fused histogram buffer: bins and counters as in the histogram buffer, then the float bits of the
// least and largest finite positive luminance (the auto range of the next frame).
HD_CONST(HD_UINT, kFusedMinBits, 4104u)  // == kHistogramBufferWords
HD_CONST(HD_UINT, kFusedMaxBits, 4105u)
HD_CONST(HD_UINT, kFusedHistogramWords, 4106u)
HD_CONST(HD_UINT, kFusedTileSize, 8u)  // the lighting pass's tile: one 8 x 8 workgroup
// Uniform locations of the lighting pass's fused variant.
HD_CONST(int, kFusedInjectionLocation, 0)  // ivec3: injected NaN, +Inf and negative texel counts
HD_CONST(int, kFusedFovealLocation, 1)     // ivec4: foveal grid, slots per tile (x, y)

// The foveal block (of `cells` along an axis of `pixels`) that holds pixel p: the c with
// floor(c * pixels / cells) <= p < floor((c + 1) * pixels / cells), WardFoveal.comp's partition
// (cells <= pixels < 2^15, so the product fits).
HD_FUNC int hdFovealBlockOf(int p, int pixels, int cells)
{
    return ((p + 1) * cells - 1) / pixels;
}

// ---- Workgroup sizes ----------------------------------------------------------------------------
HD_CONST(HD_UINT, kHistogramGroupX, 16u)
HD_CONST(HD_UINT, kHistogramGroupY, 16u)
HD_CONST(HD_UINT, kScanGroupSize, 1024u)
HD_CONST(HD_UINT, kReduceGroupSize, 256u)

HD_NAMESPACE_END

#if defined(__cplusplus) && !defined(__CUDACC__)
namespace hd {
// Host only: the weights of hdLuminanceWeighted as one value (the params words kParamLuma*), as the
// CPU references take them. The defaults are the constants above, so default results are unchanged.
struct LuminanceWeights
{
    float r = kLumaR;
    float g = kLumaG;
    float b = kLumaB;
    bool operator==(const LuminanceWeights&) const = default;
};

inline float hdLuminance(float r, float g, float b, const LuminanceWeights& w)
{
    return hdLuminanceWeighted(r, g, b, w.r, w.g, w.b);
}
} // namespace hd
#endif

#endif // HDRLAB_HOST_DEVICE_H
