// KoggeStoneScan.cuh: Kogge-Stone inclusive scan of one tile in shared memory (Bugetti,
// "Histogram Equalization", KoggeStoneScan; Kirk & Hwu ch. 11). log2(n) phases; in phase k every
// element i >= 2^k adds element i - 2^k: O(n log n) additions, two barriers per phase (read all
// operands, barrier, write). Bugetti gives one element per thread (n <= blockDim); here each
// thread owns TILE/BLOCK elements (strided by BLOCK) so one block covers a 4096-bin histogram.
#pragma once

#include "cuda/ScanTileCommon.cuh"

namespace cuda::scan_detail {

template <int BLOCK, int TILE, typename T>
__device__ T koggeStoneTileScan(const T* in, T* out, unsigned count)
{
    constexpr int kItems = TILE / BLOCK;
    __shared__ T shared[TILE];
    const unsigned tid = threadIdx.x;
    for (unsigned i = tid; i < count; i += BLOCK)
        shared[i] = in[i];

    for (unsigned stride = 1; stride < count; stride *= 2) {
        __syncthreads();
        T operand[kItems];
#pragma unroll
        for (int k = 0; k < kItems; ++k) {
            const unsigned i = tid + unsigned(k) * BLOCK;
            operand[k] = (i < count && i >= stride) ? shared[i - stride] : T(0);
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < kItems; ++k) {
            const unsigned i = tid + unsigned(k) * BLOCK;
            if (i < count && i >= stride)
                shared[i] += operand[k];
        }
    }
    __syncthreads();
    for (unsigned i = tid; i < count; i += BLOCK)
        out[i] = shared[i];
    const T total = shared[count - 1];
    __syncthreads();
    return total;
}

}  // namespace cuda::scan_detail
