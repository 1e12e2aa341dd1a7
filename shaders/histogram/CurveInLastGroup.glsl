// CurveInLastGroup.glsl: the tone operator's curve built by the histogram dispatch's last workgroup,
// the one that publishes the histogram (SharedAtomic.comp SELF_CLEAR), in place of the curve dispatch:
// the scan "in-curve" (post/scan/ScanInCurve.h) taken one step further, so a percentile or equalize
// frame runs no dispatch between the histogram and the apply. The group scans the published bins into
// the inclusive CDF in shared memory (scan/WorkgroupScanCore.glsl, compute-scan's scan with
// kScanPerInvocation bins per invocation over this group's 256), writes it to the CDF buffer (the
// view, --verify) and runs the operator's kernel on it:
//  - CURVE_KERNEL 1: percentile (tonemap/PercentileCurveCore.glsl: mean, meter, adaptation, curve);
//  - CURVE_KERNEL 2: luminance equalization (tonemap/EqualizeCore.glsl).
// The CDF is whole numbers, the same words any scan gives, so the curve is the fused dispatch's code on
// the same input. Limits: one workgroup of the grid does this work after all others finished (it adds
// to the histogram stage what the kernel costs, not a dispatch); the curve goes to kBindingScratch2
// (kBindingCurve holds the curve the one-pass mode applies). Uniforms start at CURVE_UNIFORMS (the
// pass's own take the low locations). The includer defines kGroupSize, BIN_CAPACITY, the params buffer
// `params[]` and the shared `sHistogram[]`, whose bins this reuses for the CDF.
#ifndef CURVE_UNIFORMS
#define CURVE_UNIFORMS 32
#endif
#define METER_UNIFORMS CURVE_UNIFORMS
#define CURVE_OUT builtCurve
#define MEAN_GROUP_SIZE kGroupSize

layout(std430, binding = kBindingCdf) writeonly buffer CdfOut { uint cdfOut[]; };
layout(std430, binding = kBindingScratch2) writeonly buffer BuiltCurve { float builtCurve[]; };

#if CURVE_KERNEL == 1
layout(std430, binding = kBindingOperatorState) buffer State { float state[]; };

uint cdfAt(uint i)
{
    return sHistogram[i];
}

#include "tonemap/PercentileCurveCore.glsl"
#elif CURVE_KERNEL == 2
layout(location = CURVE_UNIFORMS + 1) uniform uint uEncodedOutput;

uint cdfAt(uint channel, uint i)
{
    return sHistogram[i];
}

#include "tonemap/EqualizeCore.glsl"
#else
#error "CURVE_KERNEL: 1 percentile or 2 equalize"
#endif

const uint kScanPerInvocation = (uint(BIN_CAPACITY) + kGroupSize - 1u) / kGroupSize;

uint scanInput(uint index)
{
    return sHistogram[index];
}

#define SCAN_GROUP_SIZE kGroupSize
#define SCAN_ELEMENTS_PER_THREAD kScanPerInvocation
#include "scan/WorkgroupScanCore.glsl"

/// The last workgroup, once sHistogram[0, bins) holds the published bins; every invocation calls it.
void buildCurveInLastGroup(uint local, uint bins, bool runKernel)
{
    uint values[kScanPerInvocation];
    workgroupInclusiveScan(local, bins, values);
    // Each invocation scanned only its own bins, so it may overwrite them with their CDF now.
    for (uint k = 0u; k < kScanPerInvocation; ++k) {
        const uint index = local * kScanPerInvocation + k;
        if (index < bins) {
            sHistogram[index] = values[k];
            cdfOut[index] = values[k];
        }
    }
    memoryBarrierShared();
    barrier();
    if (!runKernel) // an experiment (SharedAtomic.comp CURVE_GATE): the scan alone
        return;
#if CURVE_KERNEL == 1
    writePercentileCurve(local, bins, uintBitsToFloat(params[kParamLogMin]), uintBitsToFloat(params[kParamLogMax]));
#else
    writeEqualizeCurve(local, kGroupSize, bins, uEncodedOutput != 0u);
#endif
}
