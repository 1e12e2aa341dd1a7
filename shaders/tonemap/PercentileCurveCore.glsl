// PercentileCurveCore.glsl: the percentile operator's curve from a CDF already scanned into shared
// memory, by one workgroup: the histogram's mean for the cut detection (HistogramMean.glsl, the whole
// workgroup), the meter and adaptation (PercentileMeterCore.glsl, one invocation), then the exposure
// curve (ExposureCurve.glsl, an invocation per sample). PercentileFused.comp runs it after its own
// scan; the default histogram pass runs it in its last workgroup (histogram/CurveInLastGroup.glsl).
// The includer defines MEAN_GROUP_SIZE (its workgroup's size), `uint cdfAt(uint i)`, the state buffer
// `state[]` and the curve buffer (`curve[]`, or another named in CURVE_OUT).
#include "tonemap/HistogramMean.glsl"
#include "tonemap/PercentileMeterCore.glsl"
#include "tonemap/ExposureCurve.glsl"

layout(location = METER_UNIFORMS + 20) uniform uint uSamples;
layout(location = METER_UNIFORMS + 21) uniform uint uDisplayCurve;
layout(location = METER_UNIFORMS + 22) uniform float uWhite;
layout(location = METER_UNIFORMS + 23) uniform float uLocalBlend;

shared float sExposureEv;
shared float sMetered;
bool gWriteSamples = true; // false only in an experiment (SharedAtomic.comp CURVE_GATE 3): the meter alone

/// Every invocation calls it (barriers), after the CDF of `bins` bins over [logMin, logMax] is in place.
void writePercentileCurve(uint thread, uint bins, float logMin, float logMax)
{
    if (uCutThreshold > 0.0) { // uniform: the whole workgroup sums the mean for the cut detection
        float centreSum = histogramCentreSum(thread, bins);
        gMeanLog2 = logMin + centreSum / float(cdfAt(bins - 1u)) * ((logMax - logMin) / float(bins));
    }
    if (thread == 0u) {
        percentileMeter(bins, logMin, logMax);
        float exposureEv = state[STATE_EXPOSURE];
        if (state[STATE_VALID] == 0.0 || isnan(exposureEv) || isinf(exposureEv))
            exposureEv = 0.0;
        sExposureEv = exposureEv;
        sMetered = state[STATE_METERED];
    }
    memoryBarrierShared();
    barrier();
    const float exposureEv = sExposureEv;
    if (thread == 0u)
        writeExposureCurveHeader(logMin, logMax, uSamples, uDisplayCurve, exposureEv, uLocalBlend, sMetered);
    for (uint i = thread; gWriteSamples && i < uSamples; i += uint(MEAN_GROUP_SIZE))
        writeExposureCurveSample(i, logMin, logMax, uSamples, uDisplayCurve, uWhite, exposureEv);
}
