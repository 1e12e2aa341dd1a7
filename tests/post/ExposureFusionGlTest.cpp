// The fusion local exposure's GL passes (post::ExposureFusion) against its CPU reference
// (ref::exposureFusion) at awkward sizes, and the properties the design promises: a constant frame gives
// a constant adjustment (within float rounding: the per-pixel blend of the exposures), contrast scales of 1 give none
// and a pyramid that reconstructs the frame, tiny frames with 16 levels asked for, NaN/Inf/negative pixels that do not
// reach the adjustment.
//
// Tolerance: none. Both sides compute every value with shared/ExposureFusion.h's functions (ExactFloat.h's
// log2/exp2/exp/divide built from correctly rounded adds and multiplies) in the same order, with
// `precise` in GLSL and -ffp-contract=off on the CPU, from the same input floats (RGBA16F frames are
// made of values that are already halves), so the adjustment maps are expected bit for bit.
#include "post/localexposure/ExposureFusion.h"
#include "reference/ExposureFusion.h"
#include "support/GlTestEnvironment.h"
#include "support/HistogramTestSupport.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

namespace ts = testing_support;

namespace {

struct Frame
{
    glm::ivec2 size{0};
    std::vector<float> rgba;
};

/// An HDR scene: a dim wall (about -5 EV, slow waves), a window 8 EV brighter, grain; deterministic.
Frame sceneFrame(glm::ivec2 size, unsigned seed, bool halves)
{
    Frame f{size, std::vector<float>(std::size_t(size.x) * std::size_t(size.y) * 4)};
    std::mt19937 rng(seed);
    std::normal_distribution<float> grain(0.0f, 0.3f);
    for (int y = 0; y < size.y; ++y)
        for (int x = 0; x < size.x; ++x) {
            const float u = (float(x) + 0.5f) / float(size.x), v = (float(y) + 0.5f) / float(size.y);
            float ev = -5.0f + 2.0f * std::sin(9.0f * u) * std::cos(6.0f * v) + grain(rng);
            if (u > 0.55f && u < 0.85f && v > 0.2f && v < 0.6f)
                ev += 8.0f;
            const float luminance = 0.18f * std::exp2(ev);
            float* p = &f.rgba[(std::size_t(y) * std::size_t(size.x) + std::size_t(x)) * 4];
            p[0] = luminance * 1.1f;
            p[1] = luminance;
            p[2] = luminance * 0.8f;
            p[3] = 1.0f;
            if (halves)
                for (int c = 0; c < 4; ++c)
                    p[c] = hd::hdRoundToHalf(p[c]);
        }
    return f;
}

post::FusionSettings unrealTemplate()
{
    post::FusionSettings s;
    s.highlightContrastScale = 0.8f;  // Unreal's new-project templates
    s.shadowContrastScale = 0.8f;
    return s;
}

class ExposureFusionGlTest : public ts::GlTest
{
protected:
    std::vector<float> runGpu(const Frame& frame, GLenum format, float exposureLog2, const post::FusionSettings& s)
    {
        gl::Texture texture("test.fusion-frame", format, frame.size);
        texture.upload(GL_RGBA, GL_FLOAT, frame.rgba.data());
        post::PassContext ctx{ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps(), 0};
        fusion.run(ctx, texture, frame.size, exposureLog2, s);
        const std::vector<float> rgba = fusion.exposureLog2Texture().readRgbaFloat();
        std::vector<float> r(rgba.size() / 4);
        for (std::size_t i = 0; i < r.size(); ++i)
            r[i] = rgba[i * 4];
        return r;
    }

    /// Runs both and expects the same bits; returns whether they matched.
    bool matchesReference(const Frame& frame, GLenum format, float exposureLog2, const post::FusionSettings& s)
    {
        const ref::FusionResult expected =
            ref::exposureFusion(frame.rgba.data(), frame.size.x, frame.size.y, exposureLog2, s);
        const std::vector<float> result = runGpu(frame, format, exposureLog2, s);
        const std::string where = std::to_string(frame.size.x) + "x" + std::to_string(frame.size.y) + " reduction " +
                                  std::to_string(s.reduction) + " levels " + std::to_string(expected.levels);
        EXPECT_EQ(fusion.mapSize(), glm::ivec2(expected.width, expected.height)) << where;
        EXPECT_EQ(fusion.levels(), expected.levels) << where;
        EXPECT_EQ(result.size(), expected.adjustment.size()) << where;
        std::size_t differing = 0, first = 0;
        float worst = 0.0f;
        for (std::size_t i = 0; i < std::min(result.size(), expected.adjustment.size()); ++i)
            if (!(result[i] == expected.adjustment[i])) {
                first = differing == 0 ? i : first;
                ++differing;
                worst = std::max(worst, std::abs(result[i] - expected.adjustment[i]));
            }
        EXPECT_EQ(differing, 0u) << where << ": first at texel " << first << " (gpu " << result[first] << ", cpu "
                                 << expected.adjustment[first] << "), largest difference " << worst << " EV";
        return !::testing::Test::HasFailure();
    }

    post::ExposureFusion fusion;
};

TEST_F(ExposureFusionGlTest, EqualsTheReferenceAtAwkwardSizes)
{
    const post::FusionSettings s = unrealTemplate();
    for (glm::ivec2 size : {glm::ivec2{1, 1}, glm::ivec2{3, 5}, glm::ivec2{7, 13}, glm::ivec2{37, 23},
                            glm::ivec2{130, 67}, glm::ivec2{257, 129}})
        if (!matchesReference(sceneFrame(size, 1u, false), GL_RGBA32F, 0.0f, s))
            return;
}

TEST_F(ExposureFusionGlTest, EqualsTheReferenceOnAHalfFloatFrameAtEveryReduction)
{
    post::FusionSettings s;
    s.highlightContrastScale = 0.3f;
    s.shadowContrastScale = 0.6f;
    s.middleGreyBias = 0.5f;
    for (int reduction : {1, 2, 3, 4, 8, 16}) {
        s.reduction = reduction;
        if (!matchesReference(sceneFrame({101, 61}, 2u, true), GL_RGBA16F, 1.25f, s))
            return;
    }
}

TEST_F(ExposureFusionGlTest, EqualsTheReferenceAt1080p)
{
    matchesReference(sceneFrame({1920, 1080}, 3u, true), GL_RGBA16F, -0.5f, unrealTemplate());
}

TEST_F(ExposureFusionGlTest, TinyFramesTakeEveryLevelCountWithoutFailing)
{
    post::FusionSettings s = unrealTemplate();
    s.reduction = 1;
    for (int maxLevels : {1, 2, 16, 99})
        for (glm::ivec2 size :
             {glm::ivec2{1, 1}, glm::ivec2{1, 7}, glm::ivec2{2, 2}, glm::ivec2{5, 1}, glm::ivec2{3, 3}}) {
            s.maxLevels = maxLevels;
            if (!matchesReference(sceneFrame(size, 4u, false), GL_RGBA32F, 0.0f, s))
                return;
            EXPECT_LE(fusion.levels(), std::max(1, std::min(maxLevels, 16)));
        }
}

TEST_F(ExposureFusionGlTest, AConstantFrameGivesTheConstantPerPixelBlend)
{
    // A constant frame has no detail at any level: the collapse is the per-pixel blend of the three
    // exposures by their normalised weights, computed here in double from the paper's formulas.
    post::FusionSettings s;
    s.highlightContrastScale = 0.5f;
    s.shadowContrastScale = 0.25f;
    for (float ev : {-6.0f, -1.0f, 0.0f, 2.5f}) {
        Frame frame{{45, 29}, {}};
        const float luminance = 0.18f * std::exp2(ev);
        for (int i = 0; i < frame.size.x * frame.size.y; ++i)
            frame.rgba.insert(frame.rgba.end(), {luminance, luminance, luminance, 1.0f});
        const std::vector<float> result = runGpu(frame, GL_RGBA32F, 0.0f, s);
        double sum = 0.0, weights = 0.0;
        for (double bracket : {-3.0, 0.0, 4.5}) {
            const double d = 1.0 / (1.0 + std::exp2(-(double(ev) + bracket)));
            const double w = std::exp(-(d - 0.5) * (d - 0.5) / (2.0 * 0.2 * 0.2));
            sum += w * d;
            weights += w;
        }
        const double fused = sum / weights;
        const double expected = std::log2(fused / (1.0 - fused)) - double(ev);
        for (float value : result)  // constant within the filters' float rounding
            ASSERT_NEAR(value, result.front(), 1e-5) << "ev " << ev;
        EXPECT_NEAR(result.front(), expected, 2e-5) << "ev " << ev;
        if (ev < -0.5f)
            EXPECT_GT(result.front(), 0.1f) << "dark regions are brightened";
        if (ev > 0.5f)
            EXPECT_LT(result.front(), -0.1f) << "bright regions are darkened";
    }
}

TEST_F(ExposureFusionGlTest, ContrastScalesOfOneChangeNothing)
{
    // The three exposures are one: the pyramid must give the frame's own display value back (the
    // collapse inverts the decomposition), and the adjustment is 0.
    const Frame frame = sceneFrame({83, 47}, 5u, false);
    const post::FusionSettings s;  // 1.0, 1.0: Unreal's defaults
    const ref::FusionResult expected = ref::exposureFusion(frame.rgba.data(), frame.size.x, frame.size.y, 0.0f, s);
    for (std::size_t i = 0; i < expected.fused.size(); ++i)
        ASSERT_NEAR(expected.fused[i], hd::hdFusionEncode(expected.baseEv[i]), 2e-6) << "texel " << i;
    const std::vector<float> result = runGpu(frame, GL_RGBA32F, 0.0f, s);
    for (float value : result)
        ASSERT_EQ(value, 0.0f);
}

TEST_F(ExposureFusionGlTest, BadPixelsDoNotReachTheAdjustment)
{
    Frame frame = sceneFrame({64, 48}, 6u, false);
    const float bad[] = {std::numeric_limits<float>::quiet_NaN(),
                         std::numeric_limits<float>::infinity(),
                         -std::numeric_limits<float>::infinity(),
                         -3.0f,
                         1e30f,
                         0.0f};
    std::mt19937 rng(7);
    for (int i = 0; i < 200; ++i) {
        const std::size_t pixel = std::size_t(rng() % std::uint32_t(frame.size.x * frame.size.y));
        for (int c = 0; c < 3; ++c)
            frame.rgba[pixel * 4 + std::size_t(c)] = bad[std::size_t(rng() % 6u)];
    }
    const post::FusionSettings s = unrealTemplate();
    ASSERT_TRUE(matchesReference(frame, GL_RGBA32F, 0.0f, s));
    const ref::FusionResult expected = ref::exposureFusion(frame.rgba.data(), frame.size.x, frame.size.y, 0.0f, s);
    for (float value : expected.adjustment) {
        ASSERT_TRUE(std::isfinite(value));
        ASSERT_GE(value, -expected.bracket.highlightEv);
        ASSERT_LE(value, expected.bracket.shadowEv);
    }
}

TEST_F(ExposureFusionGlTest, TheUvScaleLandsOnTheMapsTexelCentres)
{
    post::FusionSettings s;
    s.reduction = 4;
    runGpu(sceneFrame({10, 8}, 8u, false), GL_RGBA32F, 0.0f, s);  // 3x2 texels cover 12x8 pixels
    EXPECT_EQ(fusion.mapSize(), glm::ivec2(3, 2));
    EXPECT_FLOAT_EQ(fusion.uvScale().x, 10.0f / 12.0f);
    EXPECT_FLOAT_EQ(fusion.uvScale().y, 1.0f);
    EXPECT_EQ(fusion.exposureLog2Texture().format(), GLenum(GL_R32F));
}

TEST_F(ExposureFusionGlTest, SamplingTheMapAtAPixelIsTheReferencesBilinearSample)
{
    // The apply pass's read (shaders/localexposure/FusionSample.glsl) against ref::sampleFusionAdjustment,
    // on frames that are and are not multiples of the reduction. Tolerance: the texture unit's bilinear
    // weights are fixed-point (8 fractional bits on NVIDIA, GL's minimum subtexel precision is 4), so a
    // sample may be off by the largest step between the four texels times 2^-4, plus float rounding.
    gl::Program program = ts::shaderLibrary().buildCompute("test.fusion-sample", "test/FusionSample.comp");
    for (glm::ivec2 size : {glm::ivec2{64, 32}, glm::ivec2{37, 23}, glm::ivec2{5, 3}}) {
        const Frame frame = sceneFrame(size, 9u, false);
        const post::FusionSettings s = unrealTemplate();
        runGpu(frame, GL_RGBA32F, 0.0f, s);
        const ref::FusionResult expected = ref::exposureFusion(frame.rgba.data(), size.x, size.y, 0.0f, s);
        gl::Texture sampled("test.fusion-sampled", GL_R32F, size);
        program.use();
        glProgramUniform2i(program.id(), 0, size.x, size.y);
        glProgramUniform2f(program.id(), 1, fusion.uvScale().x, fusion.uvScale().y);
        fusion.exposureLog2Texture().bindUnit(0);
        glBindSampler(0, 0);
        sampled.bindImage(0, GL_WRITE_ONLY);
        glDispatchCompute(GLuint(size.x + 7) / 8, GLuint(size.y + 7) / 8, 1);
        glMemoryBarrier(GL_TEXTURE_UPDATE_BARRIER_BIT);
        const std::vector<float> rgba = sampled.readRgbaFloat();
        float largestStep = 0.0f;
        for (int y = 0; y < expected.height; ++y)
            for (int x = 0; x < expected.width; ++x) {
                if (x + 1 < expected.width)
                    largestStep = std::max(largestStep, std::abs(expected.at(x + 1, y) - expected.at(x, y)));
                if (y + 1 < expected.height)
                    largestStep = std::max(largestStep, std::abs(expected.at(x, y + 1) - expected.at(x, y)));
            }
        const double tolerance = double(largestStep) * 2.0 / 16.0 + 1e-5;
        for (int y = 0; y < size.y; ++y)
            for (int x = 0; x < size.x; ++x)
                ASSERT_NEAR(rgba[(std::size_t(y) * std::size_t(size.x) + std::size_t(x)) * 4],
                            ref::sampleFusionAdjustment(expected, x, y), tolerance)
                    << size.x << "x" << size.y << " pixel " << x << "," << y;
    }
}

TEST_F(ExposureFusionGlTest, AnEmptyOrOversizedFrameIsRefusedWithTheReason)
{
    gl::Texture texture("test.fusion-frame", GL_RGBA16F, {8, 4});
    post::PassContext ctx{ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps(), 0};
    const post::FusionSettings s;
    for (glm::ivec2 size : {glm::ivec2{0, 4}, glm::ivec2{8, -1}, glm::ivec2{9, 4}, glm::ivec2{8, 5}}) {
        try {
            fusion.run(ctx, texture, size, 0.0f, s);
            ADD_FAILURE() << size.x << "x" << size.y << " ran";
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find("fusion: "), std::string::npos) << e.what();
        }
    }
    fusion.run(ctx, texture, {7, 3}, 0.0f, s);  // a frame in part of a larger texture is fine
    EXPECT_EQ(fusion.mapSize(), glm::ivec2(2, 1));
}

TEST(ExposureFusionReference, AStepEdgeShowsTheDocumentedHalo)
{
    // A window 8 EV above middle grey in a wall 5 EV below it (512x128, the edge at x = 256: base texel
    // 64 at reduction 4), Unreal's template scales (a bracket of +-1.2 EV). The wall is brightened by
    // about 0.5 EV throughout; the window is darkened, except within 14 base texels (56 pixels) of the
    // edge, which the blurred weights of the wall's shadow exposure brighten: Mertens' low-frequency
    // halo, at most 0.8 EV (the edge texel), under 0.6 EV on the next 3, under 0.35 EV from the 4th on
    // (docs/TONE_OPERATORS.md).
    const int width = 512, height = 128;
    std::vector<float> rgba;
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            const float luminance = x >= 256 ? 0.18f * 256.0f : 0.18f / 32.0f;
            rgba.insert(rgba.end(), {luminance, luminance, luminance, 1.0f});
        }
    const ref::FusionResult r = ref::exposureFusion(rgba.data(), width, height, 0.0f, unrealTemplate());
    ASSERT_EQ(r.width, 128);
    for (int row : {0, r.height / 2, r.height - 1}) {
        for (int x = 0; x < 64; ++x)
            EXPECT_TRUE(r.at(x, row) > 0.45f && r.at(x, row) < 0.55f) << x << ": " << r.at(x, row);
        EXPECT_LE(r.at(64, row), 0.85f);
        for (int x = 65; x < 79; ++x) {
            EXPECT_TRUE(r.at(x, row) > 0.0f && r.at(x, row) < (x < 68 ? 0.6f : 0.35f)) << x << ": " << r.at(x, row);
            EXPECT_LT(r.at(x, row), r.at(x - 1, row)) << x;
        }
        for (int x = 79; x < 128; ++x) {
            EXPECT_LT(r.at(x, row), 0.0f) << x;
            EXPECT_LE(r.at(x, row), r.at(x - 1, row)) << x;  // darker away from the edge
        }
        EXPECT_LT(r.at(127, row), -0.3f);
    }
}

TEST(ExposureFusionGeometry, LevelsFollowTheShortSideAndTheLimit)
{
    EXPECT_EQ(post::fusionLevelCount(1, 1, 16), 1);
    EXPECT_EQ(post::fusionLevelCount(960, 540, 16), 10);  // 4K at reduction 4
    EXPECT_EQ(post::fusionLevelCount(480, 270, 16), 9);
    EXPECT_EQ(post::fusionLevelCount(65536, 65536, 99), 16);
    EXPECT_EQ(post::fusionLevelCount(100, 3, 0), 1);
    EXPECT_EQ(post::fusionLevelSide(540, 9), 2);
    EXPECT_EQ(post::fusionBaseSide(3838, 4), 960);
    EXPECT_FLOAT_EQ(post::fusionBracket(unrealTemplate()).highlightEv, 1.2f);
    post::FusionSettings odd;
    odd.highlightContrastScale = std::numeric_limits<float>::quiet_NaN();
    odd.shadowContrastScale = -2.0f;
    EXPECT_EQ(post::fusionBracket(odd).highlightEv, 0.0f);
    EXPECT_EQ(post::fusionBracket(odd).shadowEv, 6.0f);
}

}  // namespace
