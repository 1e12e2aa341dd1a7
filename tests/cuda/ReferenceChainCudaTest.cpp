// ReferenceChainCudaTest.cpp: the CUDA half of `bench pipeline`'s reference chain (cuda/ReferenceChain.h)
// computes what the GL half does (tests/app/ReferenceChainGlTest.cpp states the same tolerances): on
// linear RGBA16F (odd pixel counts included, with the padding pixel the bench's buffers have) and
// RGBA32F frames with NaN, Inf, negative and zero pixels, at several bin counts and both a one-pass
// and a grid-stride grid: the histogram's total and counters exact and pixels moved only between
// neighbouring bins (the hardware log2) as far as lie near each edge; the curve within a relative
// 2e-5 of its CPU model from the kernel's own histogram; the pixels within 1 LSB of the CPU model
// from the kernel's own curve.
#include "commands/bench/ReferenceChainCpu.h"
#include "cuda/CudaTestSupport.h"
#include "cuda/ReferenceChain.h"
#include "reference/Histogram.h"

#include <cuda_fp16.h>

#include <cstring>
#include <string>

namespace {

namespace ts = testing_support;

constexpr float kLogMin = -8.0f;
constexpr float kLogMax = 10.0f;

/// The image as the reference chain's linear frame: whole 16-byte elements, RGBA16F (a zero padding
/// pixel where the count is odd; `image` takes the half-quantised values) or RGBA32F.
std::vector<uint4> linearFrame(ts::TestImage& image, bool half)
{
    const std::size_t pixels = image.pixelCount();
    std::vector<uint4> elements(half ? (pixels + 1) / 2 : pixels, make_uint4(0, 0, 0, 0));
    if (half) {
        std::vector<__half> halves(elements.size() * 8, __float2half(0.0f));
        for (std::size_t i = 0; i < image.rgba.size(); ++i) {
            halves[i] = __float2half(image.rgba[i]);
            image.rgba[i] = __half2float(halves[i]);
        }
        std::memcpy(elements.data(), halves.data(), elements.size() * sizeof(uint4));
    } else {
        std::memcpy(elements.data(), image.rgba.data(), elements.size() * sizeof(uint4));
    }
    return elements;
}

TEST(ReferenceChainCuda, StagesMatchTheCpuWithinTheirTolerances)
{
    REQUIRE_CUDA_DEVICE();
    const cudaStream_t stream = cuda_testing::stream();
    for (bool half : {true, false})
        for (glm::ivec2 size : {glm::ivec2{1, 1}, glm::ivec2{37, 23}, glm::ivec2{301, 67}})
            for (unsigned bins : {1u, 64u, 256u, 1000u})
                for (bool gridStride : {false, true}) {
                    SCOPED_TRACE(std::string(half ? "rgba16f " : "rgba32f ") + std::to_string(size.x) + "x" +
                                 std::to_string(size.y) + ", " + std::to_string(bins) + " bins" +
                                 (gridStride ? ", grid-stride" : ", one pass"));
                    ts::TestImage image = ts::randomHdrImage(size.x, size.y, kLogMin - 2.0f, kLogMax + 2.0f,
                                                             unsigned(size.x * 13 + bins));
                    ts::addSpecialPixels(image, 7);
                    const std::vector<uint4> host = linearFrame(image, half);
                    const std::size_t pixels = image.pixelCount();
                    const cuda::DeviceBuffer<uint4> frame = cuda_testing::upload(host);
                    const cuda::DeviceBuffer<std::uint32_t> params =
                        cuda_testing::makeParams(kLogMin, kLogMax, bins, post::OutOfRange::Clamp, size.x, size.y);
                    cuda::DeviceBuffer<std::uint32_t> histogram = cuda_testing::makeHistogramBuffer();
                    cuda::DeviceBuffer<float> curve(hd::kCurveBufferWords);
                    CUDA_CHECK(cudaMemsetAsync(curve.data(), 0, curve.bytes(), stream));
                    cuda::DeviceBuffer<std::uint32_t> display(half ? host.size() * 2 : host.size());

                    cuda::ReferenceLaunch launch;
                    launch.pixels = pixels;
                    launch.halfFrame = half;
                    launch.bins = bins;
                    const unsigned onePass = unsigned((host.size() + 1023) / 1024);
                    launch.histogramBlocks = gridStride ? 2u : std::max(onePass, 1u);
                    launch.applyBlocks = gridStride ? 3u : std::max(onePass, 1u);
                    cuda::referenceHistogram(frame.data(), params.data(), histogram.data(), launch, stream);
                    cuda::referenceCurve(histogram.data(), params.data(), curve.data(), stream);
                    cuda::referenceApply(frame.data(), curve.data(), params.data(), display.data(), launch, stream);

                    const ts::GpuHistogram gpu = cuda_testing::readHistogram(histogram.data(), bins);
                    const ref::Histogram cpu = ref::buildHistogram(image.rgba.data(), size.x, size.y, kLogMin, kLogMax,
                                                                   bins, ref::OutOfRange::Clamp);
                    const std::vector<std::uint32_t> nearEdges =
                        ref::countNearEdges(image.rgba.data(), size.x, size.y, kLogMin, kLogMax, bins,
                                            ref::gpuBinTolerance(kLogMin, kLogMax, bins));
                    const ref::HistogramComparison comparison =
                        ref::compareHistograms(gpu.bins, gpu.counters.data(), cpu, nearEdges);
                    EXPECT_EQ(comparison.gpuTotal, pixels);
                    EXPECT_TRUE(comparison.countersEqual);
                    EXPECT_TRUE(comparison.onlyNeighbourMoves) << "edge " << comparison.firstUnexplainedEdge;

                    app::ReferenceChainParams model;
                    model.logMin = kLogMin;
                    model.logMax = kLogMax;
                    model.bins = bins;
                    const std::vector<float> expectedCurve = app::referenceCurveCpu(gpu.bins, model);
                    const std::vector<float> gpuCurve = cuda_testing::download(curve.data(), expectedCurve.size());
                    for (std::uint32_t word = 0; word < hd::kCurveHeaderWords; ++word)
                        EXPECT_EQ(gpuCurve[word], expectedCurve[word]) << "header word " << word;
                    for (std::size_t i = hd::kCurveHeaderWords; i < expectedCurve.size(); ++i)
                        EXPECT_NEAR(gpuCurve[i], expectedCurve[i], 2e-5 * expectedCurve[i]) << "sample " << i;

                    const std::vector<std::uint32_t> shown = cuda_testing::download(display.data(), pixels);
                    int worst = 0;
                    for (std::size_t p = 0; p < pixels; ++p) {
                        const float* rgb = &image.rgba[4 * p];
                        const std::uint32_t expected =
                            app::referenceApplyPixelCpu(rgb[0], rgb[1], rgb[2], gpuCurve, model);
                        for (int shift = 0; shift < 32; shift += 8)
                            worst = std::max(
                                worst, std::abs(int((shown[p] >> shift) & 0xFFu) - int((expected >> shift) & 0xFFu)));
                    }
                    EXPECT_LE(worst, 1);
                }
}

}  // namespace
