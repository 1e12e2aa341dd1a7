// FusionMeter.comp: the global exposure the fusion local exposure works from, in the pipeline (one
// workgroup; post/localexposure/FusionWiring.h): the log2 exposure that puts the metered middle grey at
// 0.18, as the bilateral method's mid (shared/LocalExposure.h):
//   uMidSource kLocalExposureMidFromCurve (operators whose curve carries the exposure): log2 of the
//   curve's kCurveScale (2^E); kLocalExposureMidFromFrame (operators without one): log2(0.18) minus
//   the frame's mean log2 L, from this frame's histogram (each bin at its centre; 0 EV when empty).
// Writes fusionExposure[0]; FusionReduce.comp (EXPOSURE_FROM_BUFFER) reads it, so nothing waits on the host.
#include "shared/HostDevice.h"
#include "shared/ExposureFusion.h"
#include "shared/LocalExposure.h"

layout(local_size_x = kFusionMeterGroupSize) in;
layout(std430, binding = kBindingHistogram) readonly buffer Histogram { uint bins[]; };
layout(std430, binding = kBindingHistogramParams) readonly buffer Params { uint params[]; };
layout(std430, binding = kBindingCurve) readonly buffer CurveBuffer { float curve[]; };
layout(std430, binding = kBindingFusionExposure) writeonly buffer Exposure { float fusionExposure[]; };
layout(location = 0) uniform uint uMidSource;

shared float sCount[kFusionMeterGroupSize];
shared float sPosition[kFusionMeterGroupSize];

void main()
{
    const uint lane = gl_LocalInvocationID.x;
    const uint binCount = clamp(params[kParamBinCount], 1u, kMaxHistogramBins);
    float count = 0.0;
    float position = 0.0; // sum of count x bin centre, in bins
    for (uint b = lane; b < binCount; b += uint(kFusionMeterGroupSize)) {
        const float n = float(bins[b]);
        count += n;
        position += n * (float(b) + 0.5);
    }
    sCount[lane] = count;
    sPosition[lane] = position;
    barrier();
    for (uint stride = uint(kFusionMeterGroupSize) / 2u; stride > 0u; stride /= 2u) {
        if (lane < stride) {
            sCount[lane] += sCount[lane + stride];
            sPosition[lane] += sPosition[lane + stride];
        }
        barrier();
    }
    if (lane != 0u)
        return;
    float exposure = 0.0;
    if (uMidSource == kLocalExposureMidFromCurve) {
        const float scale = curve[kCurveScale];
        exposure = scale > 0.0 && !isinf(scale) ? log2(scale) : 0.0;
    } else if (sCount[0] > 0.0) {
        const float logMin = uintBitsToFloat(params[kParamLogMin]);
        const float scale = hdBinScale(logMin, uintBitsToFloat(params[kParamLogMax]), binCount);
        if (scale > 0.0)
            exposure = kFusionLog2MiddleGrey - (logMin + sPosition[0] / sCount[0] / scale);
    }
    fusionExposure[0] = isnan(exposure) || isinf(exposure) ? 0.0 : exposure;
}
