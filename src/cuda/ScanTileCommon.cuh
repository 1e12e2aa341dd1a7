// ScanTileCommon.cuh: what the per-algorithm tile scans share. A tile scan is a device function
// run by every thread of a block of BLOCK threads: it reads `count` (1..TILE) elements from `in`,
// writes their inclusive scan to `out` and returns the tile total to every thread. It may use
// static shared memory of its own, and ends with a __syncthreads() so the block can continue.
#pragma once

#include <cstddef>
#include <cstdint>

namespace cuda::scan_detail {

/// Smallest power of two >= n (n >= 1).
__device__ __forceinline__ unsigned nextPowerOfTwo(unsigned n)
{
    return n <= 1 ? 1u : 1u << (32 - __clz(n - 1));
}

}  // namespace cuda::scan_detail
