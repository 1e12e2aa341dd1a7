// KoggeStoneDoubleBufferScan.cuh: Kogge-Stone with two shared buffers that swap roles each phase
// (Bugetti, KoggeStoneScanDoubleBuffer): a phase reads one buffer and writes the other, so one
// barrier per phase suffices.
//
// Published bug, fixed here: after the last phase the listing swaps the pointers and then copies
// out `outputBuffer`, which after the swap is the buffer of the previous phase, not the result;
// the copy-out must read `inputBuffer` (the buffer the last phase wrote). The stale buffer lacks
// the last phase, so every element at index >= n/2 (rounded to the phase) misses a term. (With no
// phase at all, n = 1, the listing even reads the never-initialised second buffer.) The listing
// also has no barrier before the copy-out; it happens to be harmless there because each thread
// reads back only what it wrote, but the tile total below is read across threads, so we keep one.
// `listingBug` reproduces the published copy-out for the test that shows the difference.
#pragma once

#include "cuda/ScanTileCommon.cuh"

namespace cuda::scan_detail {

template <int BLOCK, int TILE, typename T>
__device__ T koggeStoneDoubleBufferTileScan(const T* in, T* out, unsigned count, bool listingBug)
{
    __shared__ T buffers[2][TILE];
    const unsigned tid = threadIdx.x;
    for (unsigned i = tid; i < count; i += BLOCK) {
        const T value = in[i];
        buffers[0][i] = value;
        buffers[1][i] = value;  // only so that the listing-bug reproduction reads defined values
    }

    int source = 0;
    for (unsigned stride = 1; stride < count; stride *= 2) {
        __syncthreads();  // the previous phase's writes (our reads) and reads (our writes) are done
        const T* read = buffers[source];
        T* write = buffers[1 - source];
        for (unsigned i = tid; i < count; i += BLOCK)
            write[i] = i >= stride ? read[i] + read[i - stride] : read[i];
        source = 1 - source;  // the swap: `source` now names the buffer just written
    }
    __syncthreads();
    const T* result = listingBug ? buffers[1 - source] : buffers[source];
    for (unsigned i = tid; i < count; i += BLOCK)
        out[i] = result[i];
    const T total = result[count - 1];
    __syncthreads();
    return total;
}

}  // namespace cuda::scan_detail
