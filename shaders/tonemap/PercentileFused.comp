// PercentileFused.comp: the percentile operator's whole curve in one dispatch (scan "in-curve",
// post/scan/ScanInCurve.h): one workgroup scans the histogram into the CDF in shared memory
// (scan/WorkgroupScanCore.glsl, compute-scan's scan, so the CDF is the same words), writes it to the
// pipeline's CDF buffer for the view and --verify, sums its mean for the cut detection (HistogramMean.glsl,
// the workgroup), meters it and adapts (PercentileMeterCore.glsl, one invocation, reading shared memory), then fills the exposure curve (ExposureCurve.glsl, an invocation
// per sample; PercentileCurveCore.glsl). Replaces the scan dispatch, the meter dispatch and the curve
// dispatch.
#include "shared/HostDevice.h"

layout(local_size_x = kScanGroupSize) in;

layout(std430, binding = kBindingHistogramParams) readonly buffer Params { uint params[]; };
layout(std430, binding = kBindingHistogram) readonly buffer Histogram { uint histogram[]; };
layout(std430, binding = kBindingCdf) writeonly buffer Cdf { uint cdfOut[]; };
layout(std430, binding = kBindingOperatorState) buffer State { float state[]; };
layout(std430, binding = kBindingCurve) writeonly buffer Curve { float curve[]; };

shared uint sCdf[kMaxHistogramBins];

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
#include "tonemap/PercentileCurveCore.glsl"

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
    writePercentileCurve(thread, bins, logMin, logMax);
}
