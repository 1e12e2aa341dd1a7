// Every registered histogram method that runs here (OpenGL and CPU backends; CUDA methods have their
// own tests), against the CPU reference. Extends tests/post/HistogramMethodsTest (which covers the
// OpenGL methods at 1x1, 3x5, 257x131, 1024x768 with both policies, special pixels and random
// images) with:
//  - the full size x bin-count matrix: 1x1, 3x5, 64x64, 257x131, 1024x768 x 1, 16, 100, 256, 1024,
//    4096 bins, exact on bin-centre images (the policy alternates with the bin count);
//  - a uniform image (every pixel in one bin) and images entirely below / above the range under
//    both policies;
//  - special pixels and random images for the methods that test skips (cpu-readback).
// Methods with one full-screen pass (or gather) per bin (Green, Kubias, Fluck) run the cases with
// pixels x bins <= kPerBinPassBudget only: 1024x768 at 4096 bins would be 3.2e9 fragment-bin
// evaluations, tens of seconds per method on llvmpipe. Their subset: every bin count at 1x1, 3x5 and
// 64x64, 257x131 up to 256 bins, 1024x768 up to 16 bins; the skipped cases are printed.
#include "methods/MethodTestSupport.h"
#include "post/histogram/HistogramMethod.h"
#include "reference/Histogram.h"
#include "support/GlTestEnvironment.h"

#include <iostream>
#include <set>

namespace ts = testing_support;
namespace mt = methods_test;

namespace {

constexpr float kLogMin = -6.0f;
constexpr float kLogMax = 9.0f;

/// Registry methods the tests here can run: available, not CUDA.
std::vector<std::string> runnableMethodIds()
{
    std::vector<std::string> ids;
    for (const post::HistogramMethodEntry& entry : post::histogramMethodRegistry()) {
        auto method = entry.create();
        post::Availability availability = method->availability(ts::testGpuCaps());
        // A fused method bins a scene frame as it is lit, not a texture: tests/app/FusedHistogramGlTest.cpp.
        if (method->backend() != post::Backend::Cuda && availability.available && !method->needsFusedProducer())
            ids.emplace_back(entry.id);
    }
    return ids;
}

class MethodMatrix : public ts::GlTest
{
protected:
    void runSize(int width, int height)
    {
        const std::vector<std::string> ids = runnableMethodIds();
        std::vector<std::unique_ptr<post::HistogramMethod>> methods;
        for (const std::string& id : ids)
            methods.push_back(mt::createForTest(id));
        std::uint32_t seed = std::uint32_t(width * 7919 + height);
        int index = 0;
        for (std::uint32_t bins : {1u, 16u, 100u, 256u, 1024u, 4096u}) {
            const post::OutOfRange policy = index++ % 2 == 0 ? post::OutOfRange::Clamp : post::OutOfRange::Separate;
            const ts::TestImage image = ts::binCentreImage(width, height, kLogMin, kLogMax, bins, seed++, 7);
            const gl::Texture texture = ts::uploadImage(image, "methods-test.matrix-image");
            const ref::Histogram cpu =
                ref::buildHistogram(image.rgba.data(), width, height, kLogMin, kLogMax, bins, ts::toReference(policy));
            for (std::size_t m = 0; m < methods.size(); ++m) {
                const std::string what = ids[m] + " " + std::to_string(width) + "x" + std::to_string(height) +
                                         " bins " + std::to_string(bins) +
                                         (policy == post::OutOfRange::Separate ? " separate" : " clamp");
                if (bins > methods[m]->maxBins(ts::testGpuCaps()) ||
                    !mt::withinTestBudget(ids[m], width, height, bins)) {
                    std::cout << "[ skipped  ] " << what << " (pixels x bins over the per-bin-pass test budget)\n";
                    continue;
                }
                post::HistogramSpec spec{bins, policy};
                ts::GpuHistogram gpu = mt::runOnTexture(*methods[m], texture, {width, height}, kLogMin, kLogMax, spec);
                ts::expectHistogramsEqual(gpu, cpu, methods[m]->fillsCounters(), what);
            }
        }
    }
};

TEST_F(MethodMatrix, ExactAt1x1)
{
    runSize(1, 1);
}
TEST_F(MethodMatrix, ExactAt3x5)
{
    runSize(3, 5);
}
TEST_F(MethodMatrix, ExactAt64x64)
{
    runSize(64, 64);
}
TEST_F(MethodMatrix, ExactAt257x131)
{
    runSize(257, 131);
}
TEST_F(MethodMatrix, ExactAt1024x768)
{
    runSize(1024, 768);
}

class EveryMethod : public ts::GlTest, public ::testing::WithParamInterface<std::string>
{
protected:
    void SetUp() override
    {
        method = mt::createForTest(GetParam());
        ASSERT_TRUE(method);
        if (method->backend() == post::Backend::Cuda)
            GTEST_SKIP() << GetParam() << " is a CUDA method (tests/cuda)";
        post::Availability availability = method->availability(ts::testGpuCaps());
        if (!availability.available)
            GTEST_SKIP() << GetParam() << " is unavailable here: " << availability.reason;
        if (method->needsFusedProducer())
            GTEST_SKIP() << GetParam() << " " << post::kNeedsFusedProducer << " (tests/app/FusedHistogramGlTest.cpp)";
    }

    ts::GpuHistogram run(const ts::TestImage& image, float logMin, float logMax, const post::HistogramSpec& spec)
    {
        gl::Texture texture = ts::uploadImage(image);
        return mt::runOnTexture(*method, texture, {image.width, image.height}, logMin, logMax, spec);
    }

    std::unique_ptr<post::HistogramMethod> method;
};

TEST_P(EveryMethod, UniformImageFillsOneBin)
{
    constexpr std::uint32_t kBins = 256;
    constexpr std::uint32_t kBin = 37;
    ts::TestImage image = ts::binCentreImage(64, 64, kLogMin, kLogMax, 1, 0);
    const double centre = kLogMin + (kBin + 0.5) * (kLogMax - kLogMin) / kBins;
    const double weights = double(hd::kLumaR) + double(hd::kLumaG) + double(hd::kLumaB);
    for (std::size_t i = 0; i < image.pixelCount(); ++i)
        image.setGrey(i, float(std::exp2(centre) / weights));
    for (post::OutOfRange policy : {post::OutOfRange::Clamp, post::OutOfRange::Separate}) {
        ts::GpuHistogram gpu = run(image, kLogMin, kLogMax, {kBins, policy});
        for (std::uint32_t bin = 0; bin < kBins; ++bin)
            ASSERT_EQ(gpu.bins[bin], bin == kBin ? image.pixelCount() : 0u) << GetParam() << " bin " << bin;
        if (method->fillsCounters())
            for (std::size_t c = 0; c < hd::kCounterCount; ++c)
                EXPECT_EQ(gpu.counters[c], 0u) << GetParam() << " counter " << c;
    }
}

TEST_P(EveryMethod, ImagesEntirelyOutOfRangeFollowThePolicy)
{
    constexpr std::uint32_t kBins = 64;
    for (bool below : {true, false}) {
        ts::TestImage image = ts::binCentreImage(17, 9, kLogMin, kLogMax, 1, 0);
        for (std::size_t i = 0; i < image.pixelCount(); ++i)
            image.setGrey(i, float(std::exp2(below ? kLogMin - 3.0 - double(i % 5) : kLogMax + 3.0 + double(i % 5))));
        const std::uint32_t n = std::uint32_t(image.pixelCount());
        const char* side = below ? "below" : "above";

        ts::GpuHistogram clamped = run(image, kLogMin, kLogMax, {kBins, post::OutOfRange::Clamp});
        for (std::uint32_t bin = 0; bin < kBins; ++bin) {
            const bool end = below ? bin == 0 : bin == kBins - 1;
            ASSERT_EQ(clamped.bins[bin], end ? n : 0u) << GetParam() << " all " << side << ", clamp, bin " << bin;
        }
        if (method->fillsCounters()) {
            EXPECT_EQ(clamped.counters[hd::kCounterBelow], 0u) << GetParam();
            EXPECT_EQ(clamped.counters[hd::kCounterAbove], 0u) << GetParam();
        }

        ts::GpuHistogram separate = run(image, kLogMin, kLogMax, {kBins, post::OutOfRange::Separate});
        for (std::uint32_t bin = 0; bin < kBins; ++bin)
            ASSERT_EQ(separate.bins[bin], 0u) << GetParam() << " all " << side << ", separate, bin " << bin;
        if (method->fillsCounters()) {
            EXPECT_EQ(separate.counters[hd::kCounterBelow], below ? n : 0u) << GetParam() << " " << side;
            EXPECT_EQ(separate.counters[hd::kCounterAbove], below ? 0u : n) << GetParam() << " " << side;
        }
    }
}

TEST_P(EveryMethod, SpecialPixelsAndRandomImagesWhereTheOpenGlSuiteSkips)
{
    if (method->backend() == post::Backend::OpenGL)
        GTEST_SKIP() << "covered for OpenGL methods by tests/post/HistogramMethodsTest";
    for (post::OutOfRange policy : {post::OutOfRange::Clamp, post::OutOfRange::Separate}) {
        ts::TestImage image = ts::binCentreImage(61, 37, -4.0f, 4.0f, 64, 5, 11);
        ts::addSpecialPixels(image, 5);
        post::HistogramSpec spec{64, policy};
        ts::GpuHistogram gpu = run(image, -4.0f, 4.0f, spec);
        ref::Histogram cpu =
            ref::buildHistogram(image.rgba.data(), image.width, image.height, -4.0f, 4.0f, 64, ts::toReference(policy));
        ts::expectHistogramsEqual(gpu, cpu, method->fillsCounters(), GetParam() + " special pixels");

        ts::TestImage noisy = ts::randomHdrImage(199, 97, -14.0f, 14.0f, 77);
        ts::addSpecialPixels(noisy, 97);
        post::HistogramSpec wide{4096, policy};
        ts::GpuHistogram close = run(noisy, -10.0f, 12.0f, wide);
        if (method->exactBinning()) {
            const ref::Histogram exact = ref::buildHistogram(noisy.rgba.data(), noisy.width, noisy.height, -10.0f,
                                                             12.0f, 4096, ts::toReference(policy));
            ts::expectHistogramsEqual(close, exact, method->fillsCounters(), GetParam() + " random");
        } else {
            ts::expectHistogramsClose(close, noisy, -10.0f, 12.0f, wide, method->fillsCounters(),
                                      GetParam() + " random (inexact option)");
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Registry,
                         EveryMethod,
                         ::testing::ValuesIn(ts::allHistogramMethodIds()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return mt::testNameOf(info.param); });

TEST(PaperMethodRegistry, ListsThePapersMethodsInOrder)
{
    const std::vector<std::string> ids = ts::allHistogramMethodIds();
    const std::vector<std::string> papers = {"cpu-readback", "green-occlusion", "kubias-depth", "fluck-tiles",
                                             "scatter-blend"};
    auto first = std::find(ids.begin(), ids.end(), papers.front());
    ASSERT_NE(first, ids.end());
    ASSERT_GE(ids.end() - first, std::ptrdiff_t(papers.size()));
    EXPECT_EQ(std::vector<std::string>(first, first + std::ptrdiff_t(papers.size())), papers);
    for (const char* id : {"compute-global-atomic", "compute-replicated", "compute-subgroup"})
        EXPECT_NE(std::find(ids.begin(), ids.end(), id), ids.end()) << id;
}

}  // namespace
