// ReferenceCurve.comp: the reference chain's curve (`hdrlab bench pipeline`,
// commands/bench/ReferenceChain.h): a curve in one dispatch of one workgroup, standing for any
// percentile-style operator. Each invocation sums a run of consecutive bins, a shared-memory scan of
// those sums finds the bin holding the 50th percentile of the binned pixels, and every invocation
// writes its share of the LUT: one sample per bin, at the bin's centre, of Reinhard's x / (1 + x)
// with x = kKey * Lw / L50 (L50 the median bin's centre; 1 cd/m^2 when no pixel was binned). The
// curve buffer has the pipeline's layout (hd::kCurve*: header, then the luminance LUT), so the
// pipeline's apply pass could read it too. commands/bench/ReferenceChainCpu.h is its CPU model.
#include "shared/HostDevice.h"

#ifndef GROUP_SIZE
#define GROUP_SIZE 256
#endif

layout(local_size_x = GROUP_SIZE) in;

layout(std430, binding = kBindingHistogram) readonly buffer HistogramBuffer { uint histogram[]; };
layout(std430, binding = kBindingHistogramParams) readonly buffer ParamsBuffer { uint params[]; };
layout(std430, binding = kBindingCurve) writeonly buffer CurveBuffer { float curve[]; };

const float kKey = 0.18; // the median maps to middle grey before the display curve

shared uint sSums[GROUP_SIZE];
shared int sMedianBin;

void main()
{
    const uint local = gl_LocalInvocationID.x;
    const uint bins = clamp(params[kParamBinCount], 1u, kMaxHistogramBins);
    const uint perInvocation = (bins + uint(GROUP_SIZE) - 1u) / uint(GROUP_SIZE);
    const uint first = min(local * perInvocation, bins);
    const uint last = min(first + perInvocation, bins);
    uint own = 0u;
    for (uint b = first; b < last; ++b)
        own += histogram[b];
    sSums[local] = own;
    if (local == 0u)
        sMedianBin = -1;
    barrier();
    for (uint offset = 1u; offset < uint(GROUP_SIZE); offset *= 2u) { // inclusive scan (Hillis-Steele)
        const uint before = local >= offset ? sSums[local - offset] : 0u;
        barrier();
        sSums[local] += before;
        barrier();
    }
    const uint total = sSums[GROUP_SIZE - 1];
    const uint inclusive = sSums[local];
    const uint exclusive = inclusive - own;
    // The first bin whose running count reaches half the total (no 2 * count: no overflow).
    if (total > 0u && inclusive >= total - inclusive && exclusive < total - exclusive) {
        uint running = exclusive;
        for (uint b = first; b < last; ++b) {
            running += histogram[b];
            if (running >= total - running) {
                sMedianBin = int(b);
                break;
            }
        }
    }
    barrier();

    const float logMin = uintBitsToFloat(params[kParamLogMin]);
    const float logMax = uintBitsToFloat(params[kParamLogMax]);
    const float width = (logMax - logMin) / float(bins);
    const float logMedian = sMedianBin >= 0 ? logMin + (float(sMedianBin) + 0.5) * width : 0.0;
    if (local == 0u) {
        curve[kCurveLogMin] = logMin;
        curve[kCurveLogMax] = logMax;
        curve[kCurveSampleCount] = float(bins);
        curve[kCurveChannels] = 1.0;
        curve[kCurveMode] = kCurveModeLut;
    }
    for (uint i = local; i < bins; i += uint(GROUP_SIZE)) {
        const float x = kKey * exp2(logMin + (float(i) + 0.5) * width - logMedian);
        curve[kCurveHeaderWords + i] = x / (1.0 + x);
    }
}
