// The false-colour EV view and the pixel probe through PostPipeline on the test context, against
// their CPU references: probe values at known texels (luminance and log2 L bit for bit, the bin
// exactly as hd::hdBinOf bins it, the display value against ref::evaluateCurve of the curve buffer
// read back, the shown bytes) at awkward sizes and corners; the false-colour image against
// ref::falseColour byte for byte, NaN/Inf/negative/zero pixels included, with and without the legend strip.
#include "post/PostPipeline.h"
#include "reference/FalseColourRef.h"
#include "reference/Image.h"
#include "support/GlTestEnvironment.h"
#include "support/HistogramTestSupport.h"
#include "verify/PipelineVerify.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

namespace ts = testing_support;

namespace {

class ViewProbe : public ts::GlTest
{
protected:
    void SetUp() override
    {
        pipeline = std::make_unique<post::PostPipeline>(ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps());
    }

    void configure(std::uint32_t bins, float logMin, float logMax, post::OutOfRange policy)
    {
        post::PipelineSettings settings = pipeline->settings();
        settings.spec.binCount = bins;
        settings.spec.outOfRange = policy;
        settings.rangeMode = post::RangeMode::Manual;
        settings.logMin = logMin;
        settings.logMax = logMax;
        pipeline->applySettings(settings);
    }

    /// Float equality that also holds for two NaNs (of any payload: NVIDIA's arithmetic returns its
    /// canonical NaN where the CPU propagates the operand's).
    static bool same(float a, float b)
    {
        return (std::isnan(a) && std::isnan(b)) || std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b);
    }

    std::unique_ptr<post::PostPipeline> pipeline;
};

TEST_F(ViewProbe, ProbeMatchesTheCpuReferenceAtKnownTexels)
{
    const glm::ivec2 sizes[] = {{1, 1}, {7, 5}, {257, 131}};
    const post::OutOfRange policies[] = {post::OutOfRange::Clamp, post::OutOfRange::Separate};
    for (const glm::ivec2 size : sizes) {
        for (const post::OutOfRange policy : policies) {
            SCOPED_TRACE(testing::Message()
                         << size.x << "x" << size.y << (policy == post::OutOfRange::Clamp ? " clamp" : " separate"));
            configure(64, -4.0f, 9.0f, policy);
            // Wider than the range, so some pixels fall below and above it.
            ts::TestImage image = ts::randomHdrImage(size.x, size.y, -7.0f, 12.0f, std::uint32_t(size.x + 3));
            ts::addSpecialPixels(image, 3);
            gl::Texture texture = ts::uploadImage(image);
            std::vector<glm::ivec2> texels = {{0, 0},          {size.x - 1, size.y - 1}, {size.x - 1, 0},
                                              {0, size.y - 1}, {size.x / 2, size.y / 2}, {1, 0},
                                              {-1, 0},         {size.x, size.y - 1}};
            std::vector<glm::ivec2> points;  // from the top-left; the test texture is bottom-up
            for (const glm::ivec2 t : texels)
                points.push_back({t.x, size.y - 1 - t.y});
            pipeline->setProbePoints(points);
            pipeline->run({texture, size}, 1.0 / 60.0, 60.0f);
            glFinish();
            pipeline->pollProbe();
            const std::optional<post::ProbeSnapshot> probe = pipeline->latestProbe();
            ASSERT_TRUE(probe);
            ASSERT_EQ(probe->samples.size(), texels.size());

            const auto curve = pipeline->curveBuffer().readAll<float>(hd::kCurveBufferWords);
            const auto shown = pipeline->toneMappedTexture().readRgba8();
            for (std::size_t i = 0; i < texels.size(); ++i) {
                const post::ProbeSample& s = probe->samples[i];
                const glm::ivec2 t = texels[i];
                SCOPED_TRACE(testing::Message() << "texel " << t.x << "," << t.y);
                EXPECT_EQ(s.texel, t);
                EXPECT_EQ(s.frameSize, size);
                const bool inside = t.x >= 0 && t.y >= 0 && t.x < size.x && t.y < size.y;
                ASSERT_EQ(s.inside, inside);
                if (!inside)
                    continue;
                const std::size_t pixel = std::size_t(t.y) * std::size_t(size.x) + std::size_t(t.x);
                const float* rgba = image.rgba.data() + pixel * 4;
                EXPECT_TRUE(same(s.rgb.x, rgba[0]) && same(s.rgb.y, rgba[1]) && same(s.rgb.z, rgba[2]));
                const float L = hd::hdLuminance(rgba[0], rgba[1], rgba[2]);
                EXPECT_TRUE(same(s.luminance, L)) << s.luminance << " vs " << L;
                const bool logValid = std::isfinite(L) && L >= hd::kMinLuminance;
                ASSERT_EQ(s.logValid, logValid);
                if (logValid)
                    EXPECT_EQ(s.log2Luminance, hd::hdLog2(L));
                const std::uint32_t outOfRange =
                    policy == post::OutOfRange::Separate ? hd::kOutOfRangeSeparate : hd::kOutOfRangeClamp;
                EXPECT_EQ(s.bin, hd::hdBinOf(L, -4.0f, 9.0f, 64u, outOfRange));
                EXPECT_EQ(s.binCount, 64u);
                EXPECT_EQ(s.logMin, -4.0f);
                EXPECT_EQ(s.logMax, 9.0f);
                const double display = (!std::isnan(L) && L > 0.0f) ? ref::evaluateCurve(curve.data(), 0, L) : 0.0;
                EXPECT_NEAR(s.displayLuminance, display, 1e-4 + 1e-4 * display);
                for (int c = 0; c < 4; ++c)
                    EXPECT_EQ(s.shown[std::size_t(c)], shown[pixel * 4 + std::size_t(c)]) << "channel " << c;
                EXPECT_EQ(s.band, hd::hdFalseColourBand(L, -4.0f, 9.0f));
                EXPECT_EQ(s.falseColour, hd::hdFalseColourOf(L, -4.0f, 9.0f));
            }
        }
    }
}

TEST_F(ViewProbe, ProbeIsPendingUntilItsFirstReadbackAndCostsNothingWithoutProbes)
{
    configure(256, -10.0f, 20.0f, post::OutOfRange::Clamp);
    ts::TestImage image = ts::randomHdrImage(9, 4, -3.0f, 5.0f, 2);
    gl::Texture texture = ts::uploadImage(image);
    EXPECT_FALSE(pipeline->latestProbe());
    pipeline->run({texture, {9, 4}}, 1.0 / 60.0, 60.0f);
    glFinish();
    pipeline->pollProbe();
    EXPECT_FALSE(pipeline->latestProbe()) << "no probes set: no records";
    pipeline->setProbePoints({{8, 0}});
    pipeline->run({texture, {9, 4}}, 1.0 / 60.0, 60.0f);
    glFinish();
    pipeline->pollProbe();
    ASSERT_TRUE(pipeline->latestProbe());
    EXPECT_EQ(pipeline->latestProbe()->samples.at(0).texel, glm::ivec2(8, 3));
    EXPECT_EQ(pipeline->latestProbe()->samples.at(0).topLeft(), glm::ivec2(8, 0));
    // A top-down frame (an image uploaded as read): row 0 is the top, the strip at the last rows.
    pipeline->setTopDownRows(true);
    pipeline->run({texture, {9, 4}}, 1.0 / 60.0, 60.0f);
    glFinish();
    pipeline->pollProbe();
    EXPECT_EQ(pipeline->latestProbe()->samples.at(0).texel, glm::ivec2(8, 0));
    EXPECT_EQ(pipeline->latestProbe()->samples.at(0).topLeft(), glm::ivec2(8, 0));
}

TEST_F(ViewProbe, FalseColourMatchesTheCpuRampIncludingSpecialPixels)
{
    for (const glm::ivec2 size : {glm::ivec2(1, 1), glm::ivec2(33, 17), glm::ivec2(160, 90)}) {
        SCOPED_TRACE(testing::Message() << size.x << "x" << size.y);
        configure(128, -3.5f, 8.25f, post::OutOfRange::Clamp);
        ts::TestImage image = ts::randomHdrImage(size.x, size.y, -6.0f, 11.0f, std::uint32_t(size.y));
        ts::addSpecialPixels(image, 5);
        if (size.x * size.y == 1)
            image.setRgb(0, std::numeric_limits<float>::quiet_NaN(), 1.0f, 1.0f);
        gl::Texture texture = ts::uploadImage(image);
        pipeline->setViewMode(post::ViewMode::FalseColour, false);
        const gl::Texture& shown = pipeline->run({texture, size}, 1.0 / 60.0, 60.0f);
        EXPECT_EQ(&shown, &pipeline->outputTexture());
        const auto actual = shown.readRgba8();
        const auto expected = ref::falseColour(image.rgba.data(), size.x, size.y, -3.5f, 8.25f);
        ASSERT_EQ(actual.size(), expected.size());
        std::size_t differing = 0, magenta = 0, invalid = 0;
        for (std::size_t i = 0; i < actual.size(); i += 4) {
            differing += actual[i] != expected[i] || actual[i + 1] != expected[i + 1] ||
                         actual[i + 2] != expected[i + 2] || actual[i + 3] != expected[i + 3];
            magenta += actual[i] == 255 && actual[i + 1] == 0 && actual[i + 2] == 255;
            const float* p = image.rgba.data() + i;
            const float L = hd::hdLuminance(p[0], p[1], p[2]);
            invalid += std::isnan(L) || std::isinf(L) || L < 0.0f;
        }
        EXPECT_EQ(differing, 0u);
        // NaN, +-Inf and negative pixels are magenta (zero is black, under the range).
        EXPECT_GT(invalid, 0u);
        EXPECT_EQ(magenta, invalid);
        // The tone-mapped image is still there, and different.
        EXPECT_NE(pipeline->toneMappedTexture().readRgba8(), actual);
        EXPECT_TRUE(verify::verifyPipeline(*pipeline).ok);
        pipeline->setViewMode(post::ViewMode::ToneMapped);
        const gl::Texture& toneMapped = pipeline->run({texture, size}, 1.0 / 60.0, 60.0f);
        EXPECT_EQ(&toneMapped, &pipeline->toneMappedTexture());
    }
}

TEST_F(ViewProbe, LegendStripCoversOnlyTheBottomRows)
{
    const glm::ivec2 size{320, 180};
    configure(256, -10.0f, 20.0f, post::OutOfRange::Clamp);
    ts::TestImage image = ts::randomHdrImage(size.x, size.y, -9.0f, 19.0f, 11);
    gl::Texture texture = ts::uploadImage(image);
    pipeline->setViewMode(post::ViewMode::FalseColour, true);
    const auto actual = pipeline->run({texture, size}, 1.0 / 60.0, 60.0f).readRgba8();
    const auto expected = ref::falseColour(image.rgba.data(), size.x, size.y, -10.0f, 20.0f);
    const int rows = hd::hdFalseColourLegendRows(size.y);
    ASSERT_GT(rows, 0);
    const std::size_t stripBytes = std::size_t(rows) * std::size_t(size.x) * 4;
    EXPECT_TRUE(std::equal(actual.begin() + std::ptrdiff_t(stripBytes), actual.end(),
                           expected.begin() + std::ptrdiff_t(stripBytes)));
    // The strip's first column is band 0's colour or a label; its far right the last band's.
    const std::vector<post::FalseColourBand> bands = post::falseColourBands(-10.0f, 20.0f);
    ASSERT_EQ(bands.size(), 30u);
    const std::size_t rightEdge = (std::size_t(size.x) - 1) * 4;  // row 0, last column
    const std::uint32_t last = bands.back().rgb;
    EXPECT_EQ(actual[rightEdge], std::uint8_t(last >> 16));
    EXPECT_EQ(actual[rightEdge + 1], std::uint8_t(last >> 8));
    EXPECT_EQ(actual[rightEdge + 2], std::uint8_t(last));
    EXPECT_FALSE(std::equal(actual.begin(), actual.begin() + std::ptrdiff_t(stripBytes), expected.begin()));

    // A top-down frame: the strip moves to the texture's last rows, the rest is the ramp.
    pipeline->setTopDownRows(true);
    const auto topDown = pipeline->run({texture, size}, 1.0 / 60.0, 60.0f).readRgba8();
    const std::ptrdiff_t imageBytes = std::ptrdiff_t(actual.size() - stripBytes);
    EXPECT_TRUE(std::equal(topDown.begin(), topDown.begin() + imageBytes, expected.begin()));
    EXPECT_FALSE(std::equal(topDown.begin() + imageBytes, topDown.end(), expected.begin() + imageBytes));
}

}  // namespace
