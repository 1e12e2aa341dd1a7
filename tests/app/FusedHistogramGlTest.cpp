// The fused-lighting histogram method (issue 20, part 3): the scene's deferred lighting pass bins each
// pixel as it stores it, through the app's seam (app::fusedHistogramOutputs), for the pipeline's
// method. Checked against the CPU reference on the frame as stored (read back after the render):
//  - exact bins and counters at 1x1, odd and non-power-of-two sizes and 1920x1080, with 1, 64, 256,
//    1000 and 4096 bins under both out-of-range policies, in RGBA32F (sun disc) and RGBA16F (night)
//    frames, with a stress preset's NaN/+Inf/negative texels written by the lighting pass itself;
//  - Ward's foveal image from the fused sums against the box filter of WardFoveal.comp's definition,
//    through the pipeline (blocks of ~500 pixels) and directly at every block shape (blocks smaller
//    than the 8x8 tiles, one pixel, the whole frame);
//  - the auto range: each frame bins with the range smoothed up to the frame before;
//  - a pre-exposed RGBA16F frame (the app's default) at several k, and a frame stored with another k
//    than the one prepared refused;
//  - availability: refused without the deferred lighting pass, with the reason; dropped when it goes;
//  - the picture: the fused variant's frame is the plain one's within its rounding.
// 4K: one frame of the pre-exposed RGBA16F frame (the lighting pass takes about 6 s per 4K frame on llvmpipe).
#include "frames/SceneFrameSource.h"
#include "post/AutoRange.h"
#include "post/PostPipeline.h"
#include "post/histogram/HistogramFusedLighting.h"
#include "post/tonemap/ToneWard.h"
#include "reference/Histogram.h"
#include "reference/ToneWardRef.h"
#include "scene/PixelInjection.h"
#include "scene/Scene.h"
#include "scene/SceneRenderer.h"
#include "support/GlTestEnvironment.h"
#include "support/HistogramTestSupport.h"
#include "verify/PipelineVerify.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <string>

namespace ts = testing_support;

namespace {

// A sunlit plane, a metal ball and a lamp far above half-float range: an RGBA32F frame with the sun
// disc, sky, lit and shadowed ground. 45 degrees: 1080p has foveal blocks of ~500 pixels.
constexpr const char* kBrightScene = R"({
  "materials": {
    "ground": { "baseColor": [0.4, 0.38, 0.35], "roughness": 0.8 },
    "ball": { "baseColor": [0.9, 0.7, 0.35], "roughness": 0.3, "metalness": 1.0 },
    "lamp": { "baseColor": [0.1, 0.1, 0.1], "emissionColor": [1.0, 0.7, 0.4], "emissionLuminance": 3.0e6 }
  },
  "objects": [
    { "name": "ground", "type": "plane", "size": [200, 200], "material": "ground", "castsShadow": false },
    { "name": "ball", "type": "sphere", "position": [0, 1, -6], "radius": 1, "material": "ball" },
    { "name": "lamp", "type": "sphere", "position": [2.5, 0.5, -5], "radius": 0.3, "material": "lamp" }
  ],
  "sun": { "azimuth": 200, "elevation": 8, "illuminance": 90000, "color": [1.0, 0.95, 0.88] },
  "sky": { "model": "cie-clear", "zenithLuminance": 4500 },
  "camera": { "position": [0, 1.5, 2], "yaw": 0, "pitch": 2, "fov": 45, "near": 0.05, "far": 500 }
})";

// Night: no sun, a dim sky, a point light and a modest lamp: an RGBA16F frame with black and tiny values.
constexpr const char* kDimScene = R"({
  "materials": {
    "ground": { "baseColor": [0.3, 0.3, 0.3], "roughness": 0.9 },
    "lamp": { "baseColor": [0.1, 0.1, 0.1], "emissionColor": [1.0, 0.8, 0.5], "emissionLuminance": 2000 }
  },
  "objects": [
    { "name": "ground", "type": "plane", "size": [200, 200], "material": "ground", "castsShadow": false },
    { "name": "lamp", "type": "sphere", "position": [1, 1.2, -5], "radius": 0.25, "material": "lamp" }
  ],
  "lights": [ { "position": [1, 1.2, -5], "intensity": 400, "color": [1.0, 0.8, 0.5], "range": 12 } ],
  "sun": { "azimuth": 0, "elevation": -20, "illuminance": 0 },
  "sky": { "model": "cie-overcast", "zenithLuminance": 0.002 },
  "ambient": { "outdoor": [0.0, 0.0, 0.0], "indoor": [0.0, 0.0, 0.0] },
  "camera": { "position": [0, 1.5, 2], "yaw": 0, "pitch": -5, "fov": 60, "near": 0.05, "far": 500 }
})";

/// A scene, its renderer and a pipeline with the fused method, wired as the app wires them.
struct FusedRig
{
    scene::Scene scene;
    scene::Camera camera;
    std::unique_ptr<scene::SceneRenderer> renderer;
    std::unique_ptr<post::PostPipeline> pipeline;
    glm::ivec2 size{0};
    std::optional<int> preExposure;  ///< set: an RGBA16F frame pre-exposed by 2^k, the pipeline told k

    FusedRig(const char* sceneText, glm::ivec2 frameSize)
        : scene(scene::parseScene(sceneText, "fused-test")), size(frameSize)
    {
        camera = scene.camera;
        renderer = std::make_unique<scene::SceneRenderer>(ts::shaderLibrary(), scene);
        renderer->resize(size);
        pipeline = std::make_unique<post::PostPipeline>(ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps());
        pipeline->setFusedHistogramProducer(true);
    }

    void settle(std::uint32_t bins, post::OutOfRange policy, float logMin, float logMax, std::string op = "exposure")
    {
        post::PipelineSettings wanted = pipeline->settings();
        wanted.histogramMethod = std::string(post::HistogramFusedLighting::kId);
        wanted.toneOperator = std::move(op);
        wanted.spec = {bins, policy};
        wanted.rangeMode = post::RangeMode::Manual;
        wanted.logMin = logMin;
        wanted.logMax = logMax;
        std::string message;
        pipeline->applySettings(wanted, &message);
        ASSERT_EQ(pipeline->settings().histogramMethod, post::HistogramFusedLighting::kId) << message;
        ASSERT_EQ(pipeline->settings().spec.binCount, bins) << message;
    }

    /// One frame through the seam: prepare, render with the outputs, run. Returns the frame as stored.
    std::vector<float> frame(scene::PixelInjection inject = {})
    {
        if (preExposure)
            renderer->setFrameFormat(scene::FrameFormat::Rgba16f);
        post::FusedHistogramTarget* target =
            pipeline->prepareFusedHistogram(size, camera.verticalFovDegrees, preExposure.value_or(0));
        EXPECT_NE(target, nullptr);
        scene::RenderOptions options;
        options.preExposure = preExposure;
        scene::FusedHistogramOutputs outputs;
        if (target) {
            outputs = app::fusedHistogramOutputs(*target, inject);
            options.fusedHistogram = &outputs;
        }
        renderer->render(camera, options);
        EXPECT_TRUE(target && target->produced) << "the deferred lighting pass filled the target";
        pipeline->run({renderer->hdrTarget(), size, renderer->preExposure()}, 1.0 / 60.0, camera.verticalFovDegrees);
        return renderer->hdrTarget().readRgbaFloat();
    }

    /// The pipeline's histogram against ref::buildHistogram of `pixels` with the params it used.
    void expectExact(const std::vector<float>& pixels, const std::string& what) const
    {
        const auto params = pipeline->paramsBuffer().readAll<std::uint32_t>(hd::kHistogramParamsWords);
        const float logMin = std::bit_cast<float>(params[hd::kParamLogMin]);
        const float logMax = std::bit_cast<float>(params[hd::kParamLogMax]);
        const std::uint32_t bins = params[hd::kParamBinCount];
        const ref::OutOfRange policy = params[hd::kParamOutOfRange] == hd::kOutOfRangeSeparate
                                           ? ref::OutOfRange::Separate
                                           : ref::OutOfRange::Clamp;
        // The weights of the params (a pre-exposed frame's carry 2^-k), as every method bins.
        const hd::LuminanceWeights weights{std::bit_cast<float>(params[hd::kParamLumaR]),
                                           std::bit_cast<float>(params[hd::kParamLumaG]),
                                           std::bit_cast<float>(params[hd::kParamLumaB])};
        const ref::Histogram cpu =
            ref::buildHistogram(pixels.data(), size.x, size.y, logMin, logMax, bins, policy, weights);
        const auto words = pipeline->histogramBuffer().readAll<std::uint32_t>(hd::kHistogramBufferWords);
        ts::GpuHistogram gpu;
        gpu.bins.assign(words.begin(), words.begin() + bins);
        for (std::size_t i = 0; i < hd::kCounterCount; ++i)
            gpu.counters[i] = words[hd::kHistogramCountersOffset + i];
        ts::expectHistogramsEqual(gpu, cpu, true, what);
    }
};

/// A range over the middle of the frame's log-luminance, so both policies have pixels on both sides.
std::pair<float, float> middleRange(const std::vector<float>& pixels, glm::ivec2 size)
{
    const auto range = ref::autoRange(pixels.data(), size.x, size.y);
    if (!range || range->logMax - range->logMin < 1.0f)
        return {-10.0f, 20.0f};
    const float span = range->logMax - range->logMin;
    return {range->logMin + 0.2f * span, range->logMax - 0.2f * span};
}

class FusedHistogramGl : public ts::GlTest
{
protected:
    /// Every bin count under both policies at `size`, with `inject`; returns the last frame.
    void runMatrix(const char* sceneText, glm::ivec2 size, scene::PixelInjection inject = {})
    {
        FusedRig rig(sceneText, size);
        rig.settle(256, post::OutOfRange::Clamp, -10.0f, 20.0f);
        const auto [logMin, logMax] = middleRange(rig.frame(inject), size);
        for (std::uint32_t bins : {1u, 64u, 256u, 1000u, 4096u}) {
            for (post::OutOfRange policy : {post::OutOfRange::Clamp, post::OutOfRange::Separate}) {
                rig.settle(bins, policy, logMin, logMax);
                const std::vector<float> pixels = rig.frame(inject);
                rig.expectExact(pixels, std::to_string(size.x) + "x" + std::to_string(size.y) + " bins " +
                                            std::to_string(bins) +
                                            (policy == post::OutOfRange::Separate ? " separate" : " clamp"));
            }
        }
    }
};

TEST_F(FusedHistogramGl, BinsTheStoredFrameExactlyAt1x1)
{
    runMatrix(kBrightScene, {1, 1});
    runMatrix(kDimScene, {1, 1}, {3, 3, 3});  // a one-pixel frame gets no injected texel
}

TEST_F(FusedHistogramGl, BinsTheStoredFrameExactlyAtOddSizes)
{
    runMatrix(kBrightScene, {333, 77});
    runMatrix(kBrightScene, {5, 3});
}

TEST_F(FusedHistogramGl, BinsTheStoredFrameExactlyAtANonPowerOfTwoSize)
{
    runMatrix(kBrightScene, {257, 131});
}

// RGBA16F: the fused pass rounds to half before binning; black, tiny and injected values.
TEST_F(FusedHistogramGl, BinsAHalfFloatFrameWithInjectedTexelsExactly)
{
    runMatrix(kDimScene, {203, 97}, {5, 7, 9});
    runMatrix(kDimScene, {4, 3}, {5, 7, 9});  // fewer pixels than injected texels: the first 11

    FusedRig rig(kDimScene, {203, 97});
    ASSERT_EQ(rig.renderer->hdrTarget().format(), GLenum(GL_RGBA16F));
    rig.settle(64, post::OutOfRange::Separate, -8.0f, 8.0f);
    const std::vector<float> pixels = rig.frame({5, 7, 9});
    rig.expectExact(pixels, "injected");
    // The lighting pass wrote them where and as scene::injectPixels does.
    const std::vector<glm::ivec2> positions = scene::injectionPositions(rig.size, 21);
    ASSERT_EQ(positions.size(), 21u);
    for (std::size_t k = 0; k < positions.size(); ++k) {
        const float r =
            pixels[(std::size_t(positions[k].y) * std::size_t(rig.size.x) + std::size_t(positions[k].x)) * 4];
        if (k < 5)
            EXPECT_TRUE(std::isnan(r)) << k;
        else if (k < 12)
            EXPECT_EQ(r, std::numeric_limits<float>::infinity()) << k;
        else
            EXPECT_EQ(r, -1.0f) << k;
    }
    const auto words = rig.pipeline->histogramBuffer().readAll<std::uint32_t>(hd::kHistogramBufferWords);
    EXPECT_EQ(words[hd::kHistogramCountersOffset + hd::kCounterNaN], 5u);
    EXPECT_EQ(words[hd::kHistogramCountersOffset + hd::kCounterInf], 7u);
    EXPECT_GE(words[hd::kHistogramCountersOffset + hd::kCounterNonPositive], 9u);
    const verify::VerifyReport report = verify::verifyPipeline(*rig.pipeline);
    EXPECT_TRUE(report.ok) << report.text;
    EXPECT_NE(report.text.find("bins: exact"), std::string::npos) << report.text;
}

// 1080p: exact, and Ward's foveal image comes out of the fused sums (no frame read) and matches the box
// filter of the stored frame.
TEST_F(FusedHistogramGl, ExactAt1080pWithWardsFovealImageFromTheFusedSums)
{
    FusedRig rig(kBrightScene, {1920, 1080});
    ASSERT_EQ(rig.renderer->hdrTarget().format(), GLenum(GL_RGBA32F));
    rig.settle(4096, post::OutOfRange::Separate, 2.0f, 16.0f, "ward");
    std::vector<float> pixels = rig.frame();
    rig.expectExact(pixels, "1920x1080 4096 separate");
    auto* ward = dynamic_cast<post::ToneWard*>(&rig.pipeline->toneOperator());
    ASSERT_NE(ward, nullptr);
    EXPECT_TRUE(ward->fovealFromHistogramPass()) << "1080p at 45 degrees: blocks of ~500 pixels, offered to the pass";
    EXPECT_NE(rig.pipeline->histogramMethod().status().find("foveal"), std::string::npos)
        << rig.pipeline->histogramMethod().status();
    const ref::FovealGrid grid = ref::fovealGridSize(1920, 1080, 45.0);
    ASSERT_EQ(ward->fovealImage().size(), glm::ivec2(grid.width, grid.height));
    const auto foveal = ward->fovealImage().readRgbaFloat();
    const auto expected = ref::wardFovealLuminance(pixels.data(), 1920, 1080, grid, 1.0);
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const double L = hd::hdLuminance(foveal[i * 4], foveal[i * 4 + 1], foveal[i * 4 + 2]);
        ASSERT_NEAR(L, expected[i], 1e-5 * expected[i]) << "sample " << i;
    }
    const verify::VerifyReport report = verify::verifyPipeline(*rig.pipeline);
    EXPECT_TRUE(report.ok) << report.text;

    rig.settle(256, post::OutOfRange::Clamp, 2.0f, 16.0f, "ward");
    pixels = rig.frame();
    rig.expectExact(pixels, "1920x1080 256 clamp");
}

// The pre-exposed half-float frame (the app's default): the sunlit scene stored times 2^k in RGBA16F.
// The params carry the weights times 2^-k for the k the frame is stored with, so the bins are the
// stored values' under those weights (the scene's own luminance), exact; a frame stored with another
// k than the one prepared is refused with the reason, not binned with the wrong weights.
TEST_F(FusedHistogramGl, BinsAPreExposedHalfFrameWithItsOwnK)
{
    for (const int k : {-16, -3, 0, 5}) {
        FusedRig rig(kBrightScene, {203, 97});
        rig.preExposure = k;
        rig.settle(256, post::OutOfRange::Separate, -2.0f, 24.0f);
        const std::vector<float> pixels = rig.frame();
        ASSERT_EQ(rig.renderer->hdrTarget().format(), GLenum(GL_RGBA16F));
        ASSERT_EQ(rig.renderer->preExposure(), k);
        const auto params = rig.pipeline->paramsBuffer().readAll<std::uint32_t>(hd::kHistogramParamsWords);
        EXPECT_EQ(std::bit_cast<float>(params[hd::kParamStoredScale]), std::ldexp(1.0f, -k));
        EXPECT_EQ(std::bit_cast<float>(params[hd::kParamLumaG]), std::ldexp(hd::kLumaG, -k)) << "k " << k;
        rig.expectExact(pixels, "k " + std::to_string(k));
        const auto words = rig.pipeline->histogramBuffer().readAll<std::uint32_t>(256);
        EXPECT_GT(std::count_if(words.begin(), words.end(), [](std::uint32_t n) { return n > 0; }), 8)
            << "k " << k << ": the frame must spread over the bins for the test to mean anything";
    }
    // Prepared for k = -3, stored with k = -4: refused.
    FusedRig rig(kBrightScene, {64, 48});
    rig.preExposure = -3;
    rig.settle(64, post::OutOfRange::Clamp, -2.0f, 24.0f);
    rig.renderer->setFrameFormat(scene::FrameFormat::Rgba16f);
    post::FusedHistogramTarget* target = rig.pipeline->prepareFusedHistogram(rig.size, 45.0f, -3);
    ASSERT_NE(target, nullptr);
    const scene::FusedHistogramOutputs outputs = app::fusedHistogramOutputs(*target, {});
    scene::RenderOptions options;
    options.preExposure = -4;
    options.fusedHistogram = &outputs;
    rig.renderer->render(rig.camera, options);
    ASSERT_TRUE(target->produced);
    rig.pipeline->run({rig.renderer->hdrTarget(), rig.size, -4}, 1.0 / 60.0, 45.0f);
    const auto words = rig.pipeline->histogramBuffer().readAll<std::uint32_t>(64);
    EXPECT_EQ(std::count(words.begin(), words.end(), 0u), 64);
    EXPECT_NE(rig.pipeline->histogramMethod().status().find("k = -3, but it is stored with k = -4"), std::string::npos)
        << rig.pipeline->histogramMethod().status();
    EXPECT_FALSE(verify::verifyPipeline(*rig.pipeline).ok);
}

// 4K in the app's frame (RGBA16F pre-exposed by the default scene's k): one frame, exact. (About 10 s on
// llvmpipe, which shades the 8.3 million pixels on the CPU.)
TEST_F(FusedHistogramGl, ExactAt4KOnThePreExposedFrame)
{
    FusedRig rig(kBrightScene, {3840, 2160});
    rig.preExposure = -17;
    rig.settle(256, post::OutOfRange::Separate, -2.0f, 20.0f);
    const std::vector<float> pixels = rig.frame();
    ASSERT_EQ(rig.renderer->hdrTarget().format(), GLenum(GL_RGBA16F));
    rig.expectExact(pixels, "3840x2160 256 separate, k -17");
    const verify::VerifyReport report = verify::verifyPipeline(*rig.pipeline);
    EXPECT_TRUE(report.ok) << report.text;
}

/// The mean of the finite pixels of each block (WardFoveal.comp's partition) times `scale`, per channel.
std::vector<double> boxFilter(const std::vector<float>& rgba, glm::ivec2 size, glm::ivec2 grid, double scale)
{
    std::vector<double> out(std::size_t(grid.x) * std::size_t(grid.y) * 3, std::numeric_limits<double>::quiet_NaN());
    for (int cy = 0; cy < grid.y; ++cy)
        for (int cx = 0; cx < grid.x; ++cx) {
            double sum[3] = {0, 0, 0};
            double count = 0;
            for (int y = cy * size.y / grid.y; y < (cy + 1) * size.y / grid.y; ++y)
                for (int x = cx * size.x / grid.x; x < (cx + 1) * size.x / grid.x; ++x) {
                    const float* p = &rgba[(std::size_t(y) * std::size_t(size.x) + std::size_t(x)) * 4];
                    if (!std::isfinite(p[0]) || !std::isfinite(p[1]) || !std::isfinite(p[2]))
                        continue;
                    for (int c = 0; c < 3; ++c)
                        sum[c] += p[c];
                    count += 1.0;
                }
            if (count > 0)
                for (int c = 0; c < 3; ++c)
                    out[(std::size_t(cy) * std::size_t(grid.x) + std::size_t(cx)) * 3 + std::size_t(c)] =
                        sum[c] / count * scale;
        }
    return out;
}

// The method's foveal sums at every block shape the partition allows, including blocks smaller than
// the lighting pass's 8x8 tiles (several blocks per tile), one-pixel blocks (with injected NaN: no
// finite pixel) and one block for the whole frame.
TEST_F(FusedHistogramGl, FovealSumsMatchTheBoxFilterAtEveryBlockShape)
{
    const glm::ivec2 size{61, 37};
    scene::Scene s = scene::parseScene(kBrightScene, "fused-test");
    scene::SceneRenderer renderer(ts::shaderLibrary(), s);
    renderer.resize(size);
    gl::Buffer params = post::createHistogramParamsBuffer("test.fused.params");
    post::writeHistogramParams(params, 0.0f, 20.0f, {64, post::OutOfRange::Clamp}, size);
    gl::Buffer histogram("test.fused.histogram", hd::kHistogramBufferWords * sizeof(std::uint32_t));
    post::HistogramFusedLighting method;
    post::PassContext ctx{ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps(), 0};
    for (const glm::ivec2 grid : {glm::ivec2{61, 37}, glm::ivec2{20, 9}, glm::ivec2{7, 5}, glm::ivec2{3, 11},
                                  glm::ivec2{1, 1}, glm::ivec2{13, 2}}) {
        const std::string what = "grid " + std::to_string(grid.x) + "x" + std::to_string(grid.y);
        gl::Texture image("test.fused.foveal", GL_RGBA32F, grid);
        post::FovealTarget foveal{&image, grid, 0.5f, false};
        post::FusedHistogramTarget& target = method.prepare(params, size, &foveal);
        ASSERT_EQ(target.fovealSpan,
                  glm::ivec2(post::fusedFovealSpan(size.x, grid.x), post::fusedFovealSpan(size.y, grid.y)));
        const scene::FusedHistogramOutputs outputs = app::fusedHistogramOutputs(target, {40, 0, 0});
        scene::RenderOptions options;
        options.fusedHistogram = &outputs;
        renderer.render(s.camera, options);
        ASSERT_TRUE(target.produced) << what;
        const std::vector<float> pixels = renderer.hdrTarget().readRgbaFloat();
        post::HistogramTargets targets{histogram, params, nullptr, &foveal};
        method.build(ctx, {renderer.hdrTarget(), size}, {64, post::OutOfRange::Clamp}, targets);
        method.endFrame();
        ASSERT_TRUE(foveal.written) << what << ": " << method.status();
        const auto gpu = image.readRgbaFloat();
        const auto cpu = boxFilter(pixels, size, grid, 0.5);
        for (std::size_t i = 0; i < std::size_t(grid.x) * std::size_t(grid.y); ++i)
            for (std::size_t c = 0; c < 3; ++c) {
                const double expected = cpu[i * 3 + c];
                if (std::isnan(expected))
                    ASSERT_TRUE(std::isnan(gpu[i * 4 + c])) << what << " sample " << i;
                else
                    ASSERT_NEAR(gpu[i * 4 + c], expected, 1e-5 * std::abs(expected) + 1e-30) << what << " sample " << i;
            }
    }
    EXPECT_EQ(post::fusedFovealSpan(61, 61), 8);
    EXPECT_EQ(post::fusedFovealSpan(61, 1), 1);
    EXPECT_EQ(post::fusedFovealSpan(64, 8), 1) << "blocks on the tiles";
    EXPECT_EQ(post::fusedFovealSpan(64, 7), 2);
}

// Auto range: each frame bins with the range the frames before it made (speed 0: the last one's), the
// first after a reset with the manual range; each frame is exact with the params it used.
TEST_F(FusedHistogramGl, AutoRangeBinsWithThePreviousFramesRange)
{
    FusedRig rig(kBrightScene, {97, 61});
    rig.settle(128, post::OutOfRange::Separate, -3.0f, 5.0f);
    post::PipelineSettings wanted = rig.pipeline->settings();
    wanted.rangeMode = post::RangeMode::Auto;
    wanted.autoRangeSpeed = 0.0f;
    ASSERT_TRUE(rig.pipeline->applySettings(wanted));

    auto usedRange = [&] {
        const auto params = rig.pipeline->paramsBuffer().readAll<std::uint32_t>(hd::kHistogramParamsWords);
        return std::make_pair(std::bit_cast<float>(params[hd::kParamLogMin]),
                              std::bit_cast<float>(params[hd::kParamLogMax]));
    };
    std::vector<float> previous = rig.frame();
    EXPECT_EQ(usedRange(), std::make_pair(-3.0f, 5.0f)) << "the first frame after a reset bins with the manual range";
    rig.expectExact(previous, "frame 1");
    for (int frame = 2; frame <= 3; ++frame) {
        rig.camera.position.x += 1.5f;  // another picture, so a range of this frame would differ
        rig.camera.yawDegrees += 20.0f;
        const std::vector<float> pixels = rig.frame();
        const auto expected = ref::autoRange(previous.data(), rig.size.x, rig.size.y);
        ASSERT_TRUE(expected);
        const auto [logMin, logMax] = usedRange();
        EXPECT_EQ(logMin, expected->logMin) << "frame " << frame;
        EXPECT_EQ(logMax, expected->logMax) << "frame " << frame;
        const auto own = ref::autoRange(pixels.data(), rig.size.x, rig.size.y);
        EXPECT_FALSE(own && own->logMin == logMin && own->logMax == logMax) << "the test must tell the frames apart";
        rig.expectExact(pixels, "frame " + std::to_string(frame));
        previous = pixels;
    }
}

TEST_F(FusedHistogramGl, OfferedOnlyWithTheDeferredLightingPass)
{
    post::PostPipeline pipeline(ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps());
    post::PipelineSettings wanted = pipeline.settings();
    wanted.histogramMethod = std::string(post::HistogramFusedLighting::kId);
    std::string message;
    pipeline.applySettings(wanted, &message);
    EXPECT_NE(pipeline.settings().histogramMethod, post::HistogramFusedLighting::kId);
    EXPECT_NE(message.find(post::kNeedsFusedProducer), std::string::npos) << message;
    const post::HistogramFusedLighting fused;
    EXPECT_FALSE(pipeline.histogramAvailability(fused).available);
    EXPECT_EQ(pipeline.histogramAvailability(fused).reason, post::kNeedsFusedProducer);
    EXPECT_EQ(pipeline.prepareFusedHistogram({16, 16}, 60.0f), nullptr) << "no fused method in use";

    pipeline.setFusedHistogramProducer(true);
    EXPECT_TRUE(pipeline.histogramAvailability(fused).available);
    wanted.downsample = 4;
    pipeline.applySettings(wanted, &message);
    EXPECT_EQ(pipeline.settings().histogramMethod, post::HistogramFusedLighting::kId) << message;
    EXPECT_EQ(pipeline.settings().downsample, 1) << "the fused method bins the full frame";
    EXPECT_NE(pipeline.notice().find("downsample 1"), std::string::npos) << pipeline.notice();
    EXPECT_NE(pipeline.prepareFusedHistogram({16, 16}, 60.0f), nullptr);

    pipeline.setFusedHistogramProducer(false);  // e.g. the Frame panel switched to forward lighting
    EXPECT_EQ(pipeline.settings().histogramMethod, post::PipelineSettings{}.histogramMethod);
    EXPECT_NE(pipeline.notice().find(post::kNeedsFusedProducer), std::string::npos) << pipeline.notice();
    EXPECT_EQ(pipeline.prepareFusedHistogram({16, 16}, 60.0f), nullptr);
}

// Without this frame's producer the method does not make up a histogram: it is empty, verify fails
// and the status says why.
TEST_F(FusedHistogramGl, AFrameTheLightingPassDidNotBinIsReportedNotFaked)
{
    FusedRig rig(kBrightScene, {32, 24});
    rig.settle(64, post::OutOfRange::Clamp, -10.0f, 20.0f);
    rig.renderer->render(rig.camera, scene::RenderOptions{});  // no prepare, no fused outputs
    rig.pipeline->run({rig.renderer->hdrTarget(), rig.size}, 1.0 / 60.0, 45.0f);
    const auto words = rig.pipeline->histogramBuffer().readAll<std::uint32_t>(64);
    EXPECT_EQ(std::count(words.begin(), words.end(), 0u), 64);
    EXPECT_NE(rig.pipeline->histogramMethod().status().find("no deferred lighting pass"), std::string::npos);
    EXPECT_FALSE(verify::verifyPipeline(*rig.pipeline).ok);
}

// The fused variant changes the picture by its rounding only: RGBA32F within 1e-4 relative (the
// variant compiles differently: FMA contraction and the order of the light loop's sums; 3.1e-5 on the
// H200, a few ulps on llvmpipe), RGBA16F within one half step (or both below the smallest normal half).
TEST_F(FusedHistogramGl, TheFusedVariantsFrameIsThePlainOneWithinRounding)
{
    // The sunlit scene as RGBA32F and pre-exposed by 2^-17 (the default scene's k: everything under
    // 8 cd/m^2 in denormal halves, which the fused store must keep), the night as plain RGBA16F and
    // pre-exposed by 2^-10 (its sky and shadows in denormal halves).
    for (const auto& [sceneText, preExposure] :
         {std::pair{kBrightScene, std::optional<int>()}, std::pair{kBrightScene, std::optional<int>(-17)},
          std::pair{kDimScene, std::optional<int>()}, std::pair{kDimScene, std::optional<int>(-10)}}) {
        FusedRig rig(sceneText, {120, 70});
        rig.preExposure = preExposure;
        if (preExposure)
            rig.renderer->setFrameFormat(scene::FrameFormat::Rgba16f);
        scene::RenderOptions plainOptions;
        plainOptions.preExposure = preExposure;
        rig.renderer->render(rig.camera, plainOptions);
        const bool half = rig.renderer->hdrTarget().format() == GL_RGBA16F;
        const std::vector<float> plain = rig.renderer->hdrTarget().readRgbaFloat();
        rig.settle(256, post::OutOfRange::Clamp, -10.0f, 20.0f);
        const std::vector<float> fused = rig.frame();
        ASSERT_EQ(plain.size(), fused.size());
        const std::string what =
            half ? (preExposure ? "RGBA16F x 2^" + std::to_string(*preExposure) : "RGBA16F") : "RGBA32F";
        double worst = 0.0;
        std::size_t denormals = 0;
        for (std::size_t i = 0; i < plain.size(); ++i) {
            if (i % 4 == 3 || plain[i] == fused[i])
                continue;
            if (half && std::abs(plain[i]) < 6.2e-5f) {  // a denormal half: one unit of 2^-24 at most
                ++denormals;
                ASSERT_LE(std::abs(double(fused[i]) - double(plain[i])), std::ldexp(1.0, -24))
                    << what << " value " << i << ": " << plain[i] << " vs " << fused[i];
                continue;
            }
            worst = std::max(worst, std::abs(double(fused[i]) / double(plain[i]) - 1.0));
        }
        EXPECT_LE(worst, half ? 1.0 / 1024.0 : 1e-4) << what;
        if (preExposure == -10) {
            const auto isDenormal = [](float v) { return v > 0.0f && v < 6.1e-5f; };
            const std::size_t stored = std::size_t(std::count_if(fused.begin(), fused.end(), isDenormal));
            EXPECT_GT(stored, plain.size() / 20) << what << ": the test needs denormal halves to mean anything";
            std::cout << what << ": " << stored << " denormal halves stored by the fused pass, " << denormals
                      << " differing from the plain store by at most 2^-24\n";
        }
    }
}

}  // namespace
