// CubBaseline.cu: the CUB library baselines, kept in one translation unit because CUB is slow to
// compile: cuda-cub scan (cub::DeviceScan::InclusiveSum, single-pass decoupled look-back, Merrill &
// Garland 2016) and the cuda-cub histogram: a fused kernel turns each pixel into its position in bin
// units (counting pixels in no bin into the counters), then cub::DeviceHistogram::HistogramEven
// bins those samples. The range lives on the GPU but CUB's levels are host values, so the fused
// kernel bins with hdBinOf (bit-exact) and hands CUB the bin centre, bin + 0.5, with levels
// 0..binCount: CUB's floor(sample) is then hdBinOf's bin exactly. Limits: two passes and a
// 4-byte-per-pixel intermediate; stock CUB privatises in shared memory only up to 256 bins.
#include "cuda/Histogram.h"
#include "cuda/HistogramDevice.cuh"
#include "cuda/Scan.h"

#include <cub/device/device_histogram.cuh>
#include <cub/device/device_scan.cuh>

#include <stdexcept>

namespace cuda {

namespace {

template <typename T>
void cubInclusiveSumImpl(const T* in, T* out, ::std::size_t n, cudaStream_t stream, DeviceScratch& workspace)
{
    if (n == 0)
        return;
    if (n > ::std::size_t(0x7fffffff))
        throw ::std::invalid_argument("cuda-cub scan: more than 2^31-1 elements");
    const int count = int(n);
    ::std::size_t bytes = 0;
    CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, bytes, in, out, count, stream));
    void* temporary = workspace.reserve(::std::max<::std::size_t>(bytes, 1));
    CUDA_CHECK(cub::DeviceScan::InclusiveSum(temporary, bytes, in, out, count, stream));
}

/// Sample of one pixel in bin units (see the file comment), or -1 (ignored by CUB) for pixels in
/// no bin, which are counted into the block's counters.
__device__ __forceinline__ float sampleOf(float r,
                                          float g,
                                          float b,
                                          const histogram_detail::Params& params,
                                          unsigned* blockCounters)
{
    const float luminance = histogram_detail::luminanceOf(r, g, b, params);
    const int bin =
        hd::hdBinOfScaled(luminance, params.logMin, params.logMax, params.scale, params.binCount, params.outOfRange);
    if (bin < 0) {
        atomicAdd(&blockCounters[hd::hdCounterOfCode(bin)], 1u);
        return -1.0f;
    }
    return float(bin) + 0.5f;
}

template <bool kTexture>
__global__ void luminanceSamplesKernel(cudaTextureObject_t texture,
                                       const uint2* linear,
                                       unsigned width,
                                       unsigned pixelCount,
                                       const ::std::uint32_t* paramWords,
                                       unsigned capacity,
                                       float* samples,
                                       ::std::uint32_t* histogram)
{
    __shared__ unsigned blockCounters[hd::kCounterCount];
    if (threadIdx.x < hd::kCounterCount)
        blockCounters[threadIdx.x] = 0;
    __syncthreads();
    const histogram_detail::Params params = histogram_detail::loadParams(paramWords, capacity);
    for (unsigned index = blockIdx.x * blockDim.x + threadIdx.x; index < pixelCount; index += blockDim.x * gridDim.x) {
        float4 pixel;
        if constexpr (kTexture) {
            pixel = tex2D<float4>(texture, float(index % width) + 0.5f, float(index / width) + 0.5f);
        } else {
            const uint2 words = linear[index];
            const float2 rg = histogram_detail::unpackHalf2(words.x);
            const float2 ba = histogram_detail::unpackHalf2(words.y);
            pixel = make_float4(rg.x, rg.y, ba.x, ba.y);
        }
        samples[index] = sampleOf(pixel.x, pixel.y, pixel.z, params, blockCounters);
    }
    __syncthreads();
    if (threadIdx.x < hd::kCounterCount && blockCounters[threadIdx.x] != 0)
        atomicAdd(&histogram[hd::kHistogramCountersOffset + threadIdx.x], blockCounters[threadIdx.x]);
}

}  // namespace

void cubInclusiveSum(const ::std::uint32_t* in,
                     ::std::uint32_t* out,
                     ::std::size_t n,
                     cudaStream_t stream,
                     DeviceScratch& workspace)
{
    cubInclusiveSumImpl(in, out, n, stream, workspace);
}

void cubInclusiveSum(const float* in, float* out, ::std::size_t n, cudaStream_t stream, DeviceScratch& workspace)
{
    cubInclusiveSumImpl(in, out, n, stream, workspace);
}

void cubLuminancePass(const HistogramInput& input,
                      const ::std::uint32_t* params,
                      unsigned binCount,
                      ::std::uint32_t* histogram,
                      float* samples,
                      cudaStream_t stream)
{
    if (binCount < 1 || binCount > hd::kMaxHistogramBins)
        throw ::std::invalid_argument("cuda-cub: bin count out of range");
    if (input.width <= 0 || input.height <= 0)
        throw ::std::invalid_argument("cuda-cub: empty image");
    const ::std::size_t pixels = ::std::size_t(input.width) * ::std::size_t(input.height);
    if (pixels >= (::std::size_t(1) << 31))
        throw ::std::invalid_argument("cuda-cub: image too large");
    CUDA_CHECK(cudaMemsetAsync(histogram + hd::kHistogramCountersOffset, 0, hd::kCounterCount * sizeof(::std::uint32_t),
                               stream));
    int device = 0;
    int multiprocessors = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
    constexpr unsigned kBlock = 256;
    const unsigned grid =
        unsigned(::std::min<::std::size_t>((pixels + kBlock - 1) / kBlock, ::std::size_t(multiprocessors) * 8));
    if (input.texture != 0)
        luminanceSamplesKernel<true><<<grid, kBlock, 0, stream>>>(
            input.texture, nullptr, unsigned(input.width), unsigned(pixels), params, binCount, samples, histogram);
    else
        luminanceSamplesKernel<false>
            <<<grid, kBlock, 0, stream>>>(0, reinterpret_cast<const uint2*>(input.linearRgba16f), unsigned(input.width),
                                          unsigned(pixels), params, binCount, samples, histogram);
    CUDA_CHECK_LAUNCH("luminanceSamplesKernel");
}

void cubHistogramEvenPass(const float* samples,
                          ::std::size_t count,
                          unsigned binCount,
                          ::std::uint32_t* histogram,
                          CubHistogramWorkspace& workspace,
                          cudaStream_t stream)
{
    const int levels = int(binCount) + 1;
    const float lower = 0.0f;
    const float upper = float(binCount);
    const int sampleCount = int(count);
    unsigned int* bins = histogram;
    ::std::size_t bytes = 0;
    CUDA_CHECK(
        cub::DeviceHistogram::HistogramEven(nullptr, bytes, samples, bins, levels, lower, upper, sampleCount, stream));
    void* temporary = workspace.temporary(::std::max<::std::size_t>(bytes, 1));
    CUDA_CHECK(cub::DeviceHistogram::HistogramEven(temporary, bytes, samples, bins, levels, lower, upper, sampleCount,
                                                   stream));
}

void histogramCub(const HistogramInput& input,
                  const ::std::uint32_t* params,
                  unsigned binCount,
                  const HistogramOutput& output,
                  CubHistogramWorkspace& workspace,
                  cudaStream_t stream)
{
    const ::std::size_t pixels = ::std::size_t(input.width) * ::std::size_t(input.height);
    float* samples = workspace.samples(::std::max<::std::size_t>(pixels, 1));
    cubLuminancePass(input, params, binCount, output.histogram, samples, stream);
    cubHistogramEvenPass(samples, pixels, binCount, output.histogram, workspace, stream);
}

}  // namespace cuda
