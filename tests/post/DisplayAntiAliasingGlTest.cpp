// DisplayAntiAliasingGlTest.cpp: the display image's FXAA-style pass (post/DisplayAntiAliasing)
// against its CPU reference (reference/FxaaRef) byte for byte at awkward sizes (1x1, one row, one
// column, odd, non-power-of-two) on noise, edges, lines and checkers; flat and gently graded images
// pass unchanged; a slanted hard edge comes out closer to its true pixel coverage than the aliased
// input; and in the pipeline: on by default for scene frames (a scene depth), off on request, never
// on still images, with the tone-mapped image before it left as it was (--verify still exact).
#include "post/DisplayAntiAliasing.h"
#include "post/PostPipeline.h"
#include "reference/FxaaRef.h"
#include "support/GlTestEnvironment.h"
#include "support/HistogramTestSupport.h"
#include "verify/PipelineVerify.h"

#include <cmath>
#include <cstdlib>
#include <random>

namespace ts = testing_support;

namespace {

using Rgba8 = std::vector<std::uint8_t>;

Rgba8 noise(glm::ivec2 size, std::uint32_t seed)
{
    std::mt19937 random(seed);
    std::uniform_int_distribution<int> byte(0, 255);
    Rgba8 pixels(std::size_t(size.x) * std::size_t(size.y) * 4u);
    for (std::uint8_t& value : pixels)
        value = std::uint8_t(byte(random));
    return pixels;
}

/// A dark-and-light image from `light(x, y)`, slightly tinted so the channels differ.
template <typename Light>
Rgba8 twoTone(glm::ivec2 size, Light light)
{
    Rgba8 pixels(std::size_t(size.x) * std::size_t(size.y) * 4u);
    for (int y = 0; y < size.y; ++y)
        for (int x = 0; x < size.x; ++x) {
            std::uint8_t* p = &pixels[(std::size_t(y) * std::size_t(size.x) + std::size_t(x)) * 4u];
            const bool on = light(x, y);
            p[0] = on ? 240 : 20;
            p[1] = on ? 230 : 30;
            p[2] = on ? 200 : 60;
            p[3] = 255;
        }
    return pixels;
}

/// The half-plane y < slope * x + offset (pixel centres), and its exact coverage per pixel.
bool belowLine(float x, float y, float slope, float offset)
{
    return y < slope * x + offset;
}

class DisplayAntiAliasing : public ts::GlTest
{
protected:
    Rgba8 run(const Rgba8& pixels, glm::ivec2 size)
    {
        gl::Texture input("test.aa-input", GL_RGBA8, size);
        input.upload(GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
        gl::Texture output("test.aa-output", GL_RGBA8, size);
        post::PassContext ctx{ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps(), 0};
        mPass.run(ctx, input, output);
        return output.readRgba8();
    }

    post::DisplayAntiAliasing mPass;
};

TEST(DisplayAntiAliasingNames, ModesRoundTrip)
{
    for (post::AntiAliasing mode : {post::AntiAliasing::Off, post::AntiAliasing::Fxaa})
        EXPECT_EQ(post::parseAntiAliasing(post::antiAliasingName(mode)), mode);
    EXPECT_FALSE(post::parseAntiAliasing("msaa"));
    EXPECT_EQ(ref::fxaaLuma(255, 255, 255), 65280);
}

TEST_F(DisplayAntiAliasing, EqualsTheCpuReferenceByteForByteAtAwkwardSizes)
{
    const glm::ivec2 sizes[] = {{1, 1}, {1, 9}, {9, 1}, {2, 2}, {3, 5}, {37, 23}, {130, 17}, {61, 67}};
    for (const glm::ivec2 size : sizes) {
        SCOPED_TRACE(testing::Message() << size.x << "x" << size.y);
        const std::vector<std::pair<const char*, Rgba8>> images = {
            {"noise", noise(size, std::uint32_t(size.x * 131 + size.y))},
            {"slanted edge", twoTone(size, [](int x, int y) { return belowLine(float(x), float(y), 0.3f, 1.2f); })},
            {"steep edge", twoTone(size, [](int x, int y) { return belowLine(float(x), float(y), 3.7f, -2.0f); })},
            {"thin line",
             twoTone(size, [](int x, int y) { return std::abs(float(y) - 0.45f * float(x) - 1.0f) < 0.5f; })},
            {"checkers", twoTone(size, [](int x, int y) { return (x + y) % 2 == 0; })},
            {"disc", twoTone(size,
                             [&](int x, int y) {
                                 const float dx = float(x) - 0.5f * float(size.x), dy = float(y) - 0.4f * float(size.y);
                                 return dx * dx + dy * dy < 0.1f * float(size.x * size.x + size.y * size.y);
                             })},
        };
        for (const auto& [name, pixels] : images)
            EXPECT_EQ(run(pixels, size), ref::fxaa(pixels, size.x, size.y)) << name;
    }
}

TEST_F(DisplayAntiAliasing, FlatAndGentlyGradedImagesPassUnchanged)
{
    const glm::ivec2 size(45, 31);
    Rgba8 ramp(std::size_t(size.x) * std::size_t(size.y) * 4u);
    for (int y = 0; y < size.y; ++y)
        for (int x = 0; x < size.x; ++x) {
            std::uint8_t* p = &ramp[(std::size_t(y) * std::size_t(size.x) + std::size_t(x)) * 4u];
            p[0] = std::uint8_t(3 * x + 2 * y);  // steps of a few levels: below the edge threshold
            p[1] = std::uint8_t(2 * x + 3 * y);
            p[2] = std::uint8_t(100 + x);
            p[3] = 255;
        }
    EXPECT_EQ(run(ramp, size), ramp);
    const Rgba8 flat = twoTone(size, [](int, int) { return true; });
    EXPECT_EQ(run(flat, size), flat);
}

TEST_F(DisplayAntiAliasing, SlantedEdgeComesOutCloserToItsCoverage)
{
    // A hard black/white edge at a shallow slope, sampled at pixel centres (a rasteriser's staircase),
    // against each pixel's true coverage (16x16 samples): the pass must take the staircase a good
    // part of the way to the coverage, and leave pixels away from the edge alone.
    const glm::ivec2 size(96, 40);
    const float slope = 0.18f, offset = 12.3f;
    Rgba8 aliased(std::size_t(size.x) * std::size_t(size.y) * 4u);
    std::vector<double> coverage(std::size_t(size.x) * std::size_t(size.y));
    for (int y = 0; y < size.y; ++y)
        for (int x = 0; x < size.x; ++x) {
            const std::size_t i = std::size_t(y) * std::size_t(size.x) + std::size_t(x);
            int inside = 0;
            for (int sy = 0; sy < 16; ++sy)
                for (int sx = 0; sx < 16; ++sx)
                    inside += belowLine(float(x) + (float(sx) + 0.5f) / 16.0f, float(y) + (float(sy) + 0.5f) / 16.0f,
                                        slope, offset);
            coverage[i] = double(inside) / 256.0;
            const std::uint8_t value = belowLine(float(x) + 0.5f, float(y) + 0.5f, slope, offset) ? 255 : 0;
            aliased[i * 4] = aliased[i * 4 + 1] = aliased[i * 4 + 2] = value;
            aliased[i * 4 + 3] = 255;
        }
    const Rgba8 smoothed = run(aliased, size);
    ASSERT_EQ(smoothed, ref::fxaa(aliased, size.x, size.y));
    double errorBefore = 0.0, errorAfter = 0.0;
    int changedAwayFromEdge = 0;
    for (std::size_t i = 0; i < coverage.size(); ++i) {
        errorBefore += std::abs(double(aliased[i * 4 + 1]) / 255.0 - coverage[i]);
        errorAfter += std::abs(double(smoothed[i * 4 + 1]) / 255.0 - coverage[i]);
        const int y = int(i) / size.x, x = int(i) % size.x;
        if (std::abs(float(y) + 0.5f - (slope * (float(x) + 0.5f) + offset)) > 2.5f)
            changedAwayFromEdge += smoothed[i * 4 + 1] != aliased[i * 4 + 1];
    }
    std::printf("[ fxaa     ] slanted edge: |display - coverage| summed %.2f before, %.2f after\n", errorBefore,
                errorAfter);
    EXPECT_LT(errorAfter, 0.6 * errorBefore);
    EXPECT_EQ(changedAwayFromEdge, 0);
}

TEST_F(DisplayAntiAliasing, RefusesMismatchedTextures)
{
    gl::Texture a("test.aa-a", GL_RGBA8, {8, 8}), b("test.aa-b", GL_RGBA8, {8, 9}), f("test.aa-f", GL_RGBA16F, {8, 8});
    post::PassContext ctx{ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps(), 0};
    EXPECT_THROW(mPass.run(ctx, a, b), std::invalid_argument);
    EXPECT_THROW(mPass.run(ctx, a, f), std::invalid_argument);
    EXPECT_THROW(mPass.run(ctx, a, a), std::invalid_argument);
}

TEST_F(DisplayAntiAliasing, RunsInThePipelineOnSceneFramesOnly)
{
    // A bright disc on a dark ground as the HDR frame: its rim aliases in the display image.
    const glm::ivec2 size(73, 41);
    ts::TestImage image;
    image.width = size.x;
    image.height = size.y;
    image.rgba.resize(image.pixelCount() * 4u);
    for (int y = 0; y < size.y; ++y)
        for (int x = 0; x < size.x; ++x) {
            const float dx = float(x) - 30.0f, dy = float(y) - 19.0f;
            image.setGrey(std::size_t(y) * std::size_t(size.x) + std::size_t(x),
                          dx * dx + dy * dy < 180.0f ? 500.0f : 0.5f);
        }
    gl::Texture frame = ts::uploadImage(image);
    gl::Texture depth("test.aa-depth", GL_R32F, size);
    post::PostPipeline pipeline(ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps());
    ASSERT_EQ(pipeline.settings().antiAliasing, post::AntiAliasing::Fxaa) << "anti-aliasing is on by default";

    // A still image (no scene depth): shown as tone-mapped.
    const gl::Texture* shown = &pipeline.run({frame, size}, 1.0 / 60.0, 60.0f);
    EXPECT_FALSE(pipeline.antiAliased());
    EXPECT_EQ(shown, &pipeline.toneMappedTexture());

    // A scene frame: the display image is the tone-mapped one through the pass.
    pipeline.setSceneDepth(&depth);
    shown = &pipeline.run({frame, size}, 1.0 / 60.0, 60.0f);
    EXPECT_TRUE(pipeline.antiAliased());
    EXPECT_EQ(shown, &pipeline.outputTexture());
    const Rgba8 toneMapped = pipeline.toneMappedTexture().readRgba8();
    const Rgba8 display = shown->readRgba8();
    EXPECT_NE(display, toneMapped) << "the disc's rim was not smoothed";
    EXPECT_EQ(display, ref::fxaa(toneMapped, size.x, size.y));
    verify::VerifyReport report = verify::verifyPipeline(pipeline);  // compares the tone-mapped image: still exact
    EXPECT_TRUE(report.ok) << report.text;

    // Off on request.
    post::PipelineSettings settings = pipeline.settings();
    settings.antiAliasing = post::AntiAliasing::Off;
    EXPECT_TRUE(pipeline.applySettings(settings));
    shown = &pipeline.run({frame, size}, 1.0 / 60.0, 60.0f);
    EXPECT_FALSE(pipeline.antiAliased());
    EXPECT_EQ(shown, &pipeline.toneMappedTexture());
    EXPECT_EQ(&pipeline.outputTexture(), &pipeline.toneMappedTexture());
    pipeline.setSceneDepth(nullptr);
}

}  // namespace
