// HistogramCommon.glsl: what the histogram shaders of the paper methods and compute variants share:
// the params buffer (range, bin count, policy and luminance weights live on the GPU) and the
// per-pixel bin lookup through hdBinOf, so every method bins exactly like the CPU reference.
#include "shared/HostDevice.h"

layout(std430, binding = kBindingHistogramParams) readonly buffer HistogramParamsBuffer { uint histogramParams[]; };

float paramLogMin() { return uintBitsToFloat(histogramParams[kParamLogMin]); }
float paramLogMax() { return uintBitsToFloat(histogramParams[kParamLogMax]); }
uint paramBinCount() { return clamp(histogramParams[kParamBinCount], 1u, kMaxHistogramBins); }
uint paramPolicy() { return histogramParams[kParamOutOfRange]; }
vec3 paramLuminanceWeights()
{
    return vec3(uintBitsToFloat(histogramParams[kParamLumaR]), uintBitsToFloat(histogramParams[kParamLumaG]),
                uintBitsToFloat(histogramParams[kParamLumaB]));
}

/// The luminance (cd/m^2) of a scene-linear colour under the params buffer's weights.
float paramLuminance(vec4 color)
{
    vec3 w = paramLuminanceWeights();
    return hdLuminanceWeighted(color.r, color.g, color.b, w.x, w.y, w.z);
}

/// hdBinOf of a scene-linear colour with the range, bin count, policy and weights of the params buffer.
int binOfColor(vec4 color)
{
    return hdBinOf(paramLuminance(color), paramLogMin(), paramLogMax(), paramBinCount(), paramPolicy());
}

/// The histogram buffer word a bin or a no-bin code counts into.
uint slotOfCode(int code)
{
    return code >= 0 ? uint(code) : kHistogramCountersOffset + hdCounterOfCode(code);
}
