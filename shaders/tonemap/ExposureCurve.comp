// ExposureCurve.comp: fills the curve buffer with displayCurve(Lw * 2^E) over a log2 range, for the
// exposure and percentile operators (tonemap/ExposureCurve.glsl). E and the range come either from
// uniforms (fixed exposure) or from the GPU (E from the percentile state buffer, the range from the
// histogram params), so the percentile operator never reads anything back.
#include "shared/HostDevice.h"

layout(local_size_x = 256) in;

layout(std430, binding = kBindingHistogramParams) readonly buffer Params { uint params[]; };
layout(std430, binding = kBindingCurve) writeonly buffer Curve { float curve[]; };
layout(std430, binding = kBindingOperatorState) readonly buffer State { float state[]; };

#include "tonemap/ExposureCurve.glsl"

layout(location = 0) uniform uint uSamples;
layout(location = 1) uniform uint uDisplayCurve;
layout(location = 2) uniform float uWhite;
layout(location = 3) uniform uint uFromGpu;   // 1: E from state[STATE_EXPOSURE], range from params
layout(location = 4) uniform float uExposureEv;
layout(location = 5) uniform float uLogMin;
layout(location = 6) uniform float uLogMax;
layout(location = 7) uniform float uLocalBlend; // 0..1, percentile's local adaptation (read by the apply pass)

void main()
{
    float exposureEv = uExposureEv;
    float logMin = uLogMin;
    float logMax = uLogMax;
    if (uFromGpu != 0u) {
        exposureEv = state[STATE_EXPOSURE];
        if (state[STATE_VALID] == 0.0 || isnan(exposureEv) || isinf(exposureEv))
            exposureEv = 0.0;
        logMin = uintBitsToFloat(params[kParamLogMin]);
        logMax = uintBitsToFloat(params[kParamLogMax]);
    }
    uint i = gl_GlobalInvocationID.x;
    if (i == 0u)
        writeExposureCurveHeader(logMin, logMax, uSamples, uDisplayCurve, exposureEv, uLocalBlend,
                                 uFromGpu != 0u ? state[STATE_METERED] : 0.0);
    if (i < uSamples)
        writeExposureCurveSample(i, logMin, logMax, uSamples, uDisplayCurve, uWhite, exposureEv);
}
