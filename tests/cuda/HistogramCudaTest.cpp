// The CUDA histogram kernels (cuda-bugetti, cuda-fast in its variants, cuda-cub) against the CPU
// reference ref::buildHistogram on the cases the GL methods use: bin-centre images (exact counts)
// at 1x1, 3x5, 257x131, 1024x768 with 1, 16, 100, 256, 4096 bins and both out-of-range policies;
// NaN/Inf/negative/zero pixels (exact counters); a uniform image; random HDR images (equal totals,
// only neighbouring-bin moves). Both inputs: an RGBA32F texture object and a linear RGBA16F buffer
// (whose half-quantised values the CPU reference also sees).
#include "cuda/CudaTestSupport.h"
#include "reference/Histogram.h"
#include "reference/Scan.h"
#include "support/BinEdges.h"

#include <optional>
#include <ostream>
#include <string>

namespace {

using testing_support::TestImage;

struct Variant
{
    std::string name;
    enum class Kind { Bugetti256, Bugetti512, Fast, Cub } kind;
    bool texture = true;
    cuda::FastMerge merge = cuda::FastMerge::Auto;
    bool aggregation = true;
    bool cdf = false;
    bool fastMath = false;  ///< the hardware-log2 option: the only variant allowed neighbouring-bin moves
};

void PrintTo(const Variant& variant, std::ostream* out)
{
    *out << variant.name;
}

std::vector<Variant> variants()
{
    using K = Variant::Kind;
    return {
        {"bugetti_256_texture", K::Bugetti256, true},
        {"bugetti_512_buffer", K::Bugetti512, false},
        {"fast_texture_auto_cdf", K::Fast, true, cuda::FastMerge::Auto, false, true},
        {"fast_buffer_lastblock_cdf", K::Fast, false, cuda::FastMerge::LastBlock, false, true},
        {"fast_buffer_atomics_cdf", K::Fast, false, cuda::FastMerge::GlobalAtomics, false, true},
        {"fast_texture_aggregation", K::Fast, true, cuda::FastMerge::LastBlock, true, false},
        {"fast_buffer_noaggregation_hwlog2", K::Fast, false, cuda::FastMerge::Auto, false, true, true},
        {"cub_texture", K::Cub, true},
        {"cub_buffer", K::Cub, false},
    };
}

class CudaHistogramTest : public ::testing::TestWithParam<Variant>
{
protected:
    /// Runs the variant on `image` (quantised to half in place for buffer variants).
    testing_support::GpuHistogram run(TestImage& image,
                                      float logMin,
                                      float logMax,
                                      unsigned bins,
                                      post::OutOfRange policy)
    {
        const Variant& variant = GetParam();
        cuda::HistogramInput input;
        input.width = image.width;
        input.height = image.height;
        cuda_testing::DeviceTexture texture;
        cuda::DeviceBuffer<__half> linear;
        if (variant.texture) {
            texture = cuda_testing::uploadTexture(image);
            input.texture = texture.texture.get();
        } else {
            linear = cuda_testing::uploadHalf(image);
            input.linearRgba16f = linear.data();
        }
        auto params = cuda_testing::makeParams(logMin, logMax, bins, policy, image.width, image.height);
        auto histogram = cuda_testing::makeHistogramBuffer();
        auto cdf = cuda_testing::upload(std::vector<std::uint32_t>(hd::kMaxHistogramBins, 0xDEADBEEFu));
        cuda::HistogramOutput output{histogram.data(), variant.cdf ? cdf.data() : nullptr};
        const cudaStream_t stream = cuda_testing::stream();
        switch (variant.kind) {
            case Variant::Kind::Bugetti256:
                cuda::histogramBugetti(input, params.data(), bins, output, 256, stream);
                break;
            case Variant::Kind::Bugetti512:
                cuda::histogramBugetti(input, params.data(), bins, output, 512, stream);
                break;
            case Variant::Kind::Fast: {
                cuda::FastHistogramOptions options;
                options.merge = variant.merge;
                options.warpAggregation = variant.aggregation;
                options.fastMath = variant.fastMath;
                if (!mFastWorkspace)
                    mFastWorkspace.emplace();  // allocates: only after REQUIRE_CUDA_DEVICE
                cuda::histogramFast(input, params.data(), bins, output, *mFastWorkspace, options, stream);
                break;
            }
            case Variant::Kind::Cub:
                cuda::histogramCub(input, params.data(), bins, output, mCubWorkspace, stream);
                break;
        }
        return cuda_testing::readHistogram(histogram.data(), bins, variant.cdf ? cdf.data() : nullptr);
    }

    /// Buffer variants read half floats: keep the range inside what half represents.
    bool halfInput() const { return !GetParam().texture; }

private:
    std::optional<cuda::FastHistogramWorkspace> mFastWorkspace;
    cuda::CubHistogramWorkspace mCubWorkspace;
};

TEST_P(CudaHistogramTest, BinCentreImagesAreExact)
{
    REQUIRE_CUDA_DEVICE();
    const int sizes[][2] = {{1, 1}, {3, 5}, {257, 131}, {1024, 768}};
    const unsigned binCounts[] = {1, 16, 100, 256, 4096};
    const float logMin = halfInput() ? -12.0f : -10.0f;
    const float logMax = halfInput() ? 13.0f : 20.0f;
    for (const auto& size : sizes) {
        for (unsigned bins : binCounts) {
            for (post::OutOfRange policy : {post::OutOfRange::Clamp, post::OutOfRange::Separate}) {
                // Out-of-range pixels only where half can hold them (1.5 EV beyond the range).
                TestImage image = testing_support::binCentreImage(size[0], size[1], logMin, logMax, bins,
                                                                  std::uint32_t(size[0] * 31 + bins), 7);
                const std::string what = std::to_string(size[0]) + "x" + std::to_string(size[1]) + ", " +
                                         std::to_string(bins) + " bins, " +
                                         (policy == post::OutOfRange::Clamp ? "clamp" : "separate");
                const auto gpu = run(image, logMin, logMax, bins, policy);
                const auto cpu = ref::buildHistogram(image.rgba.data(), image.width, image.height, logMin, logMax, bins,
                                                     testing_support::toReference(policy));
                testing_support::expectHistogramsEqual(gpu, cpu, true, GetParam().name + ", " + what);
                if (::testing::Test::HasFailure())
                    return;  // one readable failure, not hundreds
            }
        }
    }
}

// Values exactly on, one ulp below and one ulp above every bin edge: bit-exact binning means equal
// counts (buffer variants see the values rounded to half, and the reference sees the same values).
TEST_P(CudaHistogramTest, ValuesAroundEveryBinEdgeMatchTheReference)
{
    REQUIRE_CUDA_DEVICE();
    if (GetParam().fastMath)
        GTEST_SKIP() << "the hardware-log2 option is not bit-exact by design";
    struct EdgeCase
    {
        float logMin, logMax;
        unsigned bins;
    };
    for (EdgeCase c : {EdgeCase{-10.0f, 20.0f, 1},
                       {-3.3f, 7.77f, 3},
                       {0.1f, 0.35f, 7},
                       {-3.3f, 7.77f, 100},
                       {-10.0f, 13.0f, 256},
                       {-12.5f, 13.25f, 1000},
                       {-10.0f, 13.0f, 4096}}) {
        const std::vector<float> values =
            testing_support::aroundEdges(testing_support::greyBinEdges(c.logMin, c.logMax, c.bins));
        TestImage image{251, int((values.size() + 250) / 251), {}};
        image.rgba.assign(image.pixelCount() * 4, 0.0f);
        for (std::size_t i = 0; i < values.size(); ++i)
            image.setGrey(i, values[i]);
        for (post::OutOfRange policy : {post::OutOfRange::Clamp, post::OutOfRange::Separate}) {
            TestImage copy = image;
            const auto gpu = run(copy, c.logMin, c.logMax, c.bins, policy);
            const auto cpu = ref::buildHistogram(copy.rgba.data(), copy.width, copy.height, c.logMin, c.logMax, c.bins,
                                                 testing_support::toReference(policy));
            testing_support::expectHistogramsEqual(gpu, cpu, true,
                                                   GetParam().name + " edges, " + std::to_string(c.bins) + " bins");
            if (::testing::Test::HasFailure())
                return;
        }
    }
}

TEST_P(CudaHistogramTest, SpecialPixelsAreCounted)
{
    REQUIRE_CUDA_DEVICE();
    for (post::OutOfRange policy : {post::OutOfRange::Clamp, post::OutOfRange::Separate}) {
        TestImage image = testing_support::binCentreImage(97, 61, -8.0f, 12.0f, 256, 5, 11);
        const auto counts = testing_support::addSpecialPixels(image, 7);
        ASSERT_GT(counts.nan, 0u);
        const auto gpu = run(image, -8.0f, 12.0f, 256, policy);
        const auto cpu = ref::buildHistogram(image.rgba.data(), image.width, image.height, -8.0f, 12.0f, 256,
                                             testing_support::toReference(policy));
        testing_support::expectHistogramsEqual(gpu, cpu, true, GetParam().name + " special pixels");
    }
}

TEST_P(CudaHistogramTest, UniformImageLandsInOneBin)
{
    REQUIRE_CUDA_DEVICE();
    for (unsigned bins : {16u, 4096u}) {
        TestImage image{640, 480, {}};
        image.rgba.assign(image.pixelCount() * 4, 0.0f);
        for (std::size_t i = 0; i < image.pixelCount(); ++i)
            image.setGrey(i, 0.75f);
        const auto gpu = run(image, -8.0f, 8.0f, bins, post::OutOfRange::Clamp);
        const auto cpu = ref::buildHistogram(image.rgba.data(), image.width, image.height, -8.0f, 8.0f, bins,
                                             ref::OutOfRange::Clamp);
        testing_support::expectHistogramsEqual(gpu, cpu, true, GetParam().name + " uniform");
        std::uint64_t largest = 0;
        for (std::uint32_t count : gpu.bins)
            largest = std::max<std::uint64_t>(largest, count);
        EXPECT_EQ(largest, image.pixelCount());
    }
}

// Exact for every variant but the hardware-log2 option, which may move pixels near edges only.
TEST_P(CudaHistogramTest, RandomHdrImagesMatchTheReference)
{
    REQUIRE_CUDA_DEVICE();
    for (unsigned bins : {64u, 1000u, 4096u}) {
        const float logMin = -10.0f, logMax = 14.0f;
        TestImage image = testing_support::randomHdrImage(333, 257, logMin + 1.0f, logMax - 1.0f, bins);
        const auto gpu = run(image, logMin, logMax, bins, post::OutOfRange::Separate);
        post::HistogramSpec spec;
        spec.binCount = bins;
        spec.outOfRange = post::OutOfRange::Separate;
        if (GetParam().fastMath) {
            testing_support::expectHistogramsClose(gpu, image, logMin, logMax, spec, true,
                                                   GetParam().name + " random " + std::to_string(bins));
        } else {
            const auto cpu = ref::buildHistogram(image.rgba.data(), image.width, image.height, logMin, logMax, bins,
                                                 ref::OutOfRange::Separate);
            testing_support::expectHistogramsEqual(gpu, cpu, true, GetParam().name + " random " + std::to_string(bins));
        }
        if (!gpu.cumulative.empty())
            EXPECT_EQ(gpu.cumulative, ref::inclusiveScan(gpu.bins));
    }
}

TEST_P(CudaHistogramTest, RepeatedRunsGiveTheSameResult)
{
    REQUIRE_CUDA_DEVICE();
    // The fast method's ticket must be reset by each launch; other methods must clear their output.
    TestImage image = testing_support::binCentreImage(300, 200, -6.0f, 6.0f, 128, 3);
    const auto first = run(image, -6.0f, 6.0f, 128, post::OutOfRange::Clamp);
    for (int repeat = 0; repeat < 3; ++repeat) {
        const auto again = run(image, -6.0f, 6.0f, 128, post::OutOfRange::Clamp);
        EXPECT_EQ(again.bins, first.bins) << "run " << repeat;
        EXPECT_EQ(again.counters, first.counters) << "run " << repeat;
    }
}

INSTANTIATE_TEST_SUITE_P(Kernels,
                         CudaHistogramTest,
                         ::testing::ValuesIn(variants()),
                         [](const ::testing::TestParamInfo<Variant>& info) { return info.param.name; });

TEST(CudaHistogramLaunch, RejectsBadArguments)
{
    REQUIRE_CUDA_DEVICE();
    auto params = cuda_testing::makeParams(0.0f, 1.0f, 16, post::OutOfRange::Clamp, 4, 4);
    auto histogram = cuda_testing::makeHistogramBuffer();
    cuda::HistogramInput empty;
    cuda::HistogramOutput output{histogram.data(), nullptr};
    EXPECT_THROW(cuda::histogramBugetti(empty, params.data(), 16, output, 256, cuda_testing::stream()),
                 std::invalid_argument);
    cuda::HistogramInput input{0, nullptr, 4, 4};
    EXPECT_THROW(cuda::histogramBugetti(input, params.data(), 16, output, 384, cuda_testing::stream()),
                 std::invalid_argument);
    cuda::FastHistogramWorkspace workspace;
    EXPECT_THROW(cuda::histogramFast(input, params.data(), 5000, output, workspace, {}, cuda_testing::stream()),
                 std::invalid_argument);
}

}  // namespace
