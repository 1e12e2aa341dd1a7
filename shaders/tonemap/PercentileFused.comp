// PercentileFused.comp: the percentile operator's whole curve in one dispatch (scan "in-curve",
// post/scan/ScanInCurve.h): one workgroup scans the histogram into the CDF in shared memory
// (scan/WorkgroupScanCore.glsl, compute-scan's scan, so the CDF is the same words), writes it to the
// pipeline's CDF buffer for the view and --verify, sums its mean for the cut detection (HistogramMean.glsl,
// the workgroup), meters it and adapts (PercentileMeterCore.glsl, one invocation, reading shared memory), then fills the exposure curve (ExposureCurve.glsl, an invocation
// per sample). Replaces the scan dispatch, the meter dispatch and the curve dispatch.
#include "shared/HostDevice.h"

layout(local_size_x = kScanGroupSize) in;

layout(std430, binding = kBindingHistogramParams) readonly buffer Params { uint params[]; };
layout(std430, binding = kBindingHistogram) readonly buffer Histogram { uint histogram[]; };
layout(std430, binding = kBindingCdf) writeonly buffer Cdf { uint cdfOut[]; };
layout(std430, binding = kBindingOperatorState) buffer State { float state[]; };
layout(std430, binding = kBindingCurve) writeonly buffer Curve { float curve[]; };

layout(location = 20) uniform uint uSamples;
layout(location = 21) uniform uint uDisplayCurve;
layout(location = 22) uniform float uWhite;
layout(location = 23) uniform float uLocalBlend;

shared uint sCdf[kMaxHistogramBins];
shared float sExposureEv;
shared float sMetered;

uint scanInput(uint index)
{
    return histogram[index];
}

uint cdfAt(uint i)
{
    return sCdf[i];
}

#define MEAN_GROUP_SIZE kScanGroupSize
#include "scan/WorkgroupScanCore.glsl"
#include "tonemap/HistogramMean.glsl"
#include "tonemap/PercentileMeterCore.glsl"
#include "tonemap/ExposureCurve.glsl"

void main()
{
    const uint thread = gl_LocalInvocationIndex;
    const uint bins = clamp(params[kParamBinCount], 1u, kMaxHistogramBins);
    const float logMin = uintBitsToFloat(params[kParamLogMin]);
    const float logMax = uintBitsToFloat(params[kParamLogMax]);
    uint values[SCAN_ELEMENTS_PER_THREAD];
    workgroupInclusiveScan(thread, bins, values);
    for (uint k = 0u; k < SCAN_ELEMENTS_PER_THREAD; ++k) {
        uint index = thread * SCAN_ELEMENTS_PER_THREAD + k;
        if (index < bins) {
            sCdf[index] = values[k];
            cdfOut[index] = values[k];
        }
    }
    memoryBarrierShared();
    barrier();
    if (uCutThreshold > 0.0) { // uniform: the whole workgroup sums the mean for the cut detection
        float centreSum = histogramCentreSum(thread, bins);
        gMeanLog2 = logMin + centreSum / float(sCdf[bins - 1u]) * ((logMax - logMin) / float(bins));
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
    for (uint i = thread; i < uSamples; i += kScanGroupSize)
        writeExposureCurveSample(i, logMin, logMax, uSamples, uDisplayCurve, uWhite, exposureEv);
}
