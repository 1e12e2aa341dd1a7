// The tunnel's light (issue 35, item 9): in scenes/tunnel-exit.json the road inside the tunnel is lit
// by the tunnel's sodium lamps, not by the outdoor sky. The sky's ambient reaches a point unless the
// two sky-occlusion maps (top-down and bottom-up depth of the shadow casters, SceneShading.glsl
// skyOpenness) put it between a caster's top and a caster's underside. The road is a non-casting plane,
// so without a casting floor under it the lowest underside above the tunnel's road was the roof's:
// the road counted as free space under an eave, saw the open sky on all nine rays, and reflected the
// outdoor ambient (3000..3600 cd/m2 x albedo 0.07 = 210..250 cd/m2, bluish), about 200 times the
// lamp-lit walls. The scene's "tunnel floor" (a casting slab under the road, as the default room's
// floor box) closes the tunnel from below. Test: rendered at 160x90, the road at three depths inside
// the tunnel is at most 3x the walls beside it; without the slab the same measurement exceeds 30x, so
// the test fails when the leak comes back.
#include "scene/Scene.h"
#include "scene/SceneRenderer.h"
#include "shared/HostDevice.h"
#include "support/GlTestEnvironment.h"
#include "support/TestPaths.h"

#include <gtest/gtest.h>

#include <glm/glm.hpp>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace ts = testing_support;

namespace {

const glm::ivec2 kSize(160, 90);
constexpr double kMaxRoadOverWalls = 3.0;

/// The median luminance of the 3x3 pixels around where `world` projects (rows bottom-up, as GL reads).
double luminanceAt(const std::vector<float>& rgba, const scene::Camera& camera, glm::vec3 world)
{
    const glm::vec4 clip = camera.projection(float(kSize.x) / float(kSize.y)) * camera.view() * glm::vec4(world, 1.0f);
    EXPECT_GT(clip.w, 0.0f) << "behind the camera";
    const glm::vec2 ndc = glm::vec2(clip) / clip.w;
    const int cx = int((ndc.x * 0.5f + 0.5f) * float(kSize.x));
    const int cy = int((ndc.y * 0.5f + 0.5f) * float(kSize.y));
    std::vector<double> values;
    for (int y = cy - 1; y <= cy + 1; ++y)
        for (int x = cx - 1; x <= cx + 1; ++x) {
            if (x < 0 || y < 0 || x >= kSize.x || y >= kSize.y) {
                ADD_FAILURE() << "outside the frame: " << x << "," << y;
                return 0.0;
            }
            const float* p = &rgba[4 * (std::size_t(y) * std::size_t(kSize.x) + std::size_t(x))];
            values.push_back(hd::hdLuminance(p[0], p[1], p[2]));
        }
    std::nth_element(values.begin(), values.begin() + 4, values.end());
    return values[4];
}

/// The largest ratio of the road's luminance to the mean of the two walls beside it, at three depths
/// inside the tunnel (the camera path's first pose at z 50 looks down the tunnel towards the exit at z 0).
double worstRoadOverWalls(const scene::Scene& s)
{
    scene::SceneRenderer renderer(ts::shaderLibrary(), s);
    renderer.resize(kSize);
    const scene::Camera camera = s.cameraAt(0.0);
    renderer.render(camera, {});
    const std::vector<float> rgba = renderer.hdrTarget().readRgbaFloat();
    double worst = 0.0;
    for (float z : {40.0f, 32.0f, 24.0f}) {
        const double road = luminanceAt(rgba, camera, {-1.8f, 0.0f, z});
        const double left = luminanceAt(rgba, camera, {-5.0f, 2.0f, z});
        const double right = luminanceAt(rgba, camera, {5.0f, 2.0f, z});
        const double walls = 0.5 * (left + right);
        std::printf("[ tunnel   ] z %4.0f: road %8.3f cd/m2, walls %7.3f / %7.3f, road / walls %.2f\n", z, road, left,
                    right, road / walls);
        EXPECT_GT(walls, 0.0);
        worst = std::max(worst, road / std::max(walls, 1e-9));
    }
    ts::expectNoGlErrors("tunnel render");
    return worst;
}

class TunnelLightTest : public ts::GlTest
{
};

TEST_F(TunnelLightTest, RoadInsideTheTunnelIsLitByTheTunnelNotTheSky)
{
    const scene::Scene tunnel = scene::loadSceneFile(ts::sourceDir() / "scenes" / "tunnel-exit.json");
    EXPECT_LE(worstRoadOverWalls(tunnel), kMaxRoadOverWalls);

    // Without the casting floor the sky leaks in again: the measurement must see it.
    scene::Scene leaky = tunnel;
    const auto slab = std::find_if(leaky.objects.begin(), leaky.objects.end(),
                                   [](const scene::Object& o) { return o.name == "tunnel floor"; });
    ASSERT_NE(slab, leaky.objects.end()) << "the scene's casting floor under the tunnel's road";
    leaky.objects.erase(slab);
    EXPECT_GT(worstRoadOverWalls(leaky), 10.0 * kMaxRoadOverWalls);
}

}  // namespace
