#include "cuda/CudaTestSupport.h"

#include "post/AutoRange.h"

#include <cstring>

namespace cuda_testing {

DeviceTexture uploadTexture(const testing_support::TestImage& image)
{
    DeviceTexture result;
    const cudaChannelFormatDesc format = cudaCreateChannelDesc(32, 32, 32, 32, cudaChannelFormatKindFloat);
    result.array = cuda::CudaArray(format, std::size_t(image.width), std::size_t(image.height));
    const std::size_t rowBytes = std::size_t(image.width) * 4 * sizeof(float);
    CUDA_CHECK(cudaMemcpy2DToArrayAsync(result.array.get(), 0, 0, image.rgba.data(), rowBytes, rowBytes,
                                        std::size_t(image.height), cudaMemcpyHostToDevice, stream()));
    CUDA_CHECK(cudaStreamSynchronize(stream()));
    result.texture = cuda::TextureObject(result.array.get());
    return result;
}

cuda::DeviceBuffer<__half> uploadHalf(testing_support::TestImage& image)
{
    std::vector<__half> halves(image.rgba.size());
    for (std::size_t i = 0; i < image.rgba.size(); ++i) {
        halves[i] = __float2half(image.rgba[i]);
        image.rgba[i] = __half2float(halves[i]);
    }
    return upload(halves);
}

cuda::DeviceBuffer<std::uint32_t> makeParams(float logMin,
                                             float logMax,
                                             unsigned bins,
                                             post::OutOfRange policy,
                                             int width,
                                             int height)
{
    post::HistogramSpec spec;  // the default luminance definition
    spec.binCount = bins;
    spec.outOfRange = policy;
    const auto words = post::histogramParamWords(logMin, logMax, spec, {width, height});
    return upload(std::vector<std::uint32_t>(words.begin(), words.end()));
}

cuda::DeviceBuffer<std::uint32_t> makeHistogramBuffer()
{
    return upload(std::vector<std::uint32_t>(hd::kHistogramBufferWords, 0xDEADBEEFu));
}

testing_support::GpuHistogram readHistogram(const std::uint32_t* histogram, unsigned bins, const std::uint32_t* cdf)
{
    const auto words = download(histogram, hd::kHistogramBufferWords);
    testing_support::GpuHistogram result;
    result.bins.assign(words.begin(), words.begin() + bins);
    for (std::size_t i = 0; i < hd::kCounterCount; ++i)
        result.counters[i] = words[hd::kHistogramCountersOffset + i];
    if (cdf)
        result.cumulative = download(cdf, bins);
    return result;
}

}  // namespace cuda_testing
