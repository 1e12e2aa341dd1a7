// BlellochScan.cuh: the work-efficient (Blelloch 1990) scan of one tile in shared memory, as
// Harris, Sengupta & Owens (GPU Gems 3 ch. 39) and Bilgic, Horn & Masaki give it: an up-sweep
// (reduce) tree, the root cleared, a down-sweep that swaps and adds, giving the EXCLUSIVE scan in
// 2(n-1) additions and n-1 swaps. The inclusive result the CDF needs is read off the exclusive one
// shifted by one element, with the tile total (saved before the root is cleared) as the last value.
//
// Bank conflicts: the tree's strided indices hit the same shared-memory bank; every index is
// padded by CONFLICT_FREE_OFFSET. The macro as printed in Harris' paper,
//     ((n) >> NUM_BANKS + (n) >> (2 * LOG_NUM_BANKS))
// parses as ((n) >> (NUM_BANKS + (n))) >> (2 * LOG_NUM_BANKS) because + binds tighter than >>: the
// padding is 0 for small n and the shift is undefined once NUM_BANKS + n >= 32, so the "zero bank
// conflicts" variant silently pads nothing. The intended form is used below, with 32 banks
// (current NVIDIA GPUs; Bilgic's GTX 295 had 16).
#pragma once

#include "cuda/ScanTileCommon.cuh"

#define HDRLAB_LOG_NUM_BANKS 5
#define HDRLAB_CONFLICT_FREE_OFFSET(n) (((n) >> HDRLAB_LOG_NUM_BANKS) + ((n) >> (2 * HDRLAB_LOG_NUM_BANKS)))

namespace cuda::scan_detail {

__host__ __device__ constexpr unsigned conflictFreeOffset(unsigned n)
{
    return HDRLAB_CONFLICT_FREE_OFFSET(n);
}

/// Exclusive scan of `shared` (already loaded at padded indices, zero-padded to `size`, a power of
/// two <= TILE) in place; returns the total. Every thread of the block calls it.
template <int BLOCK, typename T>
__device__ T blellochExclusiveInShared(T* shared, unsigned size)
{
    __shared__ T total;
    const unsigned tid = threadIdx.x;
    unsigned offset = 1;
    for (unsigned d = size >> 1; d > 0; d >>= 1) {
        __syncthreads();
        for (unsigned j = tid; j < d; j += BLOCK) {
            unsigned ai = offset * (2 * j + 1) - 1;
            unsigned bi = offset * (2 * j + 2) - 1;
            ai += conflictFreeOffset(ai);
            bi += conflictFreeOffset(bi);
            shared[bi] += shared[ai];
        }
        offset *= 2;
    }
    __syncthreads();
    if (tid == 0) {
        const unsigned last = size - 1 + conflictFreeOffset(size - 1);
        total = shared[last];
        shared[last] = T{};
    }
    for (unsigned d = 1; d < size; d *= 2) {
        offset >>= 1;
        __syncthreads();
        for (unsigned j = tid; j < d; j += BLOCK) {
            unsigned ai = offset * (2 * j + 1) - 1;
            unsigned bi = offset * (2 * j + 2) - 1;
            ai += conflictFreeOffset(ai);
            bi += conflictFreeOffset(bi);
            const T left = shared[ai];
            shared[ai] = shared[bi];
            shared[bi] += left;
        }
    }
    __syncthreads();
    return total;
}

template <int BLOCK, int TILE, typename T>
__device__ T blellochTileScan(const T* in, T* out, unsigned count)
{
    __shared__ T shared[TILE + conflictFreeOffset(TILE - 1)];
    const unsigned tid = threadIdx.x;
    const unsigned size = nextPowerOfTwo(count);
    for (unsigned i = tid; i < size; i += BLOCK)
        shared[i + conflictFreeOffset(i)] = i < count ? in[i] : T{};

    const T total = blellochExclusiveInShared<BLOCK>(shared, size);
    // inclusive[i] = exclusive[i + 1]; the last element of the padded tile is the total.
    for (unsigned i = tid; i < count; i += BLOCK) {
        const unsigned next = i + 1;
        out[i] = next < size ? shared[next + conflictFreeOffset(next)] : total;
    }
    __syncthreads();
    return total;
}

}  // namespace cuda::scan_detail
