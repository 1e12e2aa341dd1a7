// The interior's indirect light on the CPU (scene/InteriorLight.h): Lambert's polygon irradiance
// against the closed-form view factor of a rectangle, its horizon clipping and winding; the setup's
// openings, sun patches (projected, clipped to the floor, absent when the sun cannot enter) and
// reflected flux; the estimate's split-flux term on a surface that sees neither opening nor patch;
// and the scene format's "interior" rules.
#include "scene/InteriorLight.h"
#include "scene/Scene.h"

#include <gtest/gtest.h>
#include <glm/geometric.hpp>

#include <cmath>
#include <numbers>
#include <string>
#include <vector>

namespace {

#define EXPECT_CONTAINS(text, part) EXPECT_NE(std::string(text).find(part), std::string::npos) << "message: " << (text)

constexpr double kPi = std::numbers::pi;

// View factor from a point to a parallel a x b rectangle at distance c with one corner straight
// above the point (the classic closed form, e.g. Howell's catalogue, configuration B-3).
double cornerViewFactor(double a, double b, double c)
{
    double x = a / c, y = b / c;
    return (x / std::sqrt(1.0 + x * x) * std::atan(y / std::sqrt(1.0 + x * x)) +
            y / std::sqrt(1.0 + y * y) * std::atan(x / std::sqrt(1.0 + y * y))) /
           (2.0 * kPi);
}

std::vector<glm::vec3> rectangle(glm::vec3 centre, glm::vec3 halfU, glm::vec3 halfV)
{
    return {centre - halfU - halfV, centre + halfU - halfV, centre + halfU + halfV, centre - halfU + halfV};
}

TEST(InteriorLight, PolygonIrradianceIsLambertsViewFactor)
{
    // A 3 x 2 rectangle 1.5 above the point, centred: four corner rectangles of 1.5 x 1.
    const glm::vec3 point(0.3f, 0.0f, -0.2f);
    std::vector<glm::vec3> square = rectangle(point + glm::vec3(0, 1.5f, 0), {1.5f, 0, 0}, {0, 0, 1.0f});
    double expected = kPi * 4.0 * cornerViewFactor(1.5, 1.0, 1.5);  // E = pi L F for L = 1
    EXPECT_NEAR(scene::polygonIrradiance(point, {0, 1, 0}, square), expected, 1e-6 * expected);
    std::vector<glm::vec3> reversed(square.rbegin(), square.rend());
    EXPECT_NEAR(scene::polygonIrradiance(point, {0, 1, 0}, reversed), expected, 1e-6 * expected) << "either winding";
    // Off-centre: a corner straight above.
    std::vector<glm::vec3> corner = {point + glm::vec3(0, 2, 0), point + glm::vec3(1, 2, 0), point + glm::vec3(1, 2, 3),
                                     point + glm::vec3(0, 2, 3)};
    double cornerExpected = kPi * cornerViewFactor(1.0, 3.0, 2.0);
    EXPECT_NEAR(scene::polygonIrradiance(point, {0, 1, 0}, corner), cornerExpected, 1e-6 * cornerExpected);
    // A huge polygon close above covers the hemisphere: E -> pi.
    std::vector<glm::vec3> sky = rectangle(point + glm::vec3(0, 0.01f, 0), {1000, 0, 0}, {0, 0, 1000});
    EXPECT_NEAR(scene::polygonIrradiance(point, {0, 1, 0}, sky), kPi, 1e-4);
}

TEST(InteriorLight, PolygonIrradianceSeesOnlyWhatIsAboveTheHorizon)
{
    const glm::vec3 point(0.0f);
    const glm::vec3 up(0, 1, 0);
    // A vertical 2 x 2 square in front, half below the floor: only its upper half counts.
    std::vector<glm::vec3> straddling = rectangle({0, 0, -2}, {1, 0, 0}, {0, 1, 0});
    std::vector<glm::vec3> upperHalf = rectangle({0, 0.5f, -2}, {1, 0, 0}, {0, 0.5f, 0});
    double upper = scene::polygonIrradiance(point, up, upperHalf);
    EXPECT_GT(upper, 0.01);
    EXPECT_NEAR(scene::polygonIrradiance(point, up, straddling), upper, 2e-3 * upper);
    std::vector<glm::vec3> below = rectangle({0, -1.5f, -2}, {1, 0, 0}, {0, 0.5f, 0});
    EXPECT_EQ(scene::polygonIrradiance(point, up, below), 0.0);
    // In the surface's own plane (a sun patch on the floor it lies on): nothing, also from inside it.
    std::vector<glm::vec3> coplanar = rectangle({0, 0, 0}, {1, 0, 0}, {0, 0, 1});
    EXPECT_EQ(scene::polygonIrradiance(point, up, coplanar), 0.0);
    // Facing away from it: nothing.
    std::vector<glm::vec3> above = rectangle({0, 1, 0}, {1, 0, 0}, {0, 0, 1});
    EXPECT_EQ(scene::polygonIrradiance(point, -up, above), 0.0);
}

scene::Scene roomScene(const std::string& sun,
                       const std::string& opening = R"({ "position": [0, 1.5, -2], "size": [2, 1] })")
{
    return scene::parseScene(
        R"({ "materials": { "m": {} }, "objects": [ { "type": "box", "size": [1, 1, 1], "material": "m" } ],
  "sun": )" +
            sun + R"(,
  "ambient": { "outdoor": [1000, 2000, 3000], "indoor": [0.1, 0.1, 0.1] },
  "interior": { "min": [-3, 0, -2], "max": [3, 3, 4], "reflectance": [0.5, 0.4, 0.3], "floorAlbedo": [0.2, 0.3, 0.4],
                "scale": 0.5, "openings": [ )" +
            opening + R"( ] } })",
        "room.json");
}

TEST(InteriorLight, OpeningsAndSunPatchesOfTheSetup)
{
    // Sun straight through the opening (azimuth 0 looks along -Z: the opening faces +Z, into the room).
    scene::Scene s = roomScene(R"({ "azimuth": 0, "elevation": 45, "illuminance": 10000 })");
    scene::InteriorLightSetup setup = scene::interiorLightFor(s);
    ASSERT_EQ(setup.openings.size(), 1u);
    const scene::InteriorOpeningLight& o = setup.openings[0];
    EXPECT_NEAR(glm::length(o.inward - glm::vec3(0, 0, 1)), 0.0f, 1e-6f);
    EXPECT_FLOAT_EQ(o.area, 2.0f);
    EXPECT_NEAR(glm::length(o.corners[0] - glm::vec3(-1, 1, -2)), 0.0f, 1e-6f);
    EXPECT_NEAR(glm::length(o.corners[2] - glm::vec3(1, 2, -2)), 0.0f, 1e-6f);
    // Without an environment map the outside is the outdoor ambient a vertical surface sees (0.6).
    EXPECT_NEAR(glm::length(o.outsideRadiance - glm::vec3(600, 1200, 1800)), 0.0f, 1e-3f);
    EXPECT_FALSE(setup.outsideFromEnvironment);
    EXPECT_FLOAT_EQ(setup.surfaceArea, 2.0f * (6 * 3 + 6 * 6 + 3 * 6));
    // At 45 degrees the patch lies 1 to 2 m into the room: x in [-1, 1], z in [-1, 0].
    ASSERT_EQ(o.sunPatch.size(), 4u);
    for (glm::vec3 p : o.sunPatch) {
        EXPECT_FLOAT_EQ(p.y, 0.0f);
        EXPECT_NEAR(std::abs(p.x), 1.0f, 1e-5f);
        EXPECT_TRUE(std::abs(p.z + 1.0f) < 1e-5f || std::abs(p.z) < 1e-5f) << p.z;
    }
    const float onFloor = 10000.0f * std::sin(float(kPi) / 4.0f);
    EXPECT_NEAR(o.sunPatchRadiance.y, 0.3f * onFloor / float(kPi), 1e-2f);
    EXPECT_NEAR(setup.reflectedSunFlux.z, 0.4f * onFloor * 2.0f, 0.5f) << "albedo x illuminance x 2 m2";

    // A low sun throws the patch past the far wall (z = 4): clipped to the floor.
    scene::InteriorLightSetup low = scene::interiorLightFor(roomScene(R"({ "azimuth": 0, "elevation": 15 })"));
    ASSERT_GE(low.openings[0].sunPatch.size(), 3u);
    for (glm::vec3 p : low.openings[0].sunPatch)
        EXPECT_LE(p.z, 4.0f + 1e-5f);
    // Sun behind the opening's wall, or below the horizon: no patch, no flux.
    for (const char* sun : {R"({ "azimuth": 180, "elevation": 45 })", R"({ "azimuth": 0, "elevation": -5 })",
                            R"({ "azimuth": 0, "elevation": 45, "illuminance": 0 })"}) {
        scene::InteriorLightSetup none = scene::interiorLightFor(roomScene(sun));
        EXPECT_TRUE(none.openings[0].sunPatch.empty()) << sun;
        EXPECT_EQ(none.reflectedSunFlux, glm::vec3(0.0f)) << sun;
    }
    // A turned opening: rotation [0, 90, 0] faces +X.
    scene::InteriorLightSetup turned = scene::interiorLightFor(
        roomScene(R"({ "elevation": -1 })", R"({ "position": [-3, 1.5, 1], "size": [2, 1], "rotation": [0, 90, 0] })"));
    EXPECT_NEAR(glm::length(turned.openings[0].inward - glm::vec3(1, 0, 0)), 0.0f, 1e-6f);
}

TEST(InteriorLight, TheEstimateIsZeroOutsideAndSplitFluxWhereNothingIsSeen)
{
    scene::Scene s = roomScene(R"({ "elevation": -5 })");  // no sun: daylight through the opening only
    scene::InteriorLightSetup setup = scene::interiorLightFor(s);
    std::vector<glm::vec3> outside = {setup.openings[0].outsideRadiance};
    EXPECT_EQ(scene::interiorIndirectRadiance(setup, {0, 1, 10}, {0, 0, -1}, outside), glm::vec3(0.0f));
    EXPECT_EQ(scene::interiorIndirectRadiance(setup, {0, -1, 0}, {0, 1, 0}, outside), glm::vec3(0.0f));
    // On the opening's own wall, facing the room: the opening is edge-on, only the interreflection.
    glm::vec3 r(0.5f, 0.4f, 0.3f);
    glm::vec3 flux = glm::vec3(600, 1200, 1800) * float(kPi) * 2.0f;
    glm::vec3 expected = flux * r / ((1.0f - r) * setup.surfaceArea) * 0.5f / float(kPi);
    glm::vec3 onWall = scene::interiorIndirectRadiance(setup, {2.5f, 1.0f, -2.0f}, {0, 0, 1}, outside);
    for (int c = 0; c < 3; ++c)
        EXPECT_NEAR(onWall[c], expected[c], 1e-4f * expected[c]);
    // Facing the opening from the room: more.
    glm::vec3 facing = scene::interiorIndirectRadiance(setup, {0, 1.5f, 1}, {0, 0, -1}, outside);
    EXPECT_GT(facing.y, expected.y * 2.0f);
    // Scale 0 switches it off.
    setup.scale = 0.0f;
    EXPECT_EQ(scene::interiorIndirectRadiance(setup, {0, 1.5f, 1}, {0, 0, -1}, outside), glm::vec3(0.0f));
}

TEST(InteriorLight, SceneFormatRules)
{
    scene::Scene s = roomScene(R"({ "elevation": 30 })");
    ASSERT_TRUE(s.interior.has_value());
    EXPECT_EQ(s.interior->min, glm::vec3(-3, 0, -2));
    EXPECT_EQ(s.interior->reflectance, glm::vec3(0.5f, 0.4f, 0.3f));
    EXPECT_EQ(s.interior->scale, 0.5f);
    ASSERT_EQ(s.interior->openings.size(), 1u);
    EXPECT_EQ(s.interior->openings[0].size, glm::vec2(2, 1));
    EXPECT_FALSE(
        scene::parseScene(
            R"({ "materials": { "m": {} }, "objects": [ { "type": "box", "size": [1, 1, 1], "material": "m" } ] })",
            "plain.json")
            .interior.has_value());
    auto errorOf = [](const std::string& interior) {
        try {
            scene::parseScene(
                R"({ "materials": { "m": {} }, "objects": [ { "type": "box", "size": [1, 1, 1], "material": "m" } ],
  "interior": )" + interior +
                    "}",
                "bad.json");
        } catch (const scene::SceneError& e) {
            return std::string(e.what());
        }
        return std::string("(no error)");
    };
    const std::string one = R"("openings": [ { "position": [0, 1, 0], "size": [1, 1] } ])";
    EXPECT_CONTAINS(errorOf(R"({ "min": [0, 0, 0], "max": [1, 0, 1], )" + one + "}"),
                    "bad.json:2: \"interior\" \"min\" must be below");
    EXPECT_CONTAINS(errorOf(R"({ "min": [0, 0, 0], "max": [1, 1, 1], "openings": [] })"),
                    "\"openings\" in \"interior\" must list 1 to 8 openings, got 0");
    EXPECT_CONTAINS(errorOf(R"({ "min": [0, 0, 0], "max": [1, 1, 1], "reflectance": [1, 1, 1], )" + one + "}"),
                    "\"reflectance\" in \"interior\"[0] must be in [0, 0.95], got 1");
    EXPECT_CONTAINS(
        errorOf(
            R"({ "min": [0, 0, 0], "max": [1, 1, 1], "openings": [ { "position": [0, 1, 0], "size": [1, 1, 1] } ] })"),
        "\"size\" in opening 0 must be an array of 2 numbers");
    EXPECT_CONTAINS(
        errorOf(R"({ "min": [0, 0, 0], "max": [1, 1, 1], "openings": [ { "position": [0, 1, 0], "size": [1, 0] } ] })"),
        "\"size\" in opening 0[1] must be > 0");
    EXPECT_CONTAINS(errorOf(R"({ "min": [0, 0, 0], "max": [1, 1, 1], "glass": 1, )" + one + "}"),
                    "unknown field \"glass\" in \"interior\"");
    EXPECT_CONTAINS(errorOf(R"({ "max": [1, 1, 1], )" + one + "}"), "\"interior\" is missing required field \"min\"");
    std::string nine;
    for (int i = 0; i < 9; ++i)
        nine += std::string(i ? ", " : "") + R"({ "position": [0, 1, 0], "size": [1, 1] })";
    EXPECT_CONTAINS(errorOf(R"({ "min": [0, 0, 0], "max": [1, 1, 1], "openings": [ )" + nine + " ] }"),
                    "must list 1 to 8 openings, got 9");
}

}  // namespace
