// CudaTestSupport.h: helpers of the CUDA tests: skipping without a device, device copies of test
// images (an RGBA32F texture object, or a linear RGBA16F buffer with the image quantised the same
// way on the host so the CPU reference sees the values the GPU reads), params buffers, readbacks.
#pragma once

#include "cuda/CudaContext.h"
#include "cuda/CudaRaii.h"
#include "cuda/Histogram.h"
#include "post/PostTypes.h"
#include "support/HistogramTestSupport.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

/// First statement of every CUDA test: skips (reported as skipped by ctest) without a device.
#define REQUIRE_CUDA_DEVICE()                                               \
    do {                                                                    \
        if (const auto& cudaSkipReason = ::cuda::deviceUnavailableReason()) \
            GTEST_SKIP() << *cudaSkipReason;                                \
    } while (0)

namespace cuda_testing {

inline cudaStream_t stream()
{
    return cuda::CudaContext::instance().stream();
}

/// Copies on the context stream and waits: the stream is non-blocking, so a plain cudaMemcpy (legacy
/// default stream, which may return before its DMA lands) would not be ordered before our kernels.
template <typename T>
cuda::DeviceBuffer<T> upload(const std::vector<T>& values)
{
    cuda::DeviceBuffer<T> buffer(std::max<std::size_t>(values.size(), 1));
    if (!values.empty()) {
        CUDA_CHECK(
            cudaMemcpyAsync(buffer.data(), values.data(), values.size() * sizeof(T), cudaMemcpyHostToDevice, stream()));
        CUDA_CHECK(cudaStreamSynchronize(stream()));
    }
    return buffer;
}

template <typename T>
std::vector<T> download(const T* device, std::size_t count)
{
    std::vector<T> values(count);
    if (count > 0)
        CUDA_CHECK(cudaMemcpyAsync(values.data(), device, count * sizeof(T), cudaMemcpyDeviceToHost, stream()));
    CUDA_CHECK(cudaStreamSynchronize(stream()));
    return values;
}

/// An RGBA32F CUDA array holding the image and a texture object over it.
struct DeviceTexture
{
    cuda::CudaArray array;
    cuda::TextureObject texture;
};
DeviceTexture uploadTexture(const testing_support::TestImage& image);

/// The image as linear RGBA16F on the device; `image` is replaced by its half-quantised values.
cuda::DeviceBuffer<__half> uploadHalf(testing_support::TestImage& image);

/// A params buffer (hd::kParam* words).
cuda::DeviceBuffer<std::uint32_t> makeParams(float logMin,
                                             float logMax,
                                             unsigned bins,
                                             post::OutOfRange policy,
                                             int width,
                                             int height);

/// A histogram buffer filled with garbage (methods must clear what they write).
cuda::DeviceBuffer<std::uint32_t> makeHistogramBuffer();

/// Bins [0, bins), the counters and (when `cdf`) the cumulative histogram, read back.
testing_support::GpuHistogram readHistogram(const std::uint32_t* histogram,
                                            unsigned bins,
                                            const std::uint32_t* cdf = nullptr);

}  // namespace cuda_testing
