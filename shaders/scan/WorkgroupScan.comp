// compute-scan: inclusive prefix sum of up to kScanGroupSize * 4 (= 4096) uints in one workgroup
// (scan/WorkgroupScanCore.glsl: a serial scan of 4 elements per invocation, Kogge-Stone across the
// 1024 invocations in shared memory, then each adds its exclusive prefix).
// All input is read before any output is written, so input and output may be the same buffer.
#include "shared/HostDevice.h"

layout(local_size_x = kScanGroupSize) in;

layout(std430, binding = kBindingScratch0) readonly buffer InputBuffer { uint inputValues[]; };
layout(std430, binding = kBindingScratch1) writeonly buffer OutputBuffer { uint outputValues[]; };
layout(location = 0) uniform uint uCount;

uint scanInput(uint index)
{
    return inputValues[index];
}

#include "scan/WorkgroupScanCore.glsl"

void main()
{
    const uint thread = gl_LocalInvocationIndex;
    uint values[SCAN_ELEMENTS_PER_THREAD];
    workgroupInclusiveScan(thread, uCount, values);
    for (uint k = 0u; k < SCAN_ELEMENTS_PER_THREAD; ++k) {
        uint index = thread * SCAN_ELEMENTS_PER_THREAD + k;
        if (index < uCount)
            outputValues[index] = values[k];
    }
}
