// StreamBandwidth.h: host launchers of the streaming kernels behind `hdrlab bench pipeline`'s memory
// floor (commands/bench/BenchBandwidth.h): one only reads a buffer, one only writes it, 16-byte uint4 accesses,
// `itemsPerThread` of them issued per thread per grid-stride step before any is used, each step's
// accesses coalesced across the block. The read kernel folds what it reads with XOR and stores it only
// when it equals `sentinel`, which the caller makes impossible (a buffer of one repeated byte folds to
// 0 or to four equal words, whose XOR is 0: any non-zero sentinel), so the compiler keeps every load
// and the kernel writes nothing. Limits: no texture path (hdrlab's passes read the frame as a
// texture; a plain buffer is the faster way to move the same bytes, which is what a floor wants).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace cuda {

/// Cache hint: reads through the read-only path (__ldg) or marked evict-first (__ldcs); writes plain
/// or marked evict-first (__stcs).
enum class StreamCache { Default, Streaming };

struct StreamLaunch
{
    int blocks = 0;
    int threadsPerBlock = 256;
    int itemsPerThread = 4;  ///< 1, 2, 4 or 8
    StreamCache cache = StreamCache::Default;
};

/// Whether `items` is an itemsPerThread the kernels are built for.
bool streamItemsSupported(int items);

/// Reads `count` uint4 of `data`; writes `*sink` only if the fold of everything read equals `sentinel`.
void streamRead(const uint4* data,
                std::size_t count,
                uint4* sink,
                unsigned sentinel,
                const StreamLaunch& launch,
                cudaStream_t stream);
/// Writes `value` into every word of the `count` uint4 of `data`.
void streamWrite(uint4* data, std::size_t count, unsigned value, const StreamLaunch& launch, cudaStream_t stream);

}  // namespace cuda
