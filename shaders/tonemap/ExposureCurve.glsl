// ExposureCurve.glsl: the curve of the exposure and percentile operators, displayCurve(Lw * 2^E) over
// a log2 range (ExposureCurve.comp; PercentileFused.comp). Clamp writes the LinearScale mode (exact)
// and the equivalent LUT (for the view). The includer declares the curve buffer `curve[]` (or names
// another in CURVE_OUT).
#ifndef CURVE_OUT
#define CURVE_OUT curve
#endif
#include "tonemap/DisplayCurve.glsl"

void writeExposureCurveHeader(float logMin, float logMax, uint samples, uint displayCurveId, float exposureEv,
                              float localBlend, float localReference)
{
    CURVE_OUT[kCurveLogMin] = logMin;
    CURVE_OUT[kCurveLogMax] = logMax;
    CURVE_OUT[kCurveSampleCount] = float(samples);
    CURVE_OUT[kCurveChannels] = 1.0;
    CURVE_OUT[kCurveMode] = displayCurveId == kDisplayClamp ? kCurveModeLinearScale : kCurveModeLut;
    CURVE_OUT[kCurveScale] = exp2(exposureEv);
    CURVE_OUT[kCurveLocalBlend] = localBlend;
    CURVE_OUT[kCurveLocalReference] = localReference;
}

void writeExposureCurveSample(uint i, float logMin, float logMax, uint samples, uint displayCurveId, float white,
                              float exposureEv)
{
    float log2Lw = logMin + (float(i) + 0.5) * (logMax - logMin) / float(samples);
    CURVE_OUT[kCurveHeaderWords + i] = displayCurve(exp2(log2Lw + exposureEv), displayCurveId, white);
}
