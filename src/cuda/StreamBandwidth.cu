// StreamBandwidth.cu: the streaming read and write kernels of StreamBandwidth.h.
#include "cuda/StreamBandwidth.h"

#include "cuda/CudaCheck.h"

#include <stdexcept>

namespace cuda {

namespace {

template <StreamCache Cache>
__device__ __forceinline__ uint4 load(const uint4* address)
{
    if constexpr (Cache == StreamCache::Streaming)
        return __ldcs(address);
    else
        return __ldg(address);
}

template <StreamCache Cache>
__device__ __forceinline__ void store(uint4* address, uint4 value)
{
    if constexpr (Cache == StreamCache::Streaming)
        __stcs(address, value);
    else
        *address = value;
}

__device__ __forceinline__ void fold(uint4& sum, uint4 value)
{
    sum.x ^= value.x;
    sum.y ^= value.y;
    sum.z ^= value.z;
    sum.w ^= value.w;
}

template <int Items, StreamCache Cache>
__global__ void streamReadKernel(const uint4* __restrict__ data, std::size_t count, uint4* sink, unsigned sentinel)
{
    const std::size_t chunk = std::size_t(blockDim.x) * Items;
    const std::size_t stride = chunk * gridDim.x;
    std::size_t base = std::size_t(blockIdx.x) * chunk + threadIdx.x;
    uint4 sum = make_uint4(0u, 0u, 0u, 0u);
    // Whole steps: every access in bounds, all Items loads issued before the first is used.
    for (; base + std::size_t(Items - 1) * blockDim.x < count; base += stride) {
        uint4 values[Items];
#pragma unroll
        for (int k = 0; k < Items; ++k)
            values[k] = load<Cache>(data + base + std::size_t(k) * blockDim.x);
#pragma unroll
        for (int k = 0; k < Items; ++k)
            fold(sum, values[k]);
    }
    // The last, partial step (at most one per thread: stride > (Items - 1) * blockDim.x).
#pragma unroll
    for (int k = 0; k < Items; ++k) {
        const std::size_t i = base + std::size_t(k) * blockDim.x;
        if (i < count)
            fold(sum, load<Cache>(data + i));
    }
    if ((sum.x ^ sum.y ^ sum.z ^ sum.w) == sentinel)
        *sink = sum;
}

template <int Items, StreamCache Cache>
__global__ void streamWriteKernel(uint4* __restrict__ data, std::size_t count, unsigned word)
{
    const std::size_t chunk = std::size_t(blockDim.x) * Items;
    const std::size_t stride = chunk * gridDim.x;
    const uint4 value = make_uint4(word, word, word, word);
    std::size_t base = std::size_t(blockIdx.x) * chunk + threadIdx.x;
    for (; base + std::size_t(Items - 1) * blockDim.x < count; base += stride) {
#pragma unroll
        for (int k = 0; k < Items; ++k)
            store<Cache>(data + base + std::size_t(k) * blockDim.x, value);
    }
#pragma unroll
    for (int k = 0; k < Items; ++k) {
        const std::size_t i = base + std::size_t(k) * blockDim.x;
        if (i < count)
            store<Cache>(data + i, value);
    }
}

template <int Items>
void readWith(const uint4* data,
              std::size_t count,
              uint4* sink,
              unsigned sentinel,
              const StreamLaunch& launch,
              cudaStream_t stream)
{
    if (launch.cache == StreamCache::Streaming)
        streamReadKernel<Items, StreamCache::Streaming>
            <<<launch.blocks, launch.threadsPerBlock, 0, stream>>>(data, count, sink, sentinel);
    else
        streamReadKernel<Items, StreamCache::Default>
            <<<launch.blocks, launch.threadsPerBlock, 0, stream>>>(data, count, sink, sentinel);
}

template <int Items>
void writeWith(uint4* data, std::size_t count, unsigned value, const StreamLaunch& launch, cudaStream_t stream)
{
    if (launch.cache == StreamCache::Streaming)
        streamWriteKernel<Items, StreamCache::Streaming>
            <<<launch.blocks, launch.threadsPerBlock, 0, stream>>>(data, count, value);
    else
        streamWriteKernel<Items, StreamCache::Default>
            <<<launch.blocks, launch.threadsPerBlock, 0, stream>>>(data, count, value);
}

void checkLaunchShape(const StreamLaunch& launch)
{
    if (!streamItemsSupported(launch.itemsPerThread))
        throw std::invalid_argument("stream kernels: itemsPerThread must be 1, 2, 4 or 8");
    if (launch.blocks < 1 || launch.threadsPerBlock < 32 || launch.threadsPerBlock > 1024)
        throw std::invalid_argument("stream kernels: blocks >= 1 and 32..1024 threads per block");
}

}  // namespace

bool streamItemsSupported(int items)
{
    return items == 1 || items == 2 || items == 4 || items == 8;
}

void streamRead(const uint4* data,
                std::size_t count,
                uint4* sink,
                unsigned sentinel,
                const StreamLaunch& launch,
                cudaStream_t stream)
{
    checkLaunchShape(launch);
    switch (launch.itemsPerThread) {
        case 1:
            readWith<1>(data, count, sink, sentinel, launch, stream);
            break;
        case 2:
            readWith<2>(data, count, sink, sentinel, launch, stream);
            break;
        case 4:
            readWith<4>(data, count, sink, sentinel, launch, stream);
            break;
        default:
            readWith<8>(data, count, sink, sentinel, launch, stream);
            break;
    }
    CUDA_CHECK_LAUNCH("streamRead");
}

void streamWrite(uint4* data, std::size_t count, unsigned value, const StreamLaunch& launch, cudaStream_t stream)
{
    checkLaunchShape(launch);
    switch (launch.itemsPerThread) {
        case 1:
            writeWith<1>(data, count, value, launch, stream);
            break;
        case 2:
            writeWith<2>(data, count, value, launch, stream);
            break;
        case 4:
            writeWith<4>(data, count, value, launch, stream);
            break;
        default:
            writeWith<8>(data, count, value, launch, stream);
            break;
    }
    CUDA_CHECK_LAUNCH("streamWrite");
}

}  // namespace cuda
