// The passes around the histogram against their CPU references: the automatic range (GPU
// reduction, guards, smoothing), the box downsample at odd sizes and the tone-curve apply pass.
#include "post/AutoRange.h"
#include "post/Downsample.h"
#include "post/LuminanceUnits.h"
#include "post/TonemapApply.h"
#include "reference/Histogram.h"
#include "reference/Image.h"
#include "support/GlTestEnvironment.h"
#include "support/HistogramTestSupport.h"

#include <glm/vec3.hpp>

#include <bit>
#include <cmath>
#include <limits>

namespace ts = testing_support;

namespace {

class ImagePasses : public ts::GlTest
{
protected:
    post::PassContext context() { return {ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps(), 0}; }

    std::pair<float, float> rangeOf(const gl::Buffer& params)
    {
        auto words = params.readAll<std::uint32_t>(2);
        return {std::bit_cast<float>(words[0]), std::bit_cast<float>(words[1])};
    }

    std::pair<float, float> runAutoRange(post::AutoRange& autoRange,
                                         gl::Buffer& params,
                                         const ts::TestImage& image,
                                         bool reset,
                                         double dt = 0.0,
                                         float speed = 0.0f)
    {
        gl::Texture texture = ts::uploadImage(image);
        post::PassContext ctx = context();
        post::writeHistogramShape(params, post::HistogramSpec{}, {image.width, image.height});  // the weights
        autoRange.update(ctx, {texture, {image.width, image.height}}, params, dt, speed, reset, -10.0f, 20.0f);
        return rangeOf(params);
    }
};

TEST_F(ImagePasses, AutoRangeEqualsTheCpuFiniteMinMax)
{
    post::AutoRange autoRange;
    gl::Buffer params = post::createHistogramParamsBuffer("test.params");
    params.clearUint(0u);
    for (glm::ivec2 size : {glm::ivec2(3, 2), glm::ivec2(257, 131), glm::ivec2(640, 480)}) {
        ts::TestImage image = ts::randomHdrImage(size.x, size.y, -9.0f, 13.0f, std::uint32_t(size.x));
        ts::addSpecialPixels(image, 3);
        auto expected = ref::autoRange(image.rgba.data(), image.width, image.height);
        ASSERT_TRUE(expected);
        auto [logMin, logMax] = runAutoRange(autoRange, params, image, true);
        EXPECT_NEAR(logMin, expected->logMin, 1e-5) << size.x << "x" << size.y;
        EXPECT_NEAR(logMax, expected->logMax, 1e-5) << size.x << "x" << size.y;
    }
}

TEST_F(ImagePasses, AutoRangeGuardsEmptyAndUniformFrames)
{
    post::AutoRange autoRange;
    gl::Buffer params = post::createHistogramParamsBuffer("test.params");
    params.clearUint(0u);
    ts::TestImage empty = ts::binCentreImage(9, 4, 0.0f, 1.0f, 1, 1);
    for (std::size_t i = 0; i < empty.pixelCount(); ++i)
        empty.setGrey(i, i % 2 ? 0.0f : std::numeric_limits<float>::quiet_NaN());
    // No range yet and nothing finite: the fallback range.
    auto [fallbackMin, fallbackMax] = runAutoRange(autoRange, params, empty, true);
    EXPECT_EQ(fallbackMin, -10.0f);
    EXPECT_EQ(fallbackMax, 20.0f);
    // A uniform frame is widened around its value.
    ts::TestImage uniform = ts::binCentreImage(5, 5, 2.0f, 4.0f, 1, 1);  // every pixel at log2 L = 3
    auto [uniformMin, uniformMax] = runAutoRange(autoRange, params, uniform, true);
    EXPECT_NEAR(uniformMin, 3.0f - post::AutoRange::kMinimumSpan / 2, 1e-5);
    EXPECT_NEAR(uniformMax, 3.0f + post::AutoRange::kMinimumSpan / 2, 1e-5);
    EXPECT_LT(uniformMin, uniformMax);
    // An empty frame afterwards keeps the current range.
    auto [keptMin, keptMax] = runAutoRange(autoRange, params, empty, false, 0.1, 4.0f);
    EXPECT_EQ(keptMin, uniformMin);
    EXPECT_EQ(keptMax, uniformMax);
}

TEST_F(ImagePasses, AutoRangeSmoothsExponentiallyOverTime)
{
    post::AutoRange autoRange;
    gl::Buffer params = post::createHistogramParamsBuffer("test.params");
    params.clearUint(0u);
    ts::TestImage first = ts::randomHdrImage(64, 32, -4.0f, 4.0f, 1);
    ts::TestImage second = ts::randomHdrImage(64, 32, 2.0f, 10.0f, 2);
    auto a = ref::autoRange(first.rgba.data(), 64, 32);
    auto b = ref::autoRange(second.rgba.data(), 64, 32);
    runAutoRange(autoRange, params, first, true);
    const double dt = 0.1;
    const float speed = 4.0f;
    auto [logMin, logMax] = runAutoRange(autoRange, params, second, false, dt, speed);
    const double blend = 1.0 - std::exp(-speed * dt);
    EXPECT_NEAR(logMin, a->logMin + (b->logMin - a->logMin) * blend, 1e-4);
    EXPECT_NEAR(logMax, a->logMax + (b->logMax - a->logMax) * blend, 1e-4);
}

TEST_F(ImagePasses, DownsampleMatchesTheCpuBoxFilterAtOddSizes)
{
    post::Downsample downsample;
    for (glm::ivec3 c : {glm::ivec3(1, 1, 8), glm::ivec3(13, 7, 2), glm::ivec3(13, 7, 4), glm::ivec3(257, 131, 4),
                         glm::ivec3(100, 3, 8), glm::ivec3(9, 9, 2)}) {
        ts::TestImage image = ts::randomHdrImage(c.x, c.y, -8.0f, 8.0f, std::uint32_t(c.x * 31 + c.z));
        ts::addSpecialPixels(image, 23);
        gl::Texture texture = ts::uploadImage(image);
        post::PassContext ctx = context();
        post::ImageInput out = downsample.run(ctx, {texture, {c.x, c.y}}, c.z);
        ref::RgbaImage expected = ref::boxDownsample(image.rgba.data(), c.x, c.y, c.z);
        ASSERT_EQ(out.size, glm::ivec2(expected.width, expected.height));
        const std::vector<float> actual = downsample.texture().readRgbaFloat();
        ASSERT_EQ(actual.size(), expected.pixels.size());
        // Tolerance: relative 1e-6 (the same sums in the same order; the GPU division may round differently).
        int bad = 0;
        for (std::size_t i = 0; i < actual.size(); ++i) {
            float e = expected.pixels[i], a = actual[i];
            bool same = (std::isnan(e) && std::isnan(a)) || e == a || std::abs(a - e) <= 1e-6f * std::abs(e);
            if (!same && bad++ < 3)
                ADD_FAILURE() << c.x << "x" << c.y << "/" << c.z << " value " << i << ": gpu " << a << " cpu " << e;
        }
    }
    post::PassContext ctx = context();
    EXPECT_THROW(downsample.run(ctx, {downsample.texture(), {1, 1}}, 3), std::invalid_argument);
}

std::vector<float> makeCurve(int channels, float mode, int samples)
{
    std::vector<float> curve(hd::kCurveBufferWords, 0.0f);
    curve[hd::kCurveLogMin] = -6.0f;
    curve[hd::kCurveLogMax] = 8.0f;
    curve[hd::kCurveSampleCount] = float(samples);
    curve[hd::kCurveChannels] = float(channels);
    curve[hd::kCurveMode] = mode;
    curve[hd::kCurveScale] = 0.35f;
    for (int c = 0; c < channels; ++c)
        for (int i = 0; i < samples; ++i) {
            // A smooth S-shaped curve, different per channel.
            double x = (i + 0.5) / samples;
            curve[hd::kCurveHeaderWords + std::size_t(c) * hd::kMaxCurveSamples + std::size_t(i)] =
                float(std::pow(x, 1.0 + 0.3 * c) * (1.1 - 0.05 * c));
        }
    return curve;
}

// With the default luminance definition and with a Radiance picture's (EXPOSURE 2: 179/2 cd/m^2 per
// unit, Radiance's weights), whose per-channel lookups are at channel x 89.5.
TEST_F(ImagePasses, ApplyPassMatchesTheCpuReferenceWithinOneLsb)
{
    post::TonemapApply apply;
    ts::TestImage image = ts::randomHdrImage(131, 67, -9.0f, 11.0f, 3);
    ts::addSpecialPixels(image, 13);
    gl::Texture texture = ts::uploadImage(image);
    gl::Texture output("test.display", GL_RGBA8, {image.width, image.height});
    gl::Buffer curveBuffer = post::createCurveBuffer("test.curve");
    gl::Buffer params = post::createHistogramParamsBuffer("test.params");
    image::RadianceHeader radiance;
    radiance.exposure = 2.0;
    for (const post::LuminanceUnits& units :
         {post::LuminanceUnits{}, post::resolveLuminanceUnits(post::UnitsMode::Auto, 0.0, radiance)}) {
        post::HistogramSpec spec;
        spec.luminance = units.effectiveWeights();
        spec.cdPerUnit = float(units.cdPerUnit());
        post::writeHistogramParams(params, -8.0f, 12.0f, spec, {image.width, image.height});
        for (auto [channels, mode, samples] :
             {std::tuple(1, hd::kCurveModeLut, 256), std::tuple(3, hd::kCurveModeLut, 1000),
              std::tuple(1, hd::kCurveModeLinearScale, 1), std::tuple(1, hd::kCurveModeLut, 1)}) {
            const std::vector<float> curve = makeCurve(channels, mode, samples);
            curveBuffer.update<float>(curve);
            post::PassContext ctx = context();
            apply.apply(ctx, {texture, {image.width, image.height}}, params, curveBuffer, output);
            const std::vector<unsigned char> actual = output.readRgba8();
            const std::vector<std::uint8_t> expected = ref::applyCurve(
                image.rgba.data(), image.width, image.height, curve.data(), nullptr, spec.luminance, spec.cdPerUnit);
            ASSERT_EQ(actual.size(), expected.size());
            int worst = 0;
            for (std::size_t i = 0; i < actual.size(); ++i)
                worst = std::max(worst, std::abs(int(actual[i]) - int(expected[i])));
            EXPECT_LE(worst, 1) << units.describe() << ": " << channels << " channels, mode " << mode << ", " << samples
                                << " samples";
            if (units.cdPerUnit() != 1.0)
                EXPECT_NE(expected, ref::applyCurve(image.rgba.data(), image.width, image.height, curve.data()))
                    << "the units must change the picture";
        }
    }
}

TEST_F(ImagePasses, ApplyPassGivesBlackOrWhiteForSpecialPixels)
{
    post::TonemapApply apply;
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    ts::TestImage image = ts::binCentreImage(6, 1, 0.0f, 1.0f, 1, 1);
    image.setGrey(0, nan);
    image.setGrey(1, inf);
    image.setGrey(2, -inf);
    image.setGrey(3, -1.0f);
    image.setGrey(4, 0.0f);
    image.setRgb(5, inf, 1.0f, 1.0f);
    gl::Texture texture = ts::uploadImage(image);
    gl::Texture output("test.display", GL_RGBA8, {6, 1});
    gl::Buffer curveBuffer = post::createCurveBuffer("test.curve");
    std::vector<float> curve = makeCurve(1, hd::kCurveModeLut, 64);
    curve[hd::kCurveHeaderWords + 63] = 1.0f;  // the top of the curve is white
    curveBuffer.update<float>(curve);
    gl::Buffer params = post::createHistogramParamsBuffer("test.params");
    post::writeHistogramParams(params, -8.0f, 12.0f, post::HistogramSpec{}, {6, 1});
    post::PassContext ctx = context();
    apply.apply(ctx, {texture, {6, 1}}, params, curveBuffer, output);
    const std::vector<unsigned char> rgba = output.readRgba8();
    const std::vector<unsigned char> expected{0, 0, 0, 255, 255, 255, 255, 255, 0,   0,   0,   255,
                                              0, 0, 0, 255, 0,   0,   0,   255, 255, 255, 255, 255};
    EXPECT_EQ(rgba, expected);
}

TEST_F(ImagePasses, ApplyPassWithLocalMeanMatchesTheCpuReference)
{
    // A hand-made local mean map (the CUDA summed-area table makes it on GPU machines) so the
    // local-adaptation lookup and the view are checked here on any GL implementation.
    post::TonemapApply apply;
    const int width = 97, height = 41;
    ts::TestImage image = ts::randomHdrImage(width, height, -8.0f, 12.0f, 21);
    ts::addSpecialPixels(image, 7);
    gl::Texture texture = ts::uploadImage(image);
    gl::Texture output("test.display", GL_RGBA8, {width, height});
    std::vector<float> curve = makeCurve(1, hd::kCurveModeLut, 512);
    curve[hd::kCurveLocalBlend] = 0.7f;
    curve[hd::kCurveLocalReference] = 2.0f;
    gl::Buffer curveBuffer = post::createCurveBuffer("test.curve");
    curveBuffer.update<float>(curve);
    const std::vector<float> localMean = ref::localMeanLog2(image.rgba.data(), width, height, 3, -8.0f, 12.0f);
    gl::Buffer localBuffer = gl::Buffer::fromSpan<float>("test.local-mean", localMean);
    gl::Buffer params = post::createHistogramParamsBuffer("test.params");
    post::writeHistogramParams(params, -8.0f, 12.0f, post::HistogramSpec{}, {width, height});

    post::PassContext ctx = context();
    const post::LocalMeanInput local{localBuffer, false};
    apply.apply(ctx, {texture, {width, height}}, params, curveBuffer, output, &local);
    const std::vector<unsigned char> actual = output.readRgba8();
    const std::vector<std::uint8_t> expected =
        ref::applyCurve(image.rgba.data(), width, height, curve.data(), localMean.data());
    const std::vector<std::uint8_t> global = ref::applyCurve(image.rgba.data(), width, height, curve.data());
    int worst = 0;
    for (std::size_t i = 0; i < actual.size(); ++i)
        worst = std::max(worst, std::abs(int(actual[i]) - int(expected[i])));
    EXPECT_LE(worst, 1);
    EXPECT_NE(expected, global) << "the local shift must change the image";

    const post::LocalMeanInput view{localBuffer, true};
    apply.apply(ctx, {texture, {width, height}}, params, curveBuffer, output, &view);
    const std::vector<unsigned char> grey = output.readRgba8();
    for (std::size_t i = 0; i < localMean.size(); i += 37) {
        const double expectedGrey = ref::encodeSrgb((localMean[i] + 8.0) / 20.0) * 255.0;
        EXPECT_NEAR(grey[i * 4], expectedGrey, 1.0) << "pixel " << i;
        EXPECT_EQ(grey[i * 4], grey[i * 4 + 1]);
    }
}

}  // namespace
