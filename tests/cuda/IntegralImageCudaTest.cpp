// GPU integral images (Bilgic transpose and transpose-free, float/float4/double) against the CPU
// sequential algorithm: Bilgic's 3x4 example (exclusive, zero-padded), exact integer-valued images
// at awkward sizes (sums below 2^24 are exact in float), and the precision of float on a large image
// of values in [0, 1): |gpu - exact| <= k * 2^-24 * S(x, y) (S = the exact inclusive sum, all values
// >= 0), k = the longest chain of rounded additions behind one output (each adds at most 2^-24 S):
// Bilgic ~ 2 x (2 log2 1024 + 3) = 46 -> k = 64; transpose-free: row 23 + a 64-row chunk + 24 chunk
// carries ~ 112 -> k = 128. Double stays within 1e-12 relative.
#include "cuda/CudaTestSupport.h"
#include "cuda/IntegralImage.h"
#include "reference/IntegralImage.h"

#include <cmath>
#include <random>

namespace {

using cuda::IntegralLayout;
using cuda::IntegralMethod;

const IntegralMethod kMethods[] = {IntegralMethod::BilgicTranspose, IntegralMethod::TransposeFree};

template <typename T>
std::vector<T> gpuIntegral(IntegralMethod method,
                           const std::vector<T>& image,
                           int width,
                           int height,
                           IntegralLayout layout)
{
    auto input = cuda_testing::upload(image);
    cuda::DeviceBuffer<T> output(image.size());
    cuda::DeviceScratch workspace;
    cuda::integralImage(method, input.data(), output.data(), width, height, layout, cuda_testing::stream(), workspace);
    return cuda_testing::download(output.data(), image.size());
}

TEST(CudaIntegralImage, BilgicExample)
{
    REQUIRE_CUDA_DEVICE();
    const std::vector<float> image{2, 1, 3, 1, 3, 2, 1, 1, 4, 1, 3, 1};
    const std::vector<float> exclusive{0, 0, 0, 0, 0, 2, 3, 6, 0, 5, 8, 12};
    const std::vector<float> inclusive{2, 3, 6, 7, 5, 8, 12, 14, 9, 13, 20, 23};
    for (IntegralMethod method : kMethods) {
        EXPECT_EQ(gpuIntegral(method, image, 4, 3, IntegralLayout::ExclusivePadded), exclusive)
            << cuda::integralMethodName(method);
        EXPECT_EQ(gpuIntegral(method, image, 4, 3, IntegralLayout::Inclusive), inclusive)
            << cuda::integralMethodName(method);
        std::vector<double> asDouble(image.begin(), image.end());
        const auto got = gpuIntegral(method, asDouble, 4, 3, IntegralLayout::ExclusivePadded);
        EXPECT_EQ(std::vector<float>(got.begin(), got.end()), exclusive) << "double";
    }
}

TEST(CudaIntegralImage, IntegerImagesAreExactAtAwkwardSizes)
{
    REQUIRE_CUDA_DEVICE();
    const int sizes[][2] = {{1, 1}, {1, 37}, {37, 1}, {33, 17}, {1023, 3}, {1025, 70}, {2100, 130}, {130, 2100}};
    std::mt19937 random(1);
    std::uniform_int_distribution<int> pick(0, 3);
    for (const auto& size : sizes) {
        const int width = size[0], height = size[1];
        std::vector<float> image(std::size_t(width) * std::size_t(height));
        for (float& value : image)
            value = float(pick(random));  // sums <= 3 * 273000 < 2^24: exact in float
        for (IntegralLayout layout : {IntegralLayout::Inclusive, IntegralLayout::ExclusivePadded}) {
            const auto kind =
                layout == IntegralLayout::Inclusive ? ref::IntegralKind::Inclusive : ref::IntegralKind::ExclusivePadded;
            const auto expected = ref::integralImage<float, double>(image.data(), width, height, kind);
            for (IntegralMethod method : kMethods)
                EXPECT_EQ(gpuIntegral(method, image, width, height, layout), expected)
                    << cuda::integralMethodName(method) << " " << width << "x" << height
                    << (layout == IntegralLayout::Inclusive ? " inclusive" : " exclusive");
        }
    }
}

TEST(CudaIntegralImage, Float4ChannelsAreIndependent)
{
    REQUIRE_CUDA_DEVICE();
    const int width = 1500, height = 41;
    std::mt19937 random(2);
    std::uniform_int_distribution<int> pick(0, 5);
    std::vector<float4> image(std::size_t(width) * height);
    std::vector<float> interleaved;
    for (float4& pixel : image) {
        pixel = make_float4(float(pick(random)), float(pick(random)), float(pick(random)), float(pick(random)));
        interleaved.insert(interleaved.end(), {pixel.x, pixel.y, pixel.z, pixel.w});
    }
    const auto expected =
        ref::integralImage<float, double>(interleaved.data(), width, height, ref::IntegralKind::Inclusive, 4);
    for (IntegralMethod method : kMethods) {
        const auto got = gpuIntegral(method, image, width, height, IntegralLayout::Inclusive);
        std::size_t bad = 0;
        for (std::size_t i = 0; i < got.size(); ++i) {
            const float values[4] = {got[i].x, got[i].y, got[i].z, got[i].w};
            for (int c = 0; c < 4; ++c)
                bad += values[c] != expected[i * 4 + std::size_t(c)] ? 1 : 0;
        }
        EXPECT_EQ(bad, 0u) << cuda::integralMethodName(method);
    }
}

TEST(CudaIntegralImage, FloatPrecisionOnALargeImage)
{
    REQUIRE_CUDA_DEVICE();
    const int width = 2048, height = 1536;
    std::mt19937 random(3);
    std::uniform_real_distribution<float> pick(0.0f, 1.0f);
    std::vector<float> image(std::size_t(width) * height);
    for (float& value : image)
        value = pick(random);
    const auto exact = ref::integralImage<float, double>(image.data(), width, height, ref::IntegralKind::Inclusive);
    std::vector<double> asDouble(image.begin(), image.end());
    const auto exactDouble = ref::integralImage<double>(asDouble.data(), width, height, ref::IntegralKind::Inclusive);
    for (IntegralMethod method : kMethods) {
        const auto got = gpuIntegral(method, image, width, height, IntegralLayout::Inclusive);
        const auto gotDouble = gpuIntegral(method, asDouble, width, height, IntegralLayout::Inclusive);
        double worstFloat = 0.0, worstDouble = 0.0;
        for (std::size_t i = 0; i < got.size(); ++i) {
            const double magnitude = std::max(exactDouble[i], 1e-30);
            worstFloat = std::max(worstFloat, std::abs(double(got[i]) - exactDouble[i]) / magnitude);
            worstDouble = std::max(worstDouble, std::abs(gotDouble[i] - exactDouble[i]) / magnitude);
        }
        const double chain = method == IntegralMethod::BilgicTranspose ? 64.0 : 128.0;
        EXPECT_LE(worstFloat, chain * std::ldexp(1.0, -24)) << cuda::integralMethodName(method);
        EXPECT_LE(worstDouble, 1e-12) << cuda::integralMethodName(method);
        // The sequential float CPU algorithm (float accumulator) for comparison: report only.
        const auto sequentialFloat =
            ref::integralImage<float>(image.data(), width, height, ref::IntegralKind::Inclusive);
        double worstSequential = 0.0;
        for (std::size_t i = 0; i < got.size(); ++i)
            worstSequential = std::max(worstSequential, std::abs(double(sequentialFloat[i]) - exactDouble[i]) /
                                                            std::max(exactDouble[i], 1e-30));
        std::printf("[ info ] %s: worst relative error float GPU %.3g, double GPU %.3g, float CPU sequential %.3g\n",
                    std::string(cuda::integralMethodName(method)).c_str(), worstFloat, worstDouble, worstSequential);
        (void)exact;
    }
}

}  // namespace
