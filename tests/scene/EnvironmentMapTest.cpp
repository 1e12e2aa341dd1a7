// Environment map tests on the CPU: the equirectangular mapping and rotation, path resolution
// (scene folder, then data root), the sun mask, and loading errors that name the scene file, the
// line and the field (missing file, unreadable file, wrong shape, too small, half-float overflow).
#include "image/ImageIo.h"
#include "scene/EnvironmentLighting.h"
#include "scene/Scene.h"
#include "support/TestPaths.h"

#include <gtest/gtest.h>
#include <glm/geometric.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <string>

namespace {

#define EXPECT_CONTAINS(text, part) EXPECT_NE(std::string(text).find(part), std::string::npos) << "message: " << (text)

namespace fs = std::filesystem;

scene::Scene sceneWithEnvironment(const std::string& path, const fs::path& folder, float intensity = 1.0f)
{
    return scene::parseScene(R"({
  "materials": { "m": {} },
  "objects": [ { "type": "box", "size": [1, 1, 1], "material": "m" } ],
  "sky": {
    "environment": ")" + path + R"(", "intensity": )" +
                                 std::to_string(intensity) + R"(
  }
})",
                             "env-test.json", folder);
}

std::string loadError(const scene::Scene& s, const fs::path& dataRoot)
{
    try {
        scene::loadEnvironmentImage(s, dataRoot);
    } catch (const scene::SceneError& e) {
        return e.what();
    }
    return "(no error)";
}

image::ImageF constantMap(int width, float value)
{
    image::ImageF map(width, width / 2);
    for (std::size_t i = 0; i < map.pixels.size(); ++i)
        map.pixels[i] = (i % 4 == 3) ? 1.0f : value;
    return map;
}

TEST(EnvironmentMap, EquirectMappingRoundTripsAndFollowsTheCameraConvention)
{
    for (glm::vec2 uv : {glm::vec2(0.1f, 0.2f), glm::vec2(0.5f, 0.5f), glm::vec2(0.93f, 0.77f)}) {
        glm::vec2 back = scene::equirectUv(scene::equirectDirection(uv));
        EXPECT_NEAR(back.x, uv.x, 1e-5f);
        EXPECT_NEAR(back.y, uv.y, 1e-5f);
    }
    // Centre looks down -Z (camera yaw 0), three quarters across is +X (yaw 90), row 0 is the zenith.
    glm::vec3 centre = scene::equirectDirection({0.5f, 0.5f});
    EXPECT_NEAR(glm::dot(centre, glm::vec3(0, 0, -1)), 1.0f, 1e-6f);
    EXPECT_NEAR(glm::dot(scene::equirectDirection({0.75f, 0.5f}), glm::vec3(1, 0, 0)), 1.0f, 1e-6f);
    EXPECT_NEAR(scene::equirectDirection({0.3f, 0.0f}).y, 1.0f, 1e-6f);
    glm::vec3 yaw90 = scene::directionFromYawPitch(90.0f, 0.0f);
    EXPECT_NEAR(scene::equirectUv(yaw90).x, 0.75f, 1e-5f);
    // A map turned by +90 degrees shows its centre (-Z) at world yaw 90 (+X).
    glm::vec3 mapped = scene::worldToMap(yaw90, 90.0f);
    EXPECT_NEAR(glm::dot(mapped, glm::vec3(0, 0, -1)), 1.0f, 1e-6f);
}

TEST(EnvironmentMap, TexelSolidAnglesSumToTheSphere)
{
    double sum = 0.0;
    for (int row = 0; row < 16; ++row)
        sum += 32.0 * scene::equirectTexelSolidAngle(row, 32, 16);
    EXPECT_NEAR(sum, 4.0 * std::numbers::pi, 1e-9);
}

TEST(EnvironmentMap, PathsResolveInTheSceneFolderThenTheDataRoot)
{
    fs::path sceneDir = testing_support::scratchDir("env-scene-folder");
    fs::path dataRoot = testing_support::scratchDir("env-data-root");
    fs::create_directories(dataRoot / "assets");
    image::writeExr(dataRoot / "assets" / "sky.exr", constantMap(16, 2.0f));
    scene::Scene s = sceneWithEnvironment("assets/sky.exr", sceneDir, 3.0f);
    EXPECT_EQ(scene::resolveEnvironmentPath(s, dataRoot), dataRoot / "assets" / "sky.exr");
    image::ImageF loaded = scene::loadEnvironmentImage(s, dataRoot);
    ASSERT_EQ(loaded.width, 16);
    EXPECT_FLOAT_EQ(loaded.pixels[0], 6.0f) << "intensity scales the stored values";

    fs::create_directories(sceneDir / "assets");
    image::writeExr(sceneDir / "assets" / "sky.exr", constantMap(16, 5.0f));
    EXPECT_EQ(scene::resolveEnvironmentPath(s, dataRoot), sceneDir / "assets" / "sky.exr");
    EXPECT_FLOAT_EQ(scene::loadEnvironmentImage(s, dataRoot).pixels[0], 15.0f) << "the scene's folder comes first";

    scene::Scene absolute = sceneWithEnvironment((dataRoot / "assets" / "sky.exr").string(), sceneDir);
    EXPECT_EQ(scene::resolveEnvironmentPath(absolute, "/nowhere"), dataRoot / "assets" / "sky.exr");
    fs::remove_all(sceneDir);
    fs::remove_all(dataRoot);
}

TEST(EnvironmentMap, LoadingErrorsNameTheSceneLineAndField)
{
    fs::path dir = testing_support::scratchDir("env-errors");
    const std::string prefix = "env-test.json:5: \"environment\" in \"sky\": ";

    std::string missing = loadError(sceneWithEnvironment("nope.exr", dir), dir / "data");
    EXPECT_CONTAINS(missing, prefix + "cannot find 'nope.exr'");
    EXPECT_CONTAINS(missing, (dir / "data" / "nope.exr").string());
    EXPECT_EQ(missing.find('\n'), std::string::npos) << "one line";

    {
        std::ofstream out(dir / "garbage.exr");
        out << "not an image at all";
    }
    EXPECT_CONTAINS(loadError(sceneWithEnvironment("garbage.exr", dir), dir), prefix + "cannot read");

    image::writeExr(dir / "square.exr", image::ImageF(16, 16));
    EXPECT_CONTAINS(loadError(sceneWithEnvironment("square.exr", dir), dir),
                    prefix + "'" + (dir / "square.exr").string() + "' is 16x16; an equirectangular map must be twice");

    image::writeExr(dir / "tiny.exr", image::ImageF(4, 2));
    EXPECT_CONTAINS(loadError(sceneWithEnvironment("tiny.exr", dir), dir),
                    "environment maps must be from 8x4 to 8192x4096");

    // A sun stored in half floats without pre-exposure overflows to +Inf.
    image::ImageF hot = constantMap(16, 1.0f);
    hot.at(3, 2)[1] = 1.0e6f;
    image::writeExr(dir / "overflow.exr", hot, image::ExrPixelType::Half);
    std::string overflow = loadError(sceneWithEnvironment("overflow.exr", dir), dir);
    EXPECT_CONTAINS(overflow, prefix + "'" + (dir / "overflow.exr").string() + "' holds 1 NaN, infinite or negative");
    EXPECT_CONTAINS(overflow, "pre-expose the map and set \"intensity\"");
    image::writeExr(dir / "float.exr", hot, image::ExrPixelType::Float);
    EXPECT_EQ(loadError(sceneWithEnvironment("float.exr", dir), dir), "(no error)") << "a float file holds the sun";
    EXPECT_CONTAINS(loadError(sceneWithEnvironment("float.exr", dir, 1e35f), dir), "beyond the float range");
    fs::remove_all(dir);
}

TEST(EnvironmentMap, SunMaskCoversTheSunAndNothingFar)
{
    image::ImageF map = constantMap(64, 1.0f);
    glm::vec3 sun = scene::directionFromYawPitch(30.0f, 40.0f);
    scene::maskCone(map, sun, 0.2f);
    int masked = 0;
    for (int y = 0; y < map.height; ++y)
        for (int x = 0; x < map.width; ++x) {
            glm::vec3 d = scene::equirectDirection({(x + 0.5f) / 64.0f, (y + 0.5f) / 32.0f});
            float angle = std::acos(std::clamp(glm::dot(d, sun), -1.0f, 1.0f));
            bool zero = map.at(x, y)[0] == 0.0f;
            masked += zero ? 1 : 0;
            EXPECT_EQ(zero, angle <= 0.2f) << "texel " << x << "," << y;
        }
    EXPECT_GT(masked, 0);

    scene::Scene s = sceneWithEnvironment("x.exr", "");
    s.sun.elevationDegrees = 40.0f;
    s.sun.azimuthDegrees = 30.0f;
    s.sky.environment->rotationDegrees = 90.0f;
    scene::EnvironmentOptions options = scene::environmentOptionsFor(s);
    ASSERT_TRUE(options.sunMaskDirection.has_value());
    EXPECT_NEAR(glm::dot(*options.sunMaskDirection, scene::directionFromYawPitch(-60.0f, 40.0f)), 1.0f, 1e-5f)
        << "the mask sits where the turned map holds the scene's sun";
    s.sun.elevationDegrees = -5.0f;
    EXPECT_FALSE(scene::environmentOptionsFor(s).sunMaskDirection.has_value()) << "no sun, no mask";
}

}  // namespace
