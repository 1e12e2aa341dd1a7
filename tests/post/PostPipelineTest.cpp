// PostPipeline end to end on the test context: the stage outputs against the CPU references
// (histogram, CDF, apply pass), downsampled input, automatic range, settings refusals and clamps,
// the asynchronous snapshot, verify(), every registered tone operator, and the one-pass mode.
#include "post/PostPipeline.h"
#include "post/TonemapApply.h"
#include "post/tonemap/ToneOperator.h"
#include "reference/Histogram.h"
#include "reference/Image.h"
#include "reference/Scan.h"
#include "support/GlTestEnvironment.h"
#include "support/HistogramTestSupport.h"
#include "verify/PipelineVerify.h"

#include <bit>
#include <cmath>

namespace ts = testing_support;

namespace {

/// A fixed LUT curve written from the CPU (test-only; the real operators compute theirs on the GPU).
class TestCurveOperator final : public post::ToneOperator
{
public:
    std::string_view id() const override { return "test-curve"; }
    std::string_view label() const override { return "Test curve"; }
    std::string_view description() const override { return "fixed LUT for tests"; }
    void computeCurve(post::PassContext&, const post::ToneInputs&, gl::Buffer& curve) override
    {
        curve.update<float>(words());
        ++calls;
    }
    static std::vector<float> words()
    {
        std::vector<float> curve(hd::kCurveBufferWords, 0.0f);
        curve[hd::kCurveLogMin] = -8.0f;
        curve[hd::kCurveLogMax] = 10.0f;
        curve[hd::kCurveSampleCount] = 128.0f;
        curve[hd::kCurveChannels] = 1.0f;
        curve[hd::kCurveMode] = hd::kCurveModeLut;
        for (int i = 0; i < 128; ++i)
            curve[hd::kCurveHeaderWords + std::size_t(i)] = float(std::sqrt((i + 0.5) / 128.0));
        return curve;
    }
    int calls = 0;
};

class Pipeline : public ts::GlTest
{
protected:
    void SetUp() override
    {
        pipeline = std::make_unique<post::PostPipeline>(ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps());
        auto op = std::make_unique<TestCurveOperator>();
        testOperator = op.get();
        pipeline->setToneOperator(std::move(op));
    }

    post::PipelineSettings manual(std::uint32_t bins, float logMin, float logMax)
    {
        post::PipelineSettings settings = pipeline->settings();
        settings.spec.binCount = bins;
        settings.rangeMode = post::RangeMode::Manual;
        settings.logMin = logMin;
        settings.logMax = logMax;
        return settings;
    }

    std::unique_ptr<post::PostPipeline> pipeline;
    TestCurveOperator* testOperator = nullptr;
};

TEST_F(Pipeline, StageOutputsMatchTheCpuReferences)
{
    ASSERT_TRUE(pipeline->applySettings(manual(100, -6.0f, 9.0f)));
    ts::TestImage image = ts::binCentreImage(97, 55, -6.0f, 9.0f, 100, 4, 9);
    ts::addSpecialPixels(image, 17);
    gl::Texture texture = ts::uploadImage(image);
    const gl::Texture& display = pipeline->run({texture, {97, 55}}, 1.0 / 60.0, 60.0f);
    EXPECT_EQ(display.size(), glm::ivec2(97, 55));
    EXPECT_EQ(testOperator->calls, 1);

    const ref::Histogram cpu = ref::buildHistogram(image.rgba.data(), 97, 55, -6.0f, 9.0f, 100, ref::OutOfRange::Clamp);
    const auto words = pipeline->histogramBuffer().readAll<std::uint32_t>(hd::kHistogramBufferWords);
    EXPECT_EQ(std::vector<std::uint32_t>(words.begin(), words.begin() + 100), cpu.bins);
    EXPECT_EQ(words[hd::kHistogramCountersOffset + hd::kCounterNaN], cpu.counters[hd::kCounterNaN]);
    EXPECT_EQ(pipeline->cdfBuffer().readAll<std::uint32_t>(100), ref::inclusiveScan(cpu.bins));

    const auto expected = ref::applyCurve(image.rgba.data(), 97, 55, TestCurveOperator::words().data());
    const auto actual = display.readRgba8();
    int worst = 0;
    for (std::size_t i = 0; i < actual.size(); ++i)
        worst = std::max(worst, std::abs(int(actual[i]) - int(expected[i])));
    EXPECT_LE(worst, 1);

    verify::VerifyReport report = verify::verifyPipeline(*pipeline);
    EXPECT_TRUE(report.ok) << report.text;
    EXPECT_EQ(report.l1Difference, 0u) << report.text;
    EXPECT_EQ(report.gpuTotal, 97u * 55u);
}

TEST_F(Pipeline, DownsampledInputAndAutomaticRange)
{
    post::PipelineSettings settings = manual(256, -10.0f, 20.0f);
    settings.downsample = 4;
    settings.rangeMode = post::RangeMode::Auto;
    ASSERT_TRUE(pipeline->applySettings(settings));
    ts::TestImage image = ts::randomHdrImage(203, 101, -7.0f, 12.0f, 8);
    ts::addSpecialPixels(image, 41);
    gl::Texture texture = ts::uploadImage(image);
    pipeline->run({texture, {203, 101}}, 1.0 / 60.0, 60.0f);

    const ref::RgbaImage reduced = ref::boxDownsample(image.rgba.data(), 203, 101, 4);
    const auto range = ref::autoRange(reduced.pixels.data(), reduced.width, reduced.height);
    ASSERT_TRUE(range);
    const auto params = pipeline->paramsBuffer().readAll<std::uint32_t>(hd::kHistogramParamsWords);
    EXPECT_NEAR(std::bit_cast<float>(params[hd::kParamLogMin]), range->logMin, 1e-5);
    EXPECT_NEAR(std::bit_cast<float>(params[hd::kParamLogMax]), range->logMax, 1e-5);
    EXPECT_EQ(params[hd::kParamWidth], 51u);
    EXPECT_EQ(params[hd::kParamHeight], 26u);
    verify::VerifyReport report = verify::verifyPipeline(*pipeline);
    EXPECT_TRUE(report.ok) << report.text;
    EXPECT_EQ(report.gpuTotal, 51u * 26u);
}

TEST_F(Pipeline, RefusesUnknownOrInvalidSettingsAndClampsBins)
{
    const post::PipelineSettings before = pipeline->settings();
    post::PipelineSettings settings = before;
    settings.histogramMethod = "no-such-method";
    settings.logMin = 5.0f;
    settings.logMax = 5.0f;
    settings.downsample = 3;
    std::string message;
    EXPECT_FALSE(pipeline->applySettings(settings, &message));
    EXPECT_NE(message.find("unknown histogram method 'no-such-method'"), std::string::npos) << message;
    EXPECT_NE(message.find("invalid range"), std::string::npos) << message;
    EXPECT_NE(message.find("downsample"), std::string::npos) << message;
    EXPECT_EQ(pipeline->settings().histogramMethod, before.histogramMethod);
    EXPECT_EQ(pipeline->settings().downsample, before.downsample);

    settings = before;
    settings.spec.binCount = 100000;
    pipeline->applySettings(settings, &message);
    EXPECT_EQ(pipeline->settings().spec.binCount, hd::kMaxHistogramBins);
    EXPECT_NE(pipeline->notice().find("4096"), std::string::npos) << pipeline->notice();
    settings.spec.binCount = 0;
    pipeline->applySettings(settings);
    EXPECT_EQ(pipeline->settings().spec.binCount, 1u);

    // Every unavailable method of the registry is refused with its reason.
    for (const post::HistogramMethodEntry& entry : post::histogramMethodRegistry()) {
        auto method = entry.create();
        post::Availability availability = method->availability(ts::testGpuCaps());
        if (availability.available)
            continue;
        settings = pipeline->settings();
        settings.histogramMethod = std::string(entry.id);
        pipeline->applySettings(settings, &message);
        EXPECT_NE(pipeline->settings().histogramMethod, entry.id);
        EXPECT_NE(message.find(availability.reason), std::string::npos) << message;
    }
}

TEST_F(Pipeline, SnapshotArrivesAsynchronously)
{
    ASSERT_TRUE(pipeline->applySettings(manual(64, -6.0f, 9.0f)));
    ts::TestImage image = ts::binCentreImage(40, 30, -6.0f, 9.0f, 64, 9);
    gl::Texture texture = ts::uploadImage(image);
    const ref::Histogram cpu = ref::buildHistogram(image.rgba.data(), 40, 30, -6.0f, 9.0f, 64, ref::OutOfRange::Clamp);
    std::optional<post::HistogramSnapshot> snapshot;
    for (int frame = 0; frame < 10 && !snapshot; ++frame) {
        pipeline->run({texture, {40, 30}}, 1.0 / 60.0, 60.0f);
        glFinish();  // lets the fences signal; the pipeline itself never waits
        snapshot = pipeline->latestSnapshot();
    }
    ASSERT_TRUE(snapshot);
    EXPECT_EQ(snapshot->binCount, 64u);
    EXPECT_EQ(snapshot->bins, cpu.bins);
    EXPECT_FLOAT_EQ(snapshot->logMin, -6.0f);
    EXPECT_FLOAT_EQ(snapshot->logMax, 9.0f);
    EXPECT_EQ(snapshot->curve.size(), 128u);
    ASSERT_EQ(snapshot->displayBins.size(), 64u);
    std::uint64_t displayTotal = 0;
    for (std::uint32_t count : snapshot->displayBins)
        displayTotal += count;
    EXPECT_EQ(displayTotal, 40u * 30u);
}

TEST_F(Pipeline, EveryRegisteredToneOperatorRunsAndVerifies)
{
    if (post::toneOperatorRegistry().empty())
        GTEST_SKIP() << "no tone operator registered yet";
    ts::TestImage image = ts::randomHdrImage(64, 48, -6.0f, 10.0f, 12);
    ts::addSpecialPixels(image, 29);
    gl::Texture texture = ts::uploadImage(image);
    for (const post::ToneOperatorEntry& entry : post::toneOperatorRegistry()) {
        post::PipelineSettings settings = pipeline->settings();
        settings.toneOperator = std::string(entry.id);
        settings.rangeMode = post::RangeMode::Auto;
        std::string message;
        pipeline->applySettings(settings, &message);
        ASSERT_EQ(pipeline->toneOperator().id(), entry.id) << message;
        for (int frame = 0; frame < 3; ++frame)
            pipeline->run({texture, {64, 48}}, 1.0 / 60.0, 60.0f);
        verify::VerifyReport report = verify::verifyPipeline(*pipeline);
        EXPECT_TRUE(report.ok) << entry.id << "\n" << report.text;
    }
}

// The one-pass mode (tonemap.one_pass): from the second frame on, the histogram pass makes the
// picture with the previous frame's curve while it bins the frame: the histogram is the frame's own
// (exact), the picture is the apply pass's bytes for that earlier curve, and verify checks both. A
// frame that cannot go in one pass (the first, a downsampled histogram) runs two passes. Every
// operator, at an odd size, with the frame changing between the two frames.
TEST_F(Pipeline, OnePassAppliesThePreviousFramesCurveAndBinsTheFrameExactly)
{
    ts::TestImage first = ts::randomHdrImage(83, 47, -6.0f, 10.0f, 31);
    ts::TestImage second = ts::randomHdrImage(83, 47, -3.0f, 13.0f, 32);
    ts::addSpecialPixels(second, 23);
    gl::Texture firstTexture = ts::uploadImage(first);
    gl::Texture secondTexture = ts::uploadImage(second);
    for (const post::ToneOperatorEntry& entry : post::toneOperatorRegistry()) {
        SCOPED_TRACE(std::string(entry.id));
        post::PipelineSettings settings = manual(256, -8.0f, 15.0f);
        settings.toneOperator = std::string(entry.id);
        settings.onePass = true;
        std::string message;
        ASSERT_TRUE(pipeline->applySettings(settings, &message)) << message;
        pipeline->run({firstTexture, {83, 47}}, 1.0 / 60.0, 60.0f);
        EXPECT_FALSE(pipeline->lastFrameOnePass()) << "no curve yet: two passes";
        const auto firstCurve = pipeline->curveBuffer().readAll<float>(hd::kCurveBufferWords);

        const gl::Texture& display = pipeline->run({secondTexture, {83, 47}}, 1.0 / 60.0, 60.0f);
        if (pipeline->toneOperator().traits().localTiles) {
            // The local operators' apply blends tile curves the histogram pass cannot: two passes always.
            EXPECT_FALSE(pipeline->lastFrameOnePass());
            continue;
        }
        ASSERT_TRUE(pipeline->lastFrameOnePass());
        EXPECT_EQ(pipeline->appliedCurveBuffer().readAll<float>(hd::kCurveBufferWords), firstCurve);
        const ref::Histogram cpu =
            ref::buildHistogram(second.rgba.data(), 83, 47, -8.0f, 15.0f, 256, ref::OutOfRange::Clamp);
        const auto words = pipeline->histogramBuffer().readAll<std::uint32_t>(hd::kHistogramBufferWords);
        EXPECT_EQ(std::vector<std::uint32_t>(words.begin(), words.begin() + 256), cpu.bins);
        // The same bytes as the apply pass makes from that curve.
        gl::Buffer curve = post::createCurveBuffer("test.first-curve");
        curve.update<float>(firstCurve);
        gl::Texture applied("test.applied", GL_RGBA8, {83, 47});
        post::TonemapApply apply;
        post::PassContext ctx{ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps(), 0};
        apply.apply(ctx, {secondTexture, {83, 47}}, pipeline->paramsBuffer(), curve, applied, nullptr);
        EXPECT_EQ(pipeline->toneMappedTexture().readRgba8(), applied.readRgba8());
        (void)display;
        verify::VerifyReport report = verify::verifyPipeline(*pipeline);
        EXPECT_TRUE(report.ok) << report.text;
        EXPECT_NE(report.text.find("one pass"), std::string::npos) << report.text;
    }
    // A downsampled histogram reads another image: two passes.
    post::PipelineSettings settings = manual(256, -8.0f, 15.0f);
    settings.onePass = true;
    settings.downsample = 2;
    ASSERT_TRUE(pipeline->applySettings(settings));
    pipeline->run({firstTexture, {83, 47}}, 1.0 / 60.0, 60.0f);
    pipeline->run({secondTexture, {83, 47}}, 1.0 / 60.0, 60.0f);
    EXPECT_FALSE(pipeline->lastFrameOnePass());
}

}  // namespace
