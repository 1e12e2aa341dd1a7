// The sun of an environment map (scene/EnvironmentSun.h) on the CPU: a synthetic disc is found with
// its direction, solid angle, illuminance and colour; a disc across the map's yaw seam is one
// region; maps without a distinct sun say why; the scene's turn of the map turns the sun; the shipped
// photograph (assets/KernerEnvLatLong.exr) gives the sun seen in it; the scene format's
// "fromEnvironment" rules.
#include "image/ImageIo.h"
#include "scene/EnvironmentLighting.h"
#include "scene/EnvironmentSun.h"
#include "scene/Scene.h"
#include "support/TestPaths.h"

#include <gtest/gtest.h>
#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>

#include <cmath>
#include <numbers>
#include <string>

namespace {

#define EXPECT_CONTAINS(text, part) EXPECT_NE(std::string(text).find(part), std::string::npos) << "message: " << (text)

constexpr double kPi = std::numbers::pi;

// A sky of radiance `sky` (a gentle gradient, so the median is not one value) with a disc of
// `radiance` x `color` of angular radius `radiusDegrees` towards `sun` (map frame).
image::ImageF mapWithSun(int width,
                         glm::vec3 sun,
                         float radiusDegrees,
                         float radiance,
                         glm::vec3 color,
                         float sky = 1.0f)
{
    image::ImageF map(width, width / 2);
    float cosRadius = std::cos(glm::radians(radiusDegrees));
    for (int y = 0; y < map.height; ++y)
        for (int x = 0; x < map.width; ++x) {
            glm::vec3 d = scene::equirectDirection({(x + 0.5f) / float(map.width), (y + 0.5f) / float(map.height)});
            glm::vec3 c = glm::vec3(sky * (1.0f + 0.5f * d.y));
            if (glm::dot(d, sun) >= cosRadius)
                c = radiance * color;
            float* t = map.at(x, y);
            t[0] = c.x, t[1] = c.y, t[2] = c.z, t[3] = 1.0f;
        }
    return map;
}

double angleDegrees(glm::vec3 a, glm::vec3 b)
{
    return glm::degrees(std::acos(std::clamp(double(glm::dot(glm::normalize(a), glm::normalize(b))), -1.0, 1.0)));
}

TEST(EnvironmentSun, FindsADiscWithItsDirectionSizeIlluminanceAndColour)
{
    const glm::vec3 sun = scene::directionFromYawPitch(40.0f, 30.0f);
    const glm::vec3 color(1.0f, 0.9f, 0.7f);
    const float radiusDegrees = 3.0f;
    const float radiance = 1.0e5f;
    image::ImageF map = mapWithSun(512, sun, radiusDegrees, radiance, color);
    std::optional<scene::EnvironmentSunEstimate> estimate = scene::findEnvironmentSun(map);
    ASSERT_TRUE(estimate.has_value());
    // Texels are 0.7 degrees: the region's mean direction is within a fraction of one.
    EXPECT_LT(angleDegrees(estimate->mapDirection, sun), 0.1);
    double discSolidAngle = 2.0 * kPi * (1.0 - std::cos(glm::radians(double(radiusDegrees))));
    EXPECT_NEAR(estimate->solidAngle, discSolidAngle, 0.1 * discSolidAngle)
        << "the texels whose centres are in the disc";
    EXPECT_NEAR(glm::degrees(estimate->angularRadiusRadians()), radiusDegrees, 0.15);
    EXPECT_NEAR(glm::degrees(estimate->extentRadians), radiusDegrees, 0.6);
    // Illuminance is the region's own sum: radiance x its solid angle, per channel.
    for (int c = 0; c < 3; ++c)
        EXPECT_NEAR(estimate->illuminance[c], radiance * color[c] * estimate->solidAngle,
                    1e-3 * radiance * estimate->solidAngle);
    EXPECT_NEAR(estimate->peakLuminance, double(radiance) * (0.2126 * color.x + 0.7152 * color.y + 0.0722 * color.z),
                0.1);

    scene::Sun applied;
    applied.measureIlluminance = true;
    scene::applyEnvironmentSun(applied, *estimate, 0.0f);
    EXPECT_NEAR(applied.azimuthDegrees, 40.0f, 0.1f);
    EXPECT_NEAR(applied.elevationDegrees, 30.0f, 0.1f);
    EXPECT_NEAR(applied.angularRadiusDegrees, radiusDegrees, 0.15f);
    EXPECT_NEAR(applied.illuminance, estimate->luminance(), 1e-3 * estimate->luminance());
    EXPECT_NEAR(0.2126f * applied.color.x + 0.7152f * applied.color.y + 0.0722f * applied.color.z, 1.0f, 1e-5f);
    EXPECT_NEAR(applied.color.z / applied.color.x, color.z / color.x, 1e-4f);
    EXPECT_GE(applied.maskExtentDegrees, applied.angularRadiusDegrees - 0.5f);

    // A stated illuminance stays; the turned map turns the sun with it.
    scene::Sun stated;
    stated.illuminance = 90000.0f;
    scene::applyEnvironmentSun(stated, *estimate, 25.0f);
    EXPECT_EQ(stated.illuminance, 90000.0f);
    EXPECT_NEAR(stated.azimuthDegrees, 65.0f, 0.1f) << "a map feature at yaw a appears at yaw a + rotation";
    EXPECT_NEAR(stated.elevationDegrees, 30.0f, 0.1f);
    EXPECT_LT(angleDegrees(scene::worldToMap(stated.direction(), 25.0f), sun), 0.1) << "the mask finds it in the map";
}

TEST(EnvironmentSun, ADiscAcrossTheYawSeamIsOneRegion)
{
    // Yaw 180 is the map's left and right edge.
    const glm::vec3 sun = scene::directionFromYawPitch(180.0f, 10.0f);
    image::ImageF map = mapWithSun(256, sun, 4.0f, 5.0e4f, glm::vec3(1.0f));
    std::optional<scene::EnvironmentSunEstimate> estimate = scene::findEnvironmentSun(map);
    ASSERT_TRUE(estimate.has_value());
    // Texels are 1.4 degrees here: the disc's rim texels place its mean within a fifth of one.
    EXPECT_LT(angleDegrees(estimate->mapDirection, sun), 0.3);
    double discSolidAngle = 2.0 * kPi * (1.0 - std::cos(glm::radians(4.0)));
    EXPECT_NEAR(estimate->solidAngle, discSolidAngle, 0.1 * discSolidAngle) << "both halves counted";
}

TEST(EnvironmentSun, AMapWithoutADistinctSunSaysWhy)
{
    std::string why;
    image::ImageF overcast = mapWithSun(64, glm::vec3(0, 1, 0), 10.0f, 50.0f, glm::vec3(1.0f));
    EXPECT_FALSE(scene::findEnvironmentSun(overcast, &why).has_value());
    EXPECT_CONTAINS(why, "times its median luminance");
    image::ImageF black(16, 8);
    EXPECT_FALSE(scene::findEnvironmentSun(black, &why).has_value());
    EXPECT_CONTAINS(why, "black");
    // The region stops kMaxSunRegionDegrees from the peak even where the bright area goes on.
    image::ImageF wide = mapWithSun(256, glm::vec3(0, 1, 0), 40.0f, 1.0e5f, glm::vec3(1.0f), 1.0f);
    wide.at(10, 3)[1] = 2.0e5f;  // the peak, near the zenith inside the bright cap
    std::optional<scene::EnvironmentSunEstimate> capped = scene::findEnvironmentSun(wide);
    ASSERT_TRUE(capped.has_value());
    EXPECT_LE(glm::degrees(capped->extentRadians), 2.0 * scene::kMaxSunRegionDegrees + 1.0);
}

TEST(EnvironmentSun, TheShippedPhotographsSunIsWhereThePhotographShowsIt)
{
    const std::filesystem::path path = testing_support::sourceDir() / "assets" / "KernerEnvLatLong.exr";
    image::ImageF map = image::loadHdrImage(path);
    ASSERT_EQ(map.width, 1024) << "level 0 of the tiled, mip-mapped file";
    ASSERT_EQ(map.height, 512);
    std::optional<scene::EnvironmentSunEstimate> estimate = scene::findEnvironmentSun(map);
    ASSERT_TRUE(estimate.has_value());
    // The sun is at texel (721, 197): yaw (721.5 / 1024 - 0.5) * 360 = 73.7, elevation 90 - 197.5 / 512 * 180 = 20.6.
    scene::Sun sun;
    scene::applyEnvironmentSun(sun, *estimate, 0.0f);
    EXPECT_NEAR(sun.azimuthDegrees, 73.7f, 0.5f);
    EXPECT_NEAR(sun.elevationDegrees, 20.6f, 0.5f);
    // A few texels of flare around a clipped core: a couple of degrees, a small share of the light.
    EXPECT_GT(sun.angularRadiusDegrees, 0.5f);
    EXPECT_LT(sun.maskExtentDegrees, 5.0f);
    EXPECT_GT(estimate->peakLuminance, 1000.0 * estimate->medianLuminance);
}

TEST(EnvironmentSun, SceneFormatRules)
{
    const std::string head =
        R"({ "materials": { "m": {} }, "objects": [ { "type": "box", "size": [1, 1, 1], "material": "m" } ],
)";
    scene::Scene measured = scene::parseScene(
        head + R"( "sun": { "fromEnvironment": true }, "sky": { "environment": "x.exr" } })", "sun.json");
    EXPECT_TRUE(measured.sun.fromEnvironment);
    EXPECT_TRUE(measured.sun.measureIlluminance);
    scene::Scene stated = scene::parseScene(
        head + R"( "sun": { "fromEnvironment": true, "illuminance": 5 }, "sky": { "environment": "x.exr" } })",
        "sun.json");
    EXPECT_FALSE(stated.sun.measureIlluminance);
    EXPECT_EQ(stated.sun.illuminance, 5.0f);
    auto errorOf = [&](const std::string& tail) {
        try {
            scene::parseScene(head + tail, "sun.json");
        } catch (const scene::SceneError& e) {
            return std::string(e.what());
        }
        return std::string("(no error)");
    };
    EXPECT_CONTAINS(
        errorOf(R"( "sun": { "fromEnvironment": true, "azimuth": 3 }, "sky": { "environment": "x.exr" } })"),
        "sun.json:2: \"azimuth\" in \"sun\" comes from the environment map");
    EXPECT_CONTAINS(errorOf(R"( "sun": { "fromEnvironment": true } })"),
                    "sun.json:2: \"fromEnvironment\" in \"sun\" needs an environment map");
    EXPECT_CONTAINS(errorOf(R"( "sun": { "fromEnvironment": 1 } })"), "must be a boolean");
}

}  // namespace
