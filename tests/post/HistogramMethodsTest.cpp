// Every OpenGL histogram method of the registry against the CPU reference (methods added later are
// tested automatically; unavailable ones are skipped with the reason):
//  - exact counts on bin-centre images at 1x1, 3x5, 257x131 and 1024x768, bins 1..4096, both
//    out-of-range policies;
//  - exact NaN/Inf/non-positive counters;
//  - random HDR images: equal totals, differences only between neighbouring bins.
#include "post/histogram/HistogramMethod.h"
#include "reference/Histogram.h"
#include "reference/ToneWardRef.h"
#include "support/GlTestEnvironment.h"
#include "support/HistogramTestSupport.h"

#include <memory>

namespace ts = testing_support;

namespace {

class HistogramMethods : public ts::GlTest, public ::testing::WithParamInterface<std::string>
{
protected:
    void SetUp() override
    {
        method = post::createHistogramMethod(GetParam());
        ASSERT_TRUE(method);
        post::Availability availability = method->availability(ts::testGpuCaps());
        if (method->backend() != post::Backend::OpenGL)
            GTEST_SKIP() << GetParam() << " is not an OpenGL method (tested by its own backend's tests)";
        if (!availability.available)
            GTEST_SKIP() << GetParam() << " is unavailable here: " << availability.reason;
        if (method->needsFusedProducer())
            GTEST_SKIP() << GetParam() << " " << post::kNeedsFusedProducer << " (tests/app/FusedHistogramGlTest.cpp)";
    }

    /// Bin counts above the method's limit are skipped (the pipeline clamps them).
    bool supports(std::uint32_t bins) const { return bins <= method->maxBins(ts::testGpuCaps()); }

    void expectExact(int width, int height, std::uint32_t bins, post::OutOfRange policy, std::uint32_t seed)
    {
        if (!supports(bins))
            return;
        constexpr float kLogMin = -6.0f, kLogMax = 9.0f;
        ts::TestImage image = ts::binCentreImage(width, height, kLogMin, kLogMax, bins, seed, 7);
        post::HistogramSpec spec{bins, policy};
        ts::GpuHistogram gpu = ts::runHistogramMethod(*method, image, kLogMin, kLogMax, spec);
        ref::Histogram cpu =
            ref::buildHistogram(image.rgba.data(), width, height, kLogMin, kLogMax, bins, ts::toReference(policy));
        ts::expectHistogramsEqual(gpu, cpu, method->fillsCounters(),
                                  ::testing::PrintToString(GetParam()) + " " + std::to_string(width) + "x" +
                                      std::to_string(height) + " bins " + std::to_string(bins) +
                                      (policy == post::OutOfRange::Separate ? " separate" : " clamp"));
    }

    std::unique_ptr<post::HistogramMethod> method;
};

TEST_P(HistogramMethods, ExactOnBinCentresAtSmallAndOddSizes)
{
    std::uint32_t seed = 1;
    for (glm::ivec2 size : {glm::ivec2(1, 1), glm::ivec2(3, 5), glm::ivec2(257, 131)})
        for (std::uint32_t bins : {1u, 16u, 100u, 256u, 4096u})
            for (post::OutOfRange policy : {post::OutOfRange::Clamp, post::OutOfRange::Separate})
                expectExact(size.x, size.y, bins, policy, seed++);
}

TEST_P(HistogramMethods, ExactOnBinCentresAtLargeSize)
{
    expectExact(1024, 768, 256, post::OutOfRange::Clamp, 11);
    expectExact(1024, 768, 4096, post::OutOfRange::Separate, 12);
    expectExact(1024, 768, 1, post::OutOfRange::Clamp, 13);
}

TEST_P(HistogramMethods, CountsNaNInfAndNonPositivePixelsExactly)
{
    constexpr float kLogMin = -4.0f, kLogMax = 4.0f;
    for (post::OutOfRange policy : {post::OutOfRange::Clamp, post::OutOfRange::Separate}) {
        ts::TestImage image = ts::binCentreImage(61, 37, kLogMin, kLogMax, 64, 5, 11);
        ts::SpecialCounts special = ts::addSpecialPixels(image, 5);
        post::HistogramSpec spec{64, policy};
        ts::GpuHistogram gpu = ts::runHistogramMethod(*method, image, kLogMin, kLogMax, spec);
        ref::Histogram cpu = ref::buildHistogram(image.rgba.data(), image.width, image.height, kLogMin, kLogMax, 64,
                                                 ts::toReference(policy));
        ASSERT_EQ(cpu.counters[hd::kCounterNaN], special.nan);  // the generator and the reference agree
        ASSERT_EQ(cpu.counters[hd::kCounterInf], special.inf);
        ASSERT_EQ(cpu.counters[hd::kCounterNonPositive], special.nonPositive);
        ts::expectHistogramsEqual(gpu, cpu, method->fillsCounters(), GetParam() + " with special pixels");
    }
}

// Random HDR values land anywhere, also within ulps of bin edges: every method bins bit-exactly
// like the CPU reference (shared/HostDevice.h's hdBinOf), so the counts are equal, not just close.
TEST_P(HistogramMethods, RandomHdrImagesMatchTheReferenceExactly)
{
    std::uint32_t seed = 100;
    for (std::uint32_t bins : {16u, 256u, 4096u}) {
        if (!supports(bins))
            continue;
        for (post::OutOfRange policy : {post::OutOfRange::Clamp, post::OutOfRange::Separate}) {
            ts::TestImage image = ts::randomHdrImage(199, 97, -14.0f, 14.0f, seed++);
            ts::addSpecialPixels(image, 97);
            post::HistogramSpec spec{bins, policy};
            // The range cuts the image's range so that both ends see out-of-range pixels.
            ts::GpuHistogram gpu = ts::runHistogramMethod(*method, image, -10.0f, 12.0f, spec);
            const ref::Histogram cpu = ref::buildHistogram(image.rgba.data(), image.width, image.height, -10.0f, 12.0f,
                                                           bins, ts::toReference(policy));
            ts::expectHistogramsEqual(gpu, cpu, method->fillsCounters(),
                                      GetParam() + " random, bins " + std::to_string(bins));
        }
    }
}

// Methods that also make Ward's foveal image in the same pass: the histogram stays exact and the
// foveal image is the CPU box filter, at awkward sizes and grids (1x1, thin, odd, blocks of one pixel
// and of thousands; bin counts 1..4096).
TEST_P(HistogramMethods, FovealImageInTheSamePassKeepsTheHistogramExact)
{
    if (!method->fillsFovealImage())
        GTEST_SKIP() << GetParam() << " does not make a foveal image";
    struct Case
    {
        int width, height, gridWidth, gridHeight;
        std::uint32_t bins;
    };
    std::uint32_t seed = 300;
    for (const Case c : {Case{1, 1, 1, 1, 1}, Case{17, 3, 2, 2, 7}, Case{333, 1, 42, 1, 256},
                         Case{257, 199, 118, 66, 100}, Case{1021, 767, 42, 23, 4096}, Case{640, 360, 2, 2, 1024}}) {
        if (!supports(c.bins))
            continue;
        ts::TestImage image = ts::randomHdrImage(c.width, c.height, -14.0f, 14.0f, seed++);
        ts::addSpecialPixels(image, 13);
        const std::string what = GetParam() + " " + std::to_string(c.width) + "x" + std::to_string(c.height) +
                                 " grid " + std::to_string(c.gridWidth) + "x" + std::to_string(c.gridHeight);
        gl::Texture fovealImage("test.foveal", GL_RGBA32F, glm::ivec2(c.gridWidth, c.gridHeight));
        post::FovealTarget foveal{&fovealImage, {c.gridWidth, c.gridHeight}, 2.0f, false};
        post::HistogramSpec spec{c.bins, post::OutOfRange::Separate};
        ts::GpuHistogram gpu = ts::runHistogramMethod(*method, image, -10.0f, 12.0f, spec, &foveal);
        ASSERT_TRUE(foveal.written) << what;
        const ref::Histogram cpu = ref::buildHistogram(image.rgba.data(), image.width, image.height, -10.0f, 12.0f,
                                                       c.bins, ref::OutOfRange::Separate);
        ts::expectHistogramsEqual(gpu, cpu, method->fillsCounters(), what);
        const auto samples = fovealImage.readRgbaFloat();
        const ref::FovealGrid grid{c.gridWidth, c.gridHeight};
        const auto expected = ref::wardFovealLuminance(image.rgba.data(), c.width, c.height, grid, 2.0);
        ASSERT_EQ(samples.size(), expected.size() * 4) << what;
        for (std::size_t i = 0; i < expected.size(); ++i) {
            const double L = hd::hdLuminance(samples[i * 4], samples[i * 4 + 1], samples[i * 4 + 2]);
            if (std::isnan(expected[i]))
                ASSERT_TRUE(std::isnan(L)) << what << " sample " << i;
            else
                ASSERT_NEAR(L, expected[i], 1e-5 * std::abs(expected[i]) + 1e-30) << what << " sample " << i;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Registry,
                         HistogramMethods,
                         ::testing::ValuesIn(ts::allHistogramMethodIds()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                             std::string name;
                             for (char c : info.param)
                                 name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                             return name;
                         });

TEST(HistogramRegistry, ListsComputeSharedAtomicWithUniqueIds)
{
    const auto ids = ts::allHistogramMethodIds();
    EXPECT_NE(std::find(ids.begin(), ids.end(), "compute-shared-atomic"), ids.end());
    std::set<std::string> unique(ids.begin(), ids.end());
    EXPECT_EQ(unique.size(), ids.size());
    EXPECT_EQ(post::createHistogramMethod("no-such-method"), nullptr);
}

}  // namespace
