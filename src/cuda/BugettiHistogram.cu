// BugettiHistogram.cu: cuda-bugetti. Bugetti, "Histogram Equalization" (CUDA), CalculateHistogram:
// a shared-memory histogram per block, thread coarsening with interleaved partitioning (each thread
// visits pixels blockDim*gridDim apart), per-thread aggregation of consecutive equal bins into one
// atomic (Hwu, Kirk & Hajj), then one global atomicAdd per nonzero bin per block; the grid has a
// quarter of ceil(pixels / blockDim) blocks. Extended here from 256 8-bit bins to 1..4096
// log-luminance bins (hdBinOf) plus the NaN/Inf/non-positive/below/above counters, which are
// aggregated like bins. Pixel (x, y) of the 1-D index is (i % w, i / w), Bugetti's order.
// Limits: the run aggregation only helps where the same thread meets equal bins (flat frames); the
// global merge costs blocks x bins atomics.
#include "cuda/Histogram.h"

#include "cuda/HistogramDevice.cuh"

#include <stdexcept>
#include <string>

namespace cuda {

namespace {

using histogram_detail::Params;

template <bool kTexture>
__global__ void calculateHistogramKernel(cudaTextureObject_t texture,
                                         const uint2* linear,
                                         unsigned width,
                                         unsigned pixelCount,
                                         const std::uint32_t* paramWords,
                                         unsigned capacity,
                                         std::uint32_t* histogram)
{
    extern __shared__ unsigned histShared[];
    const Params params = histogram_detail::loadParams(paramWords, capacity);
    const unsigned slots = histogram_detail::extendedSlots(params);
    for (unsigned slot = threadIdx.x; slot < slots; slot += blockDim.x)
        histShared[slot] = 0;
    __syncthreads();

    unsigned accumulator = 0;
    unsigned previous = slots;  // "no run yet"
    for (unsigned index = blockIdx.x * blockDim.x + threadIdx.x; index < pixelCount; index += blockDim.x * gridDim.x) {
        float4 pixel;
        if constexpr (kTexture) {
            const unsigned x = index % width;
            const unsigned y = index / width;
            pixel = tex2D<float4>(texture, float(x) + 0.5f, float(y) + 0.5f);
        } else {
            const uint2 words = linear[index];
            const float2 rg = histogram_detail::unpackHalf2(words.x);
            const float2 ba = histogram_detail::unpackHalf2(words.y);
            pixel = make_float4(rg.x, rg.y, ba.x, ba.y);
        }
        const unsigned current = histogram_detail::extendedSlotOf(pixel.x, pixel.y, pixel.z, params);
        if (current != previous) {
            if (previous != slots)
                atomicAdd(&histShared[previous], accumulator);
            accumulator = 1;
            previous = current;
        } else {
            ++accumulator;
        }
    }
    if (accumulator > 0)
        atomicAdd(&histShared[previous], accumulator);
    __syncthreads();

    for (unsigned slot = threadIdx.x; slot < slots; slot += blockDim.x) {
        const unsigned value = histShared[slot];
        if (value > 0)
            atomicAdd(&histogram[histogram_detail::bufferWordOfSlot(slot, params)], value);
    }
}

}  // namespace

void histogramBugetti(const HistogramInput& input,
                      const std::uint32_t* params,
                      unsigned binCapacity,
                      const HistogramOutput& output,
                      int block,
                      cudaStream_t stream)
{
    if (block != 256 && block != 512)
        throw std::invalid_argument("cuda-bugetti: block size must be 256 or 512, not " + std::to_string(block));
    if (binCapacity < 1 || binCapacity > hd::kMaxHistogramBins)
        throw std::invalid_argument("cuda-bugetti: bin count out of range");
    if (input.width <= 0 || input.height <= 0)
        throw std::invalid_argument("cuda-bugetti: empty image");
    const std::size_t pixels = std::size_t(input.width) * std::size_t(input.height);
    if (pixels >= (std::size_t(1) << 31))
        throw std::invalid_argument("cuda-bugetti: image too large");

    CUDA_CHECK(cudaMemsetAsync(output.histogram, 0, binCapacity * sizeof(std::uint32_t), stream));
    CUDA_CHECK(cudaMemsetAsync(output.histogram + hd::kHistogramCountersOffset, 0,
                               hd::kCounterCount * sizeof(std::uint32_t), stream));

    const std::size_t fullGrid = (pixels + std::size_t(block) - 1) / std::size_t(block);
    const unsigned grid = unsigned(std::max<std::size_t>(1, fullGrid / 4));
    const std::size_t shared = (binCapacity + hd::kCounterCount) * sizeof(unsigned);
    if (input.texture != 0) {
        calculateHistogramKernel<true><<<grid, unsigned(block), shared, stream>>>(
            input.texture, nullptr, unsigned(input.width), unsigned(pixels), params, binCapacity, output.histogram);
    } else {
        calculateHistogramKernel<false><<<grid, unsigned(block), shared, stream>>>(
            0, reinterpret_cast<const uint2*>(input.linearRgba16f), unsigned(input.width), unsigned(pixels), params,
            binCapacity, output.histogram);
    }
    CUDA_CHECK_LAUNCH("calculateHistogramKernel");
}

}  // namespace cuda
