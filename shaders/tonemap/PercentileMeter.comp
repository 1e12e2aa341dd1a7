// PercentileMeter.comp: percentile auto-exposure metering and temporal adaptation in one invocation,
// on the CDF a scan method made (tonemap/PercentileMeterCore.glsl has the rules).
#include "shared/HostDevice.h"

layout(local_size_x = 1) in;

layout(std430, binding = kBindingHistogramParams) readonly buffer Params { uint params[]; };
layout(std430, binding = kBindingCdf) readonly buffer Cdf { uint cdf[]; };
layout(std430, binding = kBindingOperatorState) buffer State { float state[]; };

uint cdfAt(uint i)
{
    return cdf[i];
}

#include "tonemap/PercentileMeterCore.glsl"

void main()
{
    percentileMeter(clamp(params[kParamBinCount], 1u, kMaxHistogramBins), uintBitsToFloat(params[kParamLogMin]),
                    uintBitsToFloat(params[kParamLogMax]));
}
