// WarpShuffleScan.cuh: a register/shuffle scan of one tile. Each thread scans TILE/BLOCK
// consecutive elements sequentially in registers; the 32 thread totals of a warp are scanned with
// __shfl_up_sync (Kogge-Stone across lanes, no shared memory, no barriers); warp totals go through
// shared memory and are scanned by the first warp; each thread then adds its offset. Loads and
// stores are staged through shared memory so global accesses stay coalesced. This is the shape
// CUB's BlockScan (raking/warp-scans) takes and what performance.md suggests for a CDF.
#pragma once

#include "cuda/ScanTileCommon.cuh"

namespace cuda::scan_detail {

/// Inclusive scan of `value` across the lanes of a full warp.
template <typename T>
__device__ __forceinline__ T warpInclusiveScan(T value)
{
    const unsigned lane = threadIdx.x & 31u;
#pragma unroll
    for (unsigned delta = 1; delta < 32; delta *= 2) {
        const T other = __shfl_up_sync(0xffffffffu, value, delta);
        if (lane >= delta)
            value += other;
    }
    return value;
}

/// Exclusive scan across the lanes of a warp, from each lane's inclusive value (no subtraction,
/// so float results are exactly the sums the inclusive scan formed).
template <typename T>
__device__ __forceinline__ T warpExclusiveFromInclusive(T inclusive)
{
    const T previous = __shfl_up_sync(0xffffffffu, inclusive, 1);
    return (threadIdx.x & 31u) == 0 ? T(0) : previous;
}

/// Exclusive block-wide scan of one value per thread (BLOCK a multiple of 32, <= 1024); every
/// thread receives the block total in `total`. Starts and ends with a barrier-safe state.
template <int BLOCK, typename T>
__device__ T blockExclusiveScan(T value, T& total)
{
    constexpr unsigned kWarps = BLOCK / 32;
    static_assert(BLOCK % 32 == 0 && kWarps <= 32, "BLOCK must be a multiple of 32, at most 1024");
    __shared__ T warpPrefix[kWarps];
    __shared__ T blockTotal;
    const unsigned lane = threadIdx.x & 31u;
    const unsigned warp = threadIdx.x >> 5;
    const T inclusive = warpInclusiveScan(value);
    const T exclusive = warpExclusiveFromInclusive(inclusive);
    if (lane == 31)
        warpPrefix[warp] = inclusive;
    __syncthreads();
    if (warp == 0) {
        const T warpTotal = lane < kWarps ? warpPrefix[lane] : T(0);
        const T scanned = warpInclusiveScan(warpTotal);
        const T before = warpExclusiveFromInclusive(scanned);
        if (lane < kWarps)
            warpPrefix[lane] = before;
        if (lane == 31)
            blockTotal = scanned;
    }
    __syncthreads();
    const T result = warpPrefix[warp] + exclusive;
    total = blockTotal;
    __syncthreads();  // the shared slots may be reused by the next call
    return result;
}

template <int BLOCK, int TILE, typename T>
__device__ T warpShuffleTileScan(const T* in, T* out, unsigned count)
{
    constexpr int kItems = TILE / BLOCK;
    // One padding word per 32 keeps the per-thread runs of kItems words off a single bank.
    __shared__ T shared[TILE + TILE / 32];
    auto padded = [](unsigned i) { return i + (i >> 5); };
    const unsigned tid = threadIdx.x;
    for (unsigned i = tid; i < count; i += BLOCK)
        shared[padded(i)] = in[i];
    __syncthreads();

    T items[kItems];
    T running = T(0);
#pragma unroll
    for (int k = 0; k < kItems; ++k) {
        const unsigned index = tid * kItems + unsigned(k);
        running += index < count ? shared[padded(index)] : T(0);
        items[k] = running;
    }
    T total;
    const T offset = blockExclusiveScan<BLOCK>(running, total);
#pragma unroll
    for (int k = 0; k < kItems; ++k) {
        const unsigned index = tid * kItems + unsigned(k);
        if (index < count)
            shared[padded(index)] = offset + items[k];
    }
    __syncthreads();
    for (unsigned i = tid; i < count; i += BLOCK)
        out[i] = shared[padded(i)];
    __syncthreads();
    return total;
}

}  // namespace cuda::scan_detail
