// Deferred (compute-shaded) lighting against the forward path (issue 9, item 8): every shipped scene,
// at odd sizes and two points of its camera path, gives the same display picture within one 8-bit
// sRGB step under two exposures; the G-buffer follows resizes and target changes; and the
// comparison itself notices a real difference (a sun turned off).
#include "scene/Scene.h"
#include "scene/ScenePresets.h"
#include "scene/SceneRenderer.h"
#include "shared/HostDevice.h"
#include "support/GlTestEnvironment.h"
#include "support/TestPaths.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace {

using testing_support::GlTest;

class DeferredLightingTest : public GlTest
{
};

std::vector<float> render(scene::SceneRenderer& renderer,
                          const scene::Camera& camera,
                          glm::ivec2 size,
                          scene::LightingPath path)
{
    renderer.resize(size);
    scene::RenderOptions options;
    options.lighting = path;
    renderer.render(camera, options);
    return renderer.hdrTarget().readRgbaFloat();
}

// The median of the lit pixels (an almost black frame's median pixel is black), 1 if none is lit.
double medianLitLuminance(const std::vector<float>& rgba)
{
    std::vector<double> luminance;
    for (std::size_t i = 0; i + 3 < rgba.size(); i += 4) {
        double l = hd::hdLuminance(rgba[i], rgba[i + 1], rgba[i + 2]);
        if (l > 0.0)
            luminance.push_back(l);
    }
    if (luminance.empty())
        return 1.0;
    std::nth_element(luminance.begin(), luminance.begin() + std::ptrdiff_t(luminance.size() / 2), luminance.end());
    return luminance[luminance.size() / 2];
}

// The comparison's display mapping: exposure, Reinhard per channel, sRGB, 8 bits. Fixed (not the
// app's operators) so a difference is the renderer's, not an operator's reaction to it.
int displayCode(float value, double exposure)
{
    double x = std::max(double(value), 0.0) * exposure;
    double mapped = x / (1.0 + x);
    double srgb = mapped <= 0.0031308 ? 12.92 * mapped : 1.055 * std::pow(mapped, 1.0 / 2.4) - 0.055;
    return int(std::lround(std::clamp(srgb, 0.0, 1.0) * 255.0));
}

struct Difference
{
    int largestStep = 0;  ///< largest |code difference| over every pixel and channel
    std::size_t pixelsOver1 = 0;
    std::size_t distinctCodes = 0;  ///< of the forward frame: the picture is not trivially flat
};

Difference compare(const std::vector<float>& forward, const std::vector<float>& deferred)
{
    Difference d;
    const double median = medianLitLuminance(forward);
    std::vector<bool> seen(256, false);
    // Mid grey at the lit median, and 16x brighter for the shadows.
    for (double exposure : {0.18 / median, 16.0 * 0.18 / median}) {
        for (std::size_t i = 0; i + 3 < forward.size(); i += 4) {
            int worst = 0;
            for (std::size_t c = 0; c < 3; ++c) {
                int a = displayCode(forward[i + c], exposure);
                int b = displayCode(deferred[i + c], exposure);
                seen[std::size_t(a)] = true;
                worst = std::max(worst, std::abs(a - b));
            }
            d.largestStep = std::max(d.largestStep, worst);
            d.pixelsOver1 += worst > 1 ? 1 : 0;
        }
    }
    d.distinctCodes = std::size_t(std::count(seen.begin(), seen.end(), true));
    return d;
}

TEST_F(DeferredLightingTest, EveryShippedSceneMatchesTheForwardPathWithinOneSrgbStep)
{
    const std::vector<scene::ScenePreset> presets = scene::listScenePresets(testing_support::sourceDir() / "scenes");
    ASSERT_GE(presets.size(), 8u);
    for (const scene::ScenePreset& preset : presets) {
        SCOPED_TRACE(preset.name);
        scene::Scene s = scene::loadSceneFile(preset.path);
        scene::SceneRenderer renderer(testing_support::shaderLibrary(), s);
        for (double seconds : {0.0, 7.0}) {
            for (glm::ivec2 size : {glm::ivec2(203, 117), glm::ivec2(97, 131)}) {
                SCOPED_TRACE("t = " + std::to_string(seconds) + " s, " + std::to_string(size.x) + "x" +
                             std::to_string(size.y));
                scene::Camera camera = s.cameraAt(seconds);
                std::vector<float> forward = render(renderer, camera, size, scene::LightingPath::Forward);
                std::vector<float> deferred = render(renderer, camera, size, scene::LightingPath::Deferred);
                ASSERT_EQ(forward.size(), deferred.size());
                Difference d = compare(forward, deferred);
                EXPECT_LE(d.largestStep, 1) << d.pixelsOver1 << " pixels differ by more than one step";
                if (preset.name != "stress-uniform-grey")  // flat by design
                    EXPECT_GE(d.distinctCodes, 8u) << "the frame is too flat for the comparison to mean anything";
            }
        }
    }
}

TEST_F(DeferredLightingTest, TheGBufferFollowsResizesAndTargetChanges)
{
    scene::Scene s = scene::defaultScene();
    scene::Camera camera = s.cameraAt(2.0);
    scene::SceneRenderer reused(testing_support::shaderLibrary(), s);
    render(reused, camera, {64, 48}, scene::LightingPath::Deferred);
    render(reused, camera, {150, 1}, scene::LightingPath::Deferred);
    std::vector<float> afterResize = render(reused, camera, {131, 77}, scene::LightingPath::Deferred);
    scene::SceneRenderer fresh(testing_support::shaderLibrary(), s);
    std::vector<float> fromFresh = render(fresh, camera, {131, 77}, scene::LightingPath::Deferred);
    ASSERT_EQ(afterResize.size(), fromFresh.size());
    EXPECT_EQ(afterResize, fromFresh);
    // Switching paths back and forth on one renderer changes nothing either.
    render(reused, camera, {131, 77}, scene::LightingPath::Forward);
    EXPECT_EQ(render(reused, camera, {131, 77}, scene::LightingPath::Deferred), fromFresh);
    // A 1x1 frame: the single pixel is lit or sky, never garbage.
    std::vector<float> single = render(reused, camera, {1, 1}, scene::LightingPath::Deferred);
    ASSERT_EQ(single.size(), 4u);
    for (float v : single)
        EXPECT_TRUE(std::isfinite(v) && v >= 0.0f) << v;
}

TEST_F(DeferredLightingTest, TheComparisonSeesARealDifference)
{
    // The same scene without its sun must fail the one-step test: the comparison has teeth.
    scene::Scene lit = scene::defaultScene();
    scene::Scene unlit = lit;
    unlit.sun.illuminance *= 0.5f;
    scene::Camera camera = lit.cameraAt(0.0);
    scene::SceneRenderer litRenderer(testing_support::shaderLibrary(), lit);
    scene::SceneRenderer unlitRenderer(testing_support::shaderLibrary(), unlit);
    Difference d = compare(render(litRenderer, camera, {96, 54}, scene::LightingPath::Forward),
                           render(unlitRenderer, camera, {96, 54}, scene::LightingPath::Deferred));
    EXPECT_GT(d.largestStep, 1);
}

}  // namespace
