// compute-blelloch, one block: Blelloch's work-efficient scan (Blelloch 1990) of BLOCK_ELEMENTS
// uints per workgroup, as Harris, Sengupta & Owens (GPU Gems 3, ch. 39) and Bilgic, Horn & Masaki
// give it: BLOCK_ELEMENTS / 2 threads load two elements each, an up-sweep (reduce) tree, the root
// cleared, a down-sweep that swaps and adds (the EXCLUSIVE scan), then each element adds its own
// input to make the inclusive scan the CDF needs. The block total goes to blockTotals[group] for
// the next level of ScanBlockHierarchy. Indices are padded by CONFLICT_FREE_OFFSET (the intended
// form of Harris' macro, 32 banks; see src/cuda/BlellochScan.cuh for the misprint).
// Each block reads all of its input before writing, and blocks touch disjoint ranges, so input
// and output may be the same buffer.
#include "shared/HostDevice.h"

// BLOCK_ELEMENTS (a power of two, 2 x the workgroup size) comes from the host.
#define BLOCK_THREADS (BLOCK_ELEMENTS / 2u)
#define LOG_NUM_BANKS 5u
#define CONFLICT_FREE_OFFSET(n) (((n) >> LOG_NUM_BANKS) + ((n) >> (2u * LOG_NUM_BANKS)))

layout(local_size_x = BLOCK_THREADS) in;

layout(std430, binding = kBindingScratch0) readonly buffer InputBuffer { uint inputValues[]; };
layout(std430, binding = kBindingScratch1) writeonly buffer OutputBuffer { uint outputValues[]; };
layout(std430, binding = kBindingScratch2) writeonly buffer BlockTotals { uint blockTotals[]; };
layout(location = 0) uniform uint uCount;

shared uint sTree[BLOCK_ELEMENTS + CONFLICT_FREE_OFFSET(BLOCK_ELEMENTS - 1u)];

void main()
{
    const uint thread = gl_LocalInvocationIndex;
    const uint blockStart = gl_WorkGroupID.x * BLOCK_ELEMENTS;
    const uint first = thread;                  // this thread's two elements, half a block apart
    const uint second = thread + BLOCK_THREADS;
    const uint firstValue = blockStart + first < uCount ? inputValues[blockStart + first] : 0u;
    const uint secondValue = blockStart + second < uCount ? inputValues[blockStart + second] : 0u;
    sTree[first + CONFLICT_FREE_OFFSET(first)] = firstValue;
    sTree[second + CONFLICT_FREE_OFFSET(second)] = secondValue;

    // Up-sweep: after the pass with stride `offset`, every element at 2*offset*k - 1 holds the sum
    // of the 2*offset elements ending there.
    uint offset = 1u;
    for (uint activeThreads = BLOCK_ELEMENTS >> 1u; activeThreads > 0u; activeThreads >>= 1u) {
        barrier();
        if (thread < activeThreads) {
            uint left = offset * (2u * thread + 1u) - 1u;
            uint right = offset * (2u * thread + 2u) - 1u;
            left += CONFLICT_FREE_OFFSET(left);
            right += CONFLICT_FREE_OFFSET(right);
            sTree[right] += sTree[left];
        }
        offset <<= 1u;
    }
    barrier();
    const uint root = BLOCK_ELEMENTS - 1u + CONFLICT_FREE_OFFSET(BLOCK_ELEMENTS - 1u);
    const uint blockTotal = sTree[root];
    barrier();  // every thread has read the total before it is cleared
    if (thread == 0u)
        sTree[root] = 0u;

    // Down-sweep: each node passes its prefix to its left child and prefix + left sum to its right.
    for (uint activeThreads = 1u; activeThreads < BLOCK_ELEMENTS; activeThreads <<= 1u) {
        offset >>= 1u;
        barrier();
        if (thread < activeThreads) {
            uint left = offset * (2u * thread + 1u) - 1u;
            uint right = offset * (2u * thread + 2u) - 1u;
            left += CONFLICT_FREE_OFFSET(left);
            right += CONFLICT_FREE_OFFSET(right);
            const uint leftSum = sTree[left];
            sTree[left] = sTree[right];
            sTree[right] += leftSum;
        }
    }
    barrier();

    // inclusive = exclusive + own value
    if (blockStart + first < uCount)
        outputValues[blockStart + first] = sTree[first + CONFLICT_FREE_OFFSET(first)] + firstValue;
    if (blockStart + second < uCount)
        outputValues[blockStart + second] = sTree[second + CONFLICT_FREE_OFFSET(second)] + secondValue;
    if (thread == 0u)
        blockTotals[gl_WorkGroupID.x] = blockTotal;
}
