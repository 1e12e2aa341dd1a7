// The add-back step of ScanBlockHierarchy: every block after the first adds the inclusive scan of
// the block totals up to the block before it (its exclusive prefix) to each of its elements, which
// turns the per-block inclusive scans into the scan of the whole input.
#include "shared/HostDevice.h"

// BLOCK_ELEMENTS (a power of two, 2 x the workgroup size) comes from the host.
#define BLOCK_THREADS (BLOCK_ELEMENTS / 2u)

layout(local_size_x = BLOCK_THREADS) in;

layout(std430, binding = kBindingScratch1) buffer Values { uint values[]; };
layout(std430, binding = kBindingScratch2) readonly buffer ScannedBlockTotals { uint scannedBlockTotals[]; };
layout(location = 0) uniform uint uCount;

void main()
{
    const uint block = gl_WorkGroupID.x + 1u;  // block 0 has no prefix and is not dispatched
    const uint prefix = scannedBlockTotals[block - 1u];
    const uint blockStart = block * BLOCK_ELEMENTS;
    for (uint k = 0u; k < 2u; ++k) {
        const uint index = blockStart + gl_LocalInvocationIndex + k * BLOCK_THREADS;
        if (index < uCount)
            values[index] += prefix;
    }
}
