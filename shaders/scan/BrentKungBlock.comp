// compute-brent-kung, one block: the Brent-Kung inclusive scan (Brent & Kung 1982; Bugetti's
// BrentKungScan, Kirk & Hwu ch. 11) of BLOCK_ELEMENTS uints per workgroup. BLOCK_ELEMENTS / 2
// threads load two elements each; a reduction tree (stride 1, 2, 4, ...: element (t+1)*2*stride-1
// adds the one `stride` before it), then the reverse tree (stride n/4 ... 1: element
// (t+1)*2*stride-1+stride adds element (t+1)*2*stride-1) pushes the partial sums down: the
// inclusive scan directly, in 2(n-1) - log2(n) additions and 2 log2(n) barriers. Unlike Blelloch's
// down-sweep there is no swap and no cleared root. The block total goes to blockTotals[group] for
// the next level of ScanBlockHierarchy.
// Race freedom: in a reduction phase the written indices are 2s-1 mod 2s and the read ones s-1 mod
// 2s; in a reverse phase written are s-1 mod 2s and read 2s-1 mod 2s; disjoint in both.
// Each block reads all of its input before writing, so input and output may be the same buffer.
#include "shared/HostDevice.h"

// BLOCK_ELEMENTS (a power of two, 2 x the workgroup size) comes from the host.
#define BLOCK_THREADS (BLOCK_ELEMENTS / 2u)

layout(local_size_x = BLOCK_THREADS) in;

layout(std430, binding = kBindingScratch0) readonly buffer InputBuffer { uint inputValues[]; };
layout(std430, binding = kBindingScratch1) writeonly buffer OutputBuffer { uint outputValues[]; };
layout(std430, binding = kBindingScratch2) writeonly buffer BlockTotals { uint blockTotals[]; };
layout(location = 0) uniform uint uCount;

shared uint sValues[BLOCK_ELEMENTS];

void main()
{
    const uint thread = gl_LocalInvocationIndex;
    const uint blockStart = gl_WorkGroupID.x * BLOCK_ELEMENTS;
    const uint first = thread;
    const uint second = thread + BLOCK_THREADS;
    sValues[first] = blockStart + first < uCount ? inputValues[blockStart + first] : 0u;
    sValues[second] = blockStart + second < uCount ? inputValues[blockStart + second] : 0u;

    for (uint stride = 1u; stride < BLOCK_ELEMENTS; stride <<= 1u) {
        barrier();
        const uint index = (thread + 1u) * 2u * stride - 1u;
        if (index < BLOCK_ELEMENTS)
            sValues[index] += sValues[index - stride];
    }
    for (uint stride = BLOCK_ELEMENTS / 4u; stride > 0u; stride >>= 1u) {
        barrier();
        const uint index = (thread + 1u) * 2u * stride - 1u;
        if (index + stride < BLOCK_ELEMENTS)
            sValues[index + stride] += sValues[index];
    }
    barrier();

    if (blockStart + first < uCount)
        outputValues[blockStart + first] = sValues[first];
    if (blockStart + second < uCount)
        outputValues[blockStart + second] = sValues[second];
    if (thread == 0u)
        blockTotals[gl_WorkGroupID.x] = sValues[BLOCK_ELEMENTS - 1u];
}
