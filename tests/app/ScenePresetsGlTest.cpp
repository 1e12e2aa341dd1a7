// The shipped scene presets (scenes/*.json) on the test context: each renders headless without
// NaN/Inf and with the dynamic range its "dynamicRange" states (percentiles of the positive finite
// luminances, uniform frames, lit fraction, peak up to the renderer's output clamp); the NaN/Inf
// preset's injected texels reach the pipeline's counters exactly and leave the exposure as it is
// without them; the scene combo's switch (SceneFrameSource::replaceWith) replaces the scene and a
// bad file keeps the old one.
#include "frames/SceneFrameSource.h"
#include "post/PostPipeline.h"
#include "scene/PixelInjection.h"
#include "scene/Scene.h"
#include "scene/ScenePresets.h"
#include "scene/SceneRenderer.h"
#include "shared/HostDevice.h"
#include "support/GlTestEnvironment.h"
#include "support/HistogramTestSupport.h"
#include "support/TestPaths.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <fstream>

namespace ts = testing_support;
namespace fs = std::filesystem;

namespace {

// The renderer clamps every value to 60000 cd/m² (RGBA16F, SceneRenderer.h); a stated peak above
// it can only be checked up to the clamp until the scene target stores more.
constexpr double kRendererOutputClamp = 60000.0;
const glm::ivec2 kSize(320, 180);

struct PresetFrameStats
{
    int nonFinite = 0;
    int negative = 0;
    std::size_t pixels = 0;
    std::size_t positive = 0;
    double p001 = 0.0;  ///< 0.1th percentile of the positive finite luminances
    double p999 = 0.0;
    double maxLuminance = 0.0;
    bool uniform = true;  ///< every pixel's RGB equals the first's
};

PresetFrameStats statsOf(const std::vector<float>& rgba)
{
    PresetFrameStats stats;
    std::vector<double> positive;
    for (std::size_t i = 0; i + 3 < rgba.size(); i += 4) {
        ++stats.pixels;
        const float r = rgba[i], g = rgba[i + 1], b = rgba[i + 2];
        if (r != rgba[0] || g != rgba[1] || b != rgba[2])
            stats.uniform = false;
        if (!std::isfinite(r) || !std::isfinite(g) || !std::isfinite(b)) {
            ++stats.nonFinite;
            continue;
        }
        if (r < 0.0f || g < 0.0f || b < 0.0f)
            ++stats.negative;
        const double luminance = hd::hdLuminance(r, g, b);
        if (luminance > 0.0)
            positive.push_back(luminance);
    }
    stats.positive = positive.size();
    if (positive.empty())
        return stats;
    std::sort(positive.begin(), positive.end());
    auto percentile = [&](double p) { return positive[std::size_t(std::floor(p * double(positive.size() - 1)))]; };
    stats.p001 = percentile(0.001);
    stats.p999 = percentile(0.999);
    stats.maxLuminance = positive.back();
    return stats;
}

std::vector<scene::ScenePreset> shippedPresets()
{
    return scene::listScenePresets(ts::sourceDir() / "scenes");
}

class ScenePresetsTest : public ts::GlTest
{
};

TEST_F(ScenePresetsTest, ListingHasEveryPresetDefaultFirst)
{
    const std::vector<scene::ScenePreset> presets = shippedPresets();
    ASSERT_GE(presets.size(), 10u);
    EXPECT_EQ(presets.front().name, "default");
    for (const char* name : {"tunnel-exit", "night-street", "sunset-street", "stress-uniform-grey",
                             "stress-almost-black", "stress-nan-inf", "stress-sun-disc", "water-bottle-kerner"})
        EXPECT_TRUE(std::any_of(presets.begin(), presets.end(), [&](const auto& p) { return p.name == name; })) << name;
    for (const scene::ScenePreset& preset : presets) {
        EXPECT_TRUE(preset.valid) << preset.name << ": " << preset.description;
        EXPECT_FALSE(preset.description.empty()) << preset.name;
    }
}

TEST_F(ScenePresetsTest, ListingMarksABadFileAndMissingFolderIsEmpty)
{
    const fs::path dir = ts::scratchDir("presets-listing");
    std::ofstream(dir / "broken.json") << "{ \"materials\": ";
    std::ofstream(dir / "notes.txt") << "not a scene";
    const std::vector<scene::ScenePreset> presets = scene::listScenePresets(dir);
    ASSERT_EQ(presets.size(), 1u);
    EXPECT_FALSE(presets[0].valid);
    EXPECT_NE(presets[0].description.find("broken.json"), std::string::npos) << presets[0].description;
    EXPECT_TRUE(scene::listScenePresets(dir / "missing").empty());
}

// Every preset but the built-in default (its range is DefaultSceneHasRealDynamicRange's) states one.
TEST_F(ScenePresetsTest, EveryPresetRendersWithItsStatedRange)
{
    for (const scene::ScenePreset& preset : shippedPresets()) {
        if (preset.name == "default")
            continue;
        SCOPED_TRACE(preset.name);
        scene::Scene s = scene::loadSceneFile(preset.path);
        if (!s.statedRange) {
            ADD_FAILURE() << "a preset states its dynamic range (\"dynamicRange\")";
            continue;
        }
        EXPECT_FALSE(s.cameraPath.keyframes.empty()) << "a preset has a camera path";
        const scene::StatedRange& stated = *s.statedRange;
        scene::SceneRenderer renderer(ts::shaderLibrary(), s);
        renderer.resize(kSize);
        renderer.render(s.cameraAt(0.0), {});
        const PresetFrameStats stats = statsOf(renderer.hdrTarget().readRgbaFloat());
        std::printf("[ preset   ] %-20s L 0.1%% = %.4g, 99.9%% = %.4g cd/m2, ratio %.3g, max %.4g, lit %.4f\n",
                    preset.name.c_str(), stats.p001, stats.p999, stats.p001 > 0 ? stats.p999 / stats.p001 : 0.0,
                    stats.maxLuminance, double(stats.positive) / double(stats.pixels));
        EXPECT_EQ(stats.nonFinite, 0);
        EXPECT_EQ(stats.negative, 0);
        ASSERT_GT(stats.positive, 0u) << "nothing is lit";
        if (stated.uniform) {
            EXPECT_TRUE(stats.uniform) << "pixels differ: luminance " << stats.p001 << " to " << stats.maxLuminance;
            EXPECT_EQ(stats.positive, stats.pixels);
        }
        if (stated.atLeast > 0.0)
            EXPECT_GE(stats.p999 / stats.p001, stated.atLeast);
        EXPECT_LE(double(stats.positive) / double(stats.pixels), stated.maxLitFraction);
        if (stated.peakLuminance > 0.0)
            EXPECT_GE(stats.maxLuminance, 0.99 * std::min(stated.peakLuminance, kRendererOutputClamp));
        ts::expectNoGlErrors("render preset");
    }
}

TEST_F(ScenePresetsTest, InjectionPositionsAreDistinctAndInside)
{
    std::vector<glm::ivec2> positions = scene::injectionPositions({37, 23}, 192);
    ASSERT_EQ(positions.size(), 192u);
    std::vector<int> indices;
    for (glm::ivec2 p : positions) {
        ASSERT_TRUE(p.x >= 0 && p.x < 37 && p.y >= 0 && p.y < 23);
        indices.push_back(p.x + 37 * p.y);
    }
    std::sort(indices.begin(), indices.end());
    EXPECT_EQ(std::adjacent_find(indices.begin(), indices.end()), indices.end());
    EXPECT_EQ(scene::injectionPositions({4, 2}, 100).size(), 7u) << "capped below the pixel count";
    EXPECT_TRUE(scene::injectionPositions({0, 0}, 5).empty());
}

struct PipelineRun
{
    std::array<std::uint32_t, hd::kCounterCount> counters{};
    std::vector<float> curve;
};

PipelineRun runPipeline(app::SceneFrameSource& source, const post::PipelineSettings& settings)
{
    post::PostPipeline pipeline(ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps());
    std::string message;
    pipeline.applySettings(settings, &message);  // false where nothing changed
    EXPECT_EQ(pipeline.settings().toneOperator, settings.toneOperator) << message;
    EXPECT_EQ(pipeline.settings().rangeMode, settings.rangeMode) << message;
    app::FrameSourceInput input;
    input.viewportSize = source.size();
    for (int frame = 0; frame < 4; ++frame) {
        input.pathSeconds = frame / 60.0;
        source.update(input);
        source.render(ts::testProfiler());
        pipeline.run({source.hdr(), source.size()}, 1.0 / 60.0, source.verticalFovDegrees());
    }
    PipelineRun run;
    const auto words = pipeline.histogramBuffer().readAll<std::uint32_t>(hd::kHistogramBufferWords);
    std::copy_n(words.begin() + hd::kHistogramCountersOffset, hd::kCounterCount, run.counters.begin());
    run.curve = pipeline.curveBuffer().readAll<float>(hd::kCurveBufferWords);
    return run;
}

TEST_F(ScenePresetsTest, InjectedPixelsAreCountedApartAndExposureStaysSane)
{
    scene::Scene injected = scene::loadSceneFile(ts::sourceDir() / "scenes" / "stress-nan-inf.json");
    const scene::PixelInjection inject = injected.inject;
    ASSERT_GT(inject.nan, 0);
    ASSERT_GT(inject.inf, 0);
    ASSERT_GT(inject.negative, 0);
    scene::Scene clean = injected;
    clean.inject = {};
    app::SceneFrameSource withInjection(ts::shaderLibrary(), std::move(injected), nullptr, kSize);
    app::SceneFrameSource without(ts::shaderLibrary(), std::move(clean), nullptr, kSize);

    // The HDR frame itself holds exactly what was injected where it was injected.
    withInjection.render(ts::testProfiler());
    const std::vector<float> frame = withInjection.hdr().readRgbaFloat();
    const std::vector<glm::ivec2> positions = scene::injectionPositions(kSize, inject.total());
    ASSERT_EQ(positions.size(), std::size_t(inject.total()));
    for (std::size_t k = 0; k < positions.size(); ++k) {
        const float r = frame[std::size_t(positions[k].x + kSize.x * positions[k].y) * 4];
        if (int(k) < inject.nan)
            EXPECT_TRUE(std::isnan(r)) << k;
        else if (int(k) < inject.nan + inject.inf)
            EXPECT_TRUE(std::isinf(r) && r > 0.0f) << k;
        else
            EXPECT_EQ(r, -1.0f) << k;
    }

    for (post::RangeMode mode : {post::RangeMode::Manual, post::RangeMode::Auto})
        for (const char* op : {"ward", "percentile"}) {
            SCOPED_TRACE(std::string(op) + (mode == post::RangeMode::Auto ? ", auto range" : ", manual range"));
            post::PipelineSettings settings;
            settings.toneOperator = op;
            settings.rangeMode = mode;
            const PipelineRun a = runPipeline(withInjection, settings);
            const PipelineRun b = runPipeline(without, settings);
            EXPECT_EQ(b.counters[hd::kCounterNaN], 0u);
            EXPECT_EQ(b.counters[hd::kCounterInf], 0u);
            EXPECT_EQ(b.counters[hd::kCounterNonPositive], 0u) << "the clean frame has no black pixels";
            EXPECT_EQ(a.counters[hd::kCounterNaN], std::uint32_t(inject.nan));
            EXPECT_EQ(a.counters[hd::kCounterInf], std::uint32_t(inject.inf));
            EXPECT_EQ(a.counters[hd::kCounterNonPositive], std::uint32_t(inject.negative));
            // The tone curve (display luminance per sample) is finite and what it is without them.
            const int samples = int(b.curve[hd::kCurveSampleCount]);
            ASSERT_GT(samples, 0);
            ASSERT_EQ(int(a.curve[hd::kCurveSampleCount]), samples);
            float worst = 0.0f;
            for (int i = 0; i < samples; ++i) {
                const float va = a.curve[hd::kCurveHeaderWords + std::size_t(i)];
                const float vb = b.curve[hd::kCurveHeaderWords + std::size_t(i)];
                ASSERT_TRUE(std::isfinite(va)) << "curve sample " << i;
                worst = std::max(worst, std::abs(va - vb));
            }
            EXPECT_LE(worst, 0.01f) << "display luminance moved by the injected pixels";
        }
}

TEST_F(ScenePresetsTest, LiveSwitchReplacesTheSceneAndABadFileKeepsIt)
{
    const fs::path scenes = ts::sourceDir() / "scenes";
    app::SceneFrameSource source(ts::shaderLibrary(), scene::defaultScene(), nullptr, {64, 36});
    const std::string before = source.name();

    app::SceneFrameSource::ReplaceResult result = source.replaceWith(scenes / "night-street.json");
    EXPECT_TRUE(result.replaced) << result.message;
    EXPECT_NE(source.name().find("night-street.json"), std::string::npos) << source.name();
    EXPECT_NE(source.name(), before);
    EXPECT_NE(source.description().find("Night street"), std::string::npos);
    EXPECT_EQ(source.size(), glm::ivec2(64, 36)) << "the new scene renders at the current size";
    source.render(ts::testProfiler());

    const fs::path dir = ts::scratchDir("live-switch");
    std::ofstream(dir / "bad.json") << "{ \"materials\": { \"m\": { \"roughness\": 2 } }, \"objects\": [] }";
    const std::string current = source.name();
    for (const fs::path& bad : {dir / "bad.json", dir / "missing.json"}) {
        SCOPED_TRACE(bad.string());
        result = source.replaceWith(bad);
        EXPECT_FALSE(result.replaced);
        EXPECT_NE(result.message.find(bad.filename().string()), std::string::npos) << result.message;
        EXPECT_NE(result.message.find("still showing"), std::string::npos) << result.message;
        EXPECT_EQ(result.message.find('\n'), std::string::npos) << "one line";
        EXPECT_EQ(source.name(), current);
        source.render(ts::testProfiler());  // the kept scene still renders
    }
    const PresetFrameStats stats = statsOf(source.hdr().readRgbaFloat());
    EXPECT_EQ(stats.nonFinite, 0);
    EXPECT_GT(stats.positive, 0u);
    ts::expectNoGlErrors("live switch");
}

}  // namespace
