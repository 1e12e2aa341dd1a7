// compute-scan: inclusive prefix sum of up to kScanGroupSize * 4 (= 4096) uints in one workgroup.
// Each thread scans its 4 consecutive elements serially, the 1024 thread totals are scanned with a
// Kogge-Stone (Hillis-Steele) scan in shared memory, double-buffered so no step reads a value
// written in the same step, and each thread adds its exclusive prefix to its 4 results.
// All input is read before any output is written, so input and output may be the same buffer.
#include "shared/HostDevice.h"

#define ELEMENTS_PER_THREAD 4u

layout(local_size_x = kScanGroupSize) in;

layout(std430, binding = kBindingScratch0) readonly buffer InputBuffer { uint inputValues[]; };
layout(std430, binding = kBindingScratch1) writeonly buffer OutputBuffer { uint outputValues[]; };
layout(location = 0) uniform uint uCount;

shared uint sTotals[2][kScanGroupSize];

void main()
{
    const uint thread = gl_LocalInvocationIndex;
    const uint base = thread * ELEMENTS_PER_THREAD;
    uint values[ELEMENTS_PER_THREAD];
    uint running = 0u;
    for (uint k = 0u; k < ELEMENTS_PER_THREAD; ++k) {
        uint index = base + k;
        running += index < uCount ? inputValues[index] : 0u;
        values[k] = running;
    }
    sTotals[0][thread] = running;
    barrier();

    uint source = 0u;
    for (uint offset = 1u; offset < kScanGroupSize; offset <<= 1u) {
        uint sum = sTotals[source][thread];
        if (thread >= offset)
            sum += sTotals[source][thread - offset];
        sTotals[1u - source][thread] = sum;
        source = 1u - source;
        barrier();
    }

    const uint prefix = thread == 0u ? 0u : sTotals[source][thread - 1u];
    for (uint k = 0u; k < ELEMENTS_PER_THREAD; ++k) {
        uint index = base + k;
        if (index < uCount)
            outputValues[index] = values[k] + prefix;
    }
}
