// BrentKungScan.cuh: Brent-Kung inclusive scan of one tile (Bugetti, BrentKungScan; Kirk & Hwu
// ch. 11): a reduction tree (stride 1, 2, 4, ... : element (j+1)*2*stride-1 adds the one `stride`
// before it) followed by the reverse tree that pushes partial sums down (stride n/4 ... 1: element
// index+stride adds element index). 2(n-1) - log2(n) additions, 2 log2(n) barriers. The tile is
// padded with zeros to a power of two. Bugetti's listing covers 2*blockDim elements; here the
// loops stride over the threads so a block covers TILE elements.
// Race freedom: in a reduction phase the written indices are 2s-1 mod 2s and the read ones s-1 mod
// 2s; in a reverse phase written are s-1 mod 2s and read 2s-1 mod 2s; disjoint in both.
#pragma once

#include "cuda/ScanTileCommon.cuh"

namespace cuda::scan_detail {

template <int BLOCK, int TILE, typename T>
__device__ T brentKungTileScan(const T* in, T* out, unsigned count)
{
    __shared__ T shared[TILE];
    const unsigned tid = threadIdx.x;
    const unsigned size = nextPowerOfTwo(count);
    for (unsigned i = tid; i < size; i += BLOCK)
        shared[i] = i < count ? in[i] : T(0);

    for (unsigned stride = 1; stride < size; stride *= 2) {
        __syncthreads();
        for (unsigned j = tid;; j += BLOCK) {
            const unsigned index = (j + 1) * 2 * stride - 1;
            if (index >= size)
                break;
            shared[index] += shared[index - stride];
        }
    }
    for (unsigned stride = size / 4; stride > 0; stride /= 2) {
        __syncthreads();
        for (unsigned j = tid;; j += BLOCK) {
            const unsigned index = (j + 1) * 2 * stride - 1;
            if (index + stride >= size)
                break;
            shared[index + stride] += shared[index];
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
