// EqualizeFused.comp: the luminance equalization curve in one dispatch (scan "in-curve",
// post/scan/ScanInCurve.h): one workgroup scans the histogram into the CDF in shared memory
// (scan/WorkgroupScanCore.glsl, compute-scan's scan), writes it to the pipeline's CDF buffer (the
// view, --verify and the median readback read it), then an invocation per bin writes its sample
// (tonemap/EqualizeCore.glsl). Replaces the scan dispatch and the curve dispatch.
#include "shared/HostDevice.h"

layout(local_size_x = kScanGroupSize) in;

layout(std430, binding = kBindingHistogramParams) readonly buffer Params { uint params[]; };
layout(std430, binding = kBindingHistogram) readonly buffer Histogram { uint histogram[]; };
layout(std430, binding = kBindingCdf) writeonly buffer Cdf { uint cdfOut[]; };
layout(std430, binding = kBindingCurve) writeonly buffer Curve { float curve[]; };

layout(location = 1) uniform uint uEncodedOutput;

shared uint sCdf[kMaxHistogramBins];

uint scanInput(uint index)
{
    return histogram[index];
}

uint cdfAt(uint channel, uint i)
{
    return sCdf[i];
}

#include "scan/WorkgroupScanCore.glsl"
#include "tonemap/EqualizeCore.glsl"

void main()
{
    const uint thread = gl_LocalInvocationIndex;
    const uint bins = clamp(params[kParamBinCount], 1u, kMaxHistogramBins);
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
    writeEqualizeCurve(thread, kScanGroupSize, bins, uEncodedOutput != 0u);
}
