// PercentileMeter.comp: percentile auto-exposure metering and temporal adaptation in one invocation,
// on the CDF a scan method made (tonemap/PercentileMeterCore.glsl has the rules); with cut detection
// on, the workgroup first sums the histogram's mean (HistogramMean.glsl).
#include "shared/HostDevice.h"

#define MEAN_GROUP_SIZE 64
layout(local_size_x = MEAN_GROUP_SIZE) in;

layout(std430, binding = kBindingHistogramParams) readonly buffer Params { uint params[]; };
layout(std430, binding = kBindingCdf) readonly buffer Cdf { uint cdf[]; };
layout(std430, binding = kBindingOperatorState) buffer State { float state[]; };

uint cdfAt(uint i)
{
    return cdf[i];
}

#include "tonemap/HistogramMean.glsl"
#include "tonemap/PercentileMeterCore.glsl"

void main()
{
    const uint bins = clamp(params[kParamBinCount], 1u, kMaxHistogramBins);
    const float logMin = uintBitsToFloat(params[kParamLogMin]);
    const float logMax = uintBitsToFloat(params[kParamLogMax]);
    if (uCutThreshold > 0.0) { // uniform: every invocation takes the same branch
        float centreSum = histogramCentreSum(gl_LocalInvocationIndex, bins);
        gMeanLog2 = logMin + centreSum / float(cdfAt(bins - 1u)) * ((logMax - logMin) / float(bins));
    }
    if (gl_LocalInvocationIndex == 0u)
        percentileMeter(bins, logMin, logMax);
}
