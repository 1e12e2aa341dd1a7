// ExposureFusion.h: the per-pixel arithmetic of the "fusion" local exposure (Mertens, Kautz, Van Reeth,
// "Exposure Fusion", Pacific Graphics 2007, used as a local tone mapper as Unreal Engine 5.5's Fusion
// local exposure method is), shared by C++ (reference/ExposureFusion.cpp, the host of
// post/localexposure/ExposureFusion.cpp) and GLSL (shaders/localexposure/Fusion*.comp), so the CPU
// reference and the GPU compute the same operations in the same order.
//
// Every step is built from ExactFloat.h's functions (hdLog2, hdExp2, hdExp, hdDivide) and from adds and
// multiplies with one rounding each (HD_PRECISE, no FMA): the same bits on the CPU and on a GPU that
// honours `precise` and keeps normal floats (the values below never come near the denormal range).
//  * a pixel's EV: log2 of its luminance (HostDevice.h's weights, the frame's pre-exposure folded in)
//    plus the exposure, relative to middle grey (0.18 x 2^bias), clamped to +-kFusionMaxEv; NaN,
//    zero and negative luminance count as -kFusionMaxEv, +Inf as +kFusionMaxEv (never propagate);
//  * the display encoding of an exposure: the logistic d = 1 / (1 + 2^-ev) (x / (x + grey) for the
//    linear value x): middle grey at 0.5, symmetric in EV, invertible for every finite EV;
//  * Mertens' well-exposedness: exp(-(d - 0.5)^2 / (2 sigma^2)), sigma 0.2;
//  * the pyramid filters: Burt and Adelson's 5-tap [1 4 6 4 1] / 16 (reduce) and its expand
//    ([1 6 1] / 8 at even, [1 1] / 2 at odd positions), separable, clamped to the edge;
//  * the decode of a fused value: log2(D / (1 - D)), D clamped to [2^-24, 1 - 2^-24].
// Laid out by hand, not by clang-format (the GLSL compiler reads it).
#ifndef HDRLAB_EXPOSURE_FUSION_H
#define HDRLAB_EXPOSURE_FUSION_H

#include "shared/HostDevice.h"

HD_NAMESPACE_BEGIN

HD_CONST(int, kFusionMaxLevels, 16)          // Unreal's "up to 16 levels"
HD_CONST(int, kFusionExposures, 3)           // highlights (-EV), the frame (0), shadows (+EV)
HD_CONST(float, kFusionMaxBracketEv, 6.0f)   // contrast scale 0 -> +-6 EV, 1 -> 0 EV (a guess, see docs)
HD_CONST(float, kFusionMaxEv, 20.0f)         // a pixel's EV relative to middle grey is clamped to +-20
HD_CONST(float, kFusionTarget, 0.5f)         // Mertens' well-exposed value
HD_CONST(float, kFusionWeightScale, 12.5f)   // 1 / (2 sigma^2), sigma = 0.2 (Mertens)
HD_CONST(float, kFusionMinLuminance, 7.8886091e-31f) // 2^-100: below it a luminance counts as black
HD_CONST(float, kFusionDecodeMin, 5.96046448e-8f)    // 2^-24
HD_CONST(float, kFusionDecodeMax, 0.99999994f)       // 1 - 2^-24
HD_CONST(float, kFusionLog2MiddleGrey, -2.47393119f) // log2(0.18)
HD_CONST(int, kFusionGroupSize, 8)           // every pass: 8 x 8 invocations, one output texel each
// In the pipeline (FusionMeter.comp): the global exposure the reduce pass reads, metered on the GPU.
HD_CONST(HD_UINT, kBindingFusionExposure, 22u)  // float[4]: exposureLog2, then unused
HD_CONST(int, kFusionMeterGroupSize, 256)

// A pixel's EV relative to middle grey: `offset` = exposureLog2 - log2(0.18) - middleGreyBias.
HD_FUNC float hdFusionPixelEv(float r, float g, float b, float wr, float wg, float wb, float offset)
{
    float luminance = hdLuminanceWeighted(r, g, b, wr, wg, wb);
    if (HD_IS_INF(luminance) && luminance > 0.0f)
        return kFusionMaxEv;
    // NaN named: a compiler may turn !(a >= b) into a < b (NVIDIA's GLSL did: NaN pixels reached the map).
    if (HD_IS_NAN(luminance) || !(luminance >= kFusionMinLuminance) || HD_IS_INF(luminance))
        return -kFusionMaxEv;
    HD_PRECISE float ev = HD_ADD(hdLog2(luminance), offset);
    return ev < -kFusionMaxEv ? -kFusionMaxEv : (ev > kFusionMaxEv ? kFusionMaxEv : ev);
}

// The mean of `count` EVs whose sum is `sum` (correctly rounded, as hdDivide is).
HD_FUNC float hdFusionMean(float sum, float count)
{
    float magnitude = hdDivide(sum < 0.0f ? -sum : sum, count);
    return sum < 0.0f ? -magnitude : magnitude;
}

// The display value of an exposure of EV `ev` relative to middle grey: 1 / (1 + 2^-ev).
HD_FUNC float hdFusionEncode(float ev)
{
    HD_PRECISE float negated = HD_SUB(0.0f, ev);
    HD_PRECISE float denominator = HD_ADD(1.0f, hdExp2(negated));
    return hdDivide(1.0f, denominator);
}

// Mertens' well-exposedness of a display value.
HD_FUNC float hdFusionWeight(float d)
{
    HD_PRECISE float offset = HD_SUB(d, kFusionTarget);
    HD_PRECISE float exponent = HD_MUL(HD_MUL(offset, offset), -kFusionWeightScale);
    return hdExp(exponent);
}

// The EV relative to middle grey of a fused display value.
HD_FUNC float hdFusionDecode(float fused)
{
    float d = fused < kFusionDecodeMin ? kFusionDecodeMin : (fused > kFusionDecodeMax ? kFusionDecodeMax : fused);
    HD_PRECISE float complement = HD_SUB(1.0f, d);
    HD_PRECISE float ev = HD_SUB(hdLog2(d), hdLog2(complement));
    return ev;
}

// The adjustment written for the apply pass: fused EV minus the pixel's EV, within the bracket
// [-highlightEv, +shadowEv] of the synthetic exposures.
HD_FUNC float hdFusionAdjustment(float fused, float ev, float highlightEv, float shadowEv)
{
    HD_PRECISE float adjustment = HD_SUB(hdFusionDecode(fused), ev);
    float low = HD_SUB(0.0f, highlightEv);
    return adjustment < low ? low : (adjustment > shadowEv ? shadowEv : adjustment);
}

// Burt and Adelson's reduce kernel on five neighbours: ((a + e) + 4 (b + d) + 6 c) / 16.
HD_FUNC float hdFusionReduce5(float a, float b, float c, float d, float e)
{
    HD_PRECISE float outer = HD_ADD(a, e);
    HD_PRECISE float inner = HD_MUL(HD_ADD(b, d), 4.0f);
    HD_PRECISE float sum = HD_ADD(HD_ADD(outer, inner), HD_MUL(c, 6.0f));
    HD_PRECISE float result = HD_MUL(sum, 0.0625f);
    return result;
}

// The expand kernel at an even position (three coarse neighbours: (a + c) / 8 + 6 b / 8) and at an
// odd one (two: (a + b) / 2).
HD_FUNC float hdFusionExpandEven(float a, float b, float c)
{
    HD_PRECISE float result = HD_ADD(HD_MUL(HD_ADD(a, c), 0.125f), HD_MUL(b, 0.75f));
    return result;
}

HD_FUNC float hdFusionExpandOdd(float a, float b)
{
    HD_PRECISE float result = HD_MUL(HD_ADD(a, b), 0.5f);
    return result;
}

HD_NAMESPACE_END

#endif // HDRLAB_EXPOSURE_FUSION_H
