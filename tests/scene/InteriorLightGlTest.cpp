// The interior's indirect light on the GPU against its CPU twin (scene/InteriorLight.h): a closed
// grey room with a declared opening and the sun through it, rendered with the interior, without it,
// and without it but with 1 cd/m² more indoor ambient; the first difference over the second is the
// ambient radiance the shaders added, which must match interiorIndirectRadiance at every pixel's
// surface point (forward and deferred paths; an analytic sky, and a uniform environment map whose
// irradiance map gives the opening's radiance). Tolerance 1%: float against double sums.
#include "image/ImageIo.h"
#include "scene/InteriorLight.h"
#include "scene/Scene.h"
#include "scene/SceneRenderer.h"
#include "support/GlTestEnvironment.h"
#include "support/TestPaths.h"

#include <gtest/gtest.h>
#include <glm/geometric.hpp>
#include <glm/mat4x4.hpp>

#include <cmath>
#include <fstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

class InteriorLightGlTest : public testing_support::GlTest
{
};

const glm::vec3 kRoomMin(-3, 0, -2);
const glm::vec3 kRoomMax(3, 3, 4);

// Six boxes whose inner faces are the interior's box; the openings are declared only (no holes), so
// the sun lights nothing inside directly and every inner point is covered. The window has a sun
// patch; the door in the left wall reaches the floor, so the floor sees it cut by its horizon.
std::string roomJson(const std::string& sun, const std::string& sky, const std::string& indoor, bool interior)
{
    std::string json = R"({
  "materials": { "grey": { "baseColor": [0.5, 0.5, 0.5], "roughness": 1.0 } },
  "objects": [
    { "type": "box", "position": [0, -0.1, 1], "size": [6.4, 0.2, 6.4], "material": "grey" },
    { "type": "box", "position": [0, 3.1, 1], "size": [6.4, 0.2, 6.4], "material": "grey" },
    { "type": "box", "position": [-3.1, 1.5, 1], "size": [0.2, 3, 6.4], "material": "grey" },
    { "type": "box", "position": [3.1, 1.5, 1], "size": [0.2, 3, 6.4], "material": "grey" },
    { "type": "box", "position": [0, 1.5, -2.1], "size": [6.4, 3, 0.2], "material": "grey" },
    { "type": "box", "position": [0, 1.5, 4.1], "size": [6.4, 3, 0.2], "material": "grey" } ],
  "sun": )" + sun + R"(,
  "sky": )" + sky + R"(,
  "ambient": { "outdoor": [1000, 2000, 3000], "indoor": )" +
                       indoor + " }";
    if (interior)
        json += R"(,
  "interior": { "min": [-3, 0, -2], "max": [3, 3, 4], "reflectance": [0.5, 0.4, 0.3], "floorAlbedo": [0.2, 0.3, 0.4],
                "scale": 0.5, "openings": [ { "position": [-1, 1.5, -2], "size": [2.4, 1.2] },
                                            { "position": [-3, 1, 2], "size": [1, 2], "rotation": [0, 90, 0] } ] })";
    return json + "\n}\n";
}

glm::vec3 pixelRay(const scene::Camera& camera, glm::ivec2 size, int x, int y)
{
    glm::mat4 inverse = glm::inverse(camera.projection(float(size.x) / float(size.y)) * camera.view());
    glm::vec2 ndc((x + 0.5f) / size.x * 2.0f - 1.0f, (y + 0.5f) / size.y * 2.0f - 1.0f);
    glm::vec4 farPoint = inverse * glm::vec4(ndc, 1.0f, 1.0f);
    glm::vec4 nearPoint = inverse * glm::vec4(ndc, -1.0f, 1.0f);
    return glm::normalize(glm::vec3(farPoint) / farPoint.w - glm::vec3(nearPoint) / nearPoint.w);
}

// Where a ray from inside the room leaves it, the face's inward normal, and whether the point is
// clear of the room's edges (where the pixel could belong to either face).
bool exitPoint(glm::vec3 origin, glm::vec3 direction, glm::vec3& point, glm::vec3& normal)
{
    float nearest = 1e30f;
    for (int axis = 0; axis < 3; ++axis) {
        if (direction[axis] == 0.0f)
            continue;
        float bound = direction[axis] > 0.0f ? kRoomMax[axis] : kRoomMin[axis];
        float t = (bound - origin[axis]) / direction[axis];
        if (t > 0.0f && t < nearest) {
            nearest = t;
            normal = glm::vec3(0.0f);
            normal[axis] = direction[axis] > 0.0f ? -1.0f : 1.0f;
        }
    }
    point = origin + direction * nearest;
    int nearEdges = 0;
    for (int axis = 0; axis < 3; ++axis)
        if (normal[axis] == 0.0f && (point[axis] - kRoomMin[axis] < 0.05f || kRoomMax[axis] - point[axis] < 0.05f))
            ++nearEdges;
    return nearEdges == 0;
}

struct RoomCase
{
    std::string name;
    std::string sun;
    std::string sky;
    glm::vec3 outsideRadiance;  ///< what each opening lets in, for the CPU twin
    fs::path folder;            ///< the scene files' folder (the environment map is found there)
};

struct View
{
    scene::Camera camera;
    scene::LightingPath path;
};

std::vector<View> views()
{
    std::vector<View> out;
    for (scene::LightingPath path : {scene::LightingPath::Forward, scene::LightingPath::Deferred})
        for (int view = 0; view < 2; ++view) {
            scene::Camera camera;
            camera.position = view == 0 ? glm::vec3(0.5f, 1.4f, 3.2f) : glm::vec3(-2.0f, 2.5f, 0.5f);
            camera.yawDegrees = view == 0 ? 10.0f : 120.0f;
            camera.pitchDegrees = view == 0 ? -15.0f : -40.0f;
            camera.verticalFovDegrees = 90.0f;
            out.push_back({camera, path});
        }
    return out;
}

const glm::ivec2 kSize(48, 36);

// One frame per view of the room with `indoor` ambient, with or without the interior.
std::vector<std::vector<float>> renderRoom(const RoomCase& c,
                                           const std::string& indoor,
                                           bool interior,
                                           scene::InteriorLightSetup* setup = nullptr)
{
    const fs::path file = c.folder / (std::string(interior ? "with" : "without") + indoor.substr(1, 3) + ".json");
    std::ofstream(file) << roomJson(c.sun, c.sky, indoor, interior);
    scene::Scene s = scene::loadSceneFile(file);
    scene::SceneRenderer renderer(testing_support::shaderLibrary(), s);
    if (setup)
        *setup = scene::interiorLightFor(s);
    renderer.resize(kSize);
    std::vector<std::vector<float>> frames;
    for (const View& view : views()) {
        scene::RenderOptions options;
        options.lighting = view.path;
        renderer.render(view.camera, options);
        frames.push_back(renderer.hdrTarget().readRgbaFloat());
    }
    return frames;
}

void expectShadersMatchTheCpuTwin(const RoomCase& c)
{
    scene::InteriorLightSetup setup;
    const std::vector<std::vector<float>> lit = renderRoom(c, "[0.1, 0.1, 0.1]", true, &setup);
    const std::vector<std::vector<float>> base = renderRoom(c, "[0.1, 0.1, 0.1]", false);
    const std::vector<std::vector<float>> unit = renderRoom(c, "[1.1, 1.1, 1.1]", false);
    const std::vector<glm::vec3> outside(setup.openings.size(), c.outsideRadiance);
    const std::vector<View> all = views();
    int compared = 0;
    for (std::size_t v = 0; v < all.size(); ++v) {
        const scene::Camera& camera = all[v].camera;
        SCOPED_TRACE(c.name + ", " + scene::lightingPathName(all[v].path) + ", view " + std::to_string(v % 2));
        for (int y = 0; y < kSize.y; ++y)
            for (int x = 0; x < kSize.x; ++x) {
                glm::vec3 point, normal;
                if (!exitPoint(camera.position, pixelRay(camera, kSize, x, y), point, normal))
                    continue;
                glm::vec3 expected = scene::interiorIndirectRadiance(setup, point, normal, outside);
                std::size_t i = (std::size_t(y) * std::size_t(kSize.x) + std::size_t(x)) * 4;
                for (int ch = 0; ch < 3; ++ch) {
                    float reflectance = unit[v][i + ch] - base[v][i + ch];
                    ASSERT_GT(reflectance, 0.4f) << "pixel " << x << "," << y << " is not lit by the ambient";
                    float actual = (lit[v][i + ch] - base[v][i + ch]) / reflectance;
                    EXPECT_NEAR(actual, expected[ch], 0.01f * expected[ch] + 1e-3f)
                        << "pixel " << x << "," << y << " channel " << ch << " at (" << point.x << ", " << point.y
                        << ", " << point.z << ") facing (" << normal.x << ", " << normal.y << ", " << normal.z << ")";
                }
                ++compared;
            }
    }
    EXPECT_GT(compared, int(all.size()) * kSize.x * kSize.y / 2);
}

TEST_F(InteriorLightGlTest, ShadersMatchTheCpuTwinUnderAnAnalyticSkyWithSunPatches)
{
    RoomCase c;
    c.name = "analytic sky, sun through the opening";
    c.sun = R"({ "azimuth": 20, "elevation": 40, "illuminance": 20000 })";
    c.sky = R"({ "model": "cie-clear" })";
    c.outsideRadiance = glm::vec3(600, 1200, 1800);  // the outdoor ambient a vertical opening sees
    c.folder = testing_support::scratchDir("interior-analytic");
    expectShadersMatchTheCpuTwin(c);
    // The sun patch is there: the floor in front of the opening gets more than far from it.
    scene::InteriorLightSetup setup = scene::interiorLightFor(scene::loadSceneFile(c.folder / "with0.1.json"));
    ASSERT_FALSE(setup.openings[0].sunPatch.empty());
    fs::remove_all(c.folder);
}

TEST_F(InteriorLightGlTest, ShadersMatchTheCpuTwinUnderAnEnvironmentMap)
{
    RoomCase c;
    c.name = "uniform environment map, no sun";
    c.sun = R"({ "elevation": -10 })";
    c.sky = R"({ "environment": "uniform.exr" })";
    c.outsideRadiance = glm::vec3(500.0f, 700.0f, 900.0f);  // the irradiance map of a uniform map is the map
    c.folder = testing_support::scratchDir("interior-environment");
    image::ImageF map(32, 16);
    for (std::size_t i = 0; i < map.pixels.size(); i += 4) {
        map.pixels[i] = 500.0f, map.pixels[i + 1] = 700.0f, map.pixels[i + 2] = 900.0f;
        map.pixels[i + 3] = 1.0f;
    }
    image::writeExr(c.folder / "uniform.exr", map, image::ExrPixelType::Float);
    expectShadersMatchTheCpuTwin(c);
    fs::remove_all(c.folder);
}

}  // namespace
