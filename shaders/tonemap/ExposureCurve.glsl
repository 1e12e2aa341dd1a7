// ExposureCurve.glsl: the curve of the exposure and percentile operators, displayCurve(Lw * 2^E) over
// a log2 range (ExposureCurve.comp; PercentileFused.comp). Clamp writes the LinearScale mode (exact)
// and the equivalent LUT (for the view). The includer declares the curve buffer `curve[]`.
#include "tonemap/DisplayCurve.glsl"

void writeExposureCurveHeader(float logMin, float logMax, uint samples, uint displayCurveId, float exposureEv,
                              float localBlend, float localReference)
{
    curve[kCurveLogMin] = logMin;
    curve[kCurveLogMax] = logMax;
    curve[kCurveSampleCount] = float(samples);
    curve[kCurveChannels] = 1.0;
    curve[kCurveMode] = displayCurveId == kDisplayClamp ? kCurveModeLinearScale : kCurveModeLut;
    curve[kCurveScale] = exp2(exposureEv);
    curve[kCurveLocalBlend] = localBlend;
    curve[kCurveLocalReference] = localReference;
}

void writeExposureCurveSample(uint i, float logMin, float logMax, uint samples, uint displayCurveId, float white,
                              float exposureEv)
{
    float log2Lw = logMin + (float(i) + 0.5) * (logMax - logMin) / float(samples);
    curve[kCurveHeaderWords + i] = displayCurve(exp2(log2Lw + exposureEv), displayCurveId, white);
}
