// Environment lighting tests (GL, llvmpipe): the GPU prefilter against CPU references on small
// maps, the BRDF table against a quadrature, and scenes with an environment map: the background
// is the map's radiance times the intensity in the view direction, a diffuse plane under a uniform
// map gets albedo times the map's radiance, and nothing is NaN/Inf.
//
// Tolerances: irradiance is the same direct sum on both sides, so 1e-3 relative (float summation
// order); the mirror level is a bilinear lookup (2e-3); rough levels are 256-sample filtered
// importance sampling against an exact sum over the map's texels (2% on a smooth map; measured
// 0.5% at roughness 0.6, 1.1% at 1); the BRDF table holds half floats from 4096 samples (0.01
// absolute; 512 samples missed by 0.026 at grazing n.v).
#include "image/ImageIo.h"
#include "scene/EnvironmentLighting.h"
#include "scene/EnvironmentSun.h"
#include "scene/Scene.h"
#include "scene/SceneRenderer.h"
#include "support/GlTestEnvironment.h"
#include "support/TestPaths.h"

#include <gtest/gtest.h>
#include <glm/geometric.hpp>
#include <glm/mat4x4.hpp>
#include <glm/trigonometric.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <numbers>
#include <string>
#include <vector>

namespace {

using testing_support::GlTest;
namespace fs = std::filesystem;
constexpr double kPi = std::numbers::pi;

class EnvironmentLightingTest : public GlTest
{
};

image::ImageF mapFrom(int width, const std::function<glm::vec3(glm::vec3)>& radiance)
{
    image::ImageF map(width, width / 2);
    for (int y = 0; y < map.height; ++y)
        for (int x = 0; x < map.width; ++x) {
            glm::vec3 c = radiance(scene::equirectDirection({(x + 0.5f) / map.width, (y + 0.5f) / map.height}));
            float* t = map.at(x, y);
            t[0] = c.x, t[1] = c.y, t[2] = c.z, t[3] = 1.0f;
        }
    return map;
}

// A smooth, positive, coloured sky: linear in the direction.
glm::vec3 smoothSky(glm::vec3 d)
{
    return {1.0f + 0.6f * d.y + 0.3f * d.x, 0.8f + 0.4f * d.z, 1.2f - 0.5f * d.y};
}

glm::vec3 texel(const image::ImageF& map, int x, int y)
{
    const float* t = map.at(x, y);
    return {t[0], t[1], t[2]};
}

// GL's bilinear filter: texel centres at (i + 0.5) / size, u repeats, v clamps.
glm::vec3 bilinear(const image::ImageF& map, glm::vec2 uv)
{
    float x = uv.x * map.width - 0.5f;
    float y = std::clamp(uv.y * map.height - 0.5f, 0.0f, float(map.height - 1));
    int x0 = int(std::floor(x)), y0 = int(std::floor(y));
    float fx = x - x0, fy = y - y0;
    auto wrap = [&](int i) { return ((i % map.width) + map.width) % map.width; };
    int y1 = std::min(y0 + 1, map.height - 1);
    glm::vec3 top = glm::mix(texel(map, wrap(x0), y0), texel(map, wrap(x0 + 1), y0), fx);
    glm::vec3 bottom = glm::mix(texel(map, wrap(x0), y1), texel(map, wrap(x0 + 1), y1), fx);
    return glm::mix(top, bottom, fy);
}

glm::vec3 gpuTexel(const std::vector<float>& rgba, glm::ivec2 size, int x, int y)
{
    std::size_t i = (std::size_t(y) * std::size_t(size.x) + std::size_t(x)) * 4;
    return {rgba[i], rgba[i + 1], rgba[i + 2]};
}

glm::vec3 directionOfTexel(glm::ivec2 size, int x, int y)
{
    return scene::equirectDirection({(x + 0.5f) / size.x, (y + 0.5f) / size.y});
}

// Irradiance / pi at normal n: the exact sum over the map's texels.
glm::dvec3 irradianceReference(const image::ImageF& map, glm::vec3 n)
{
    glm::dvec3 sum(0.0);
    for (int y = 0; y < map.height; ++y) {
        double omega = scene::equirectTexelSolidAngle(y, map.width, map.height);
        for (int x = 0; x < map.width; ++x) {
            double c = glm::dot(n, directionOfTexel({map.width, map.height}, x, y));
            if (c > 0.0)
                sum += glm::dvec3(texel(map, x, y)) * (c * omega);
        }
    }
    return sum / kPi;
}

double ggx(double nDotH, double alpha)
{
    double a2 = alpha * alpha;
    double d = nDotH * nDotH * (a2 - 1.0) + 1.0;
    return a2 / (kPi * d * d);
}

// What the split-sum prefilter converges to for n = v = r: the map weighted by n.l times the
// density of reflected directions, D(h) / 4, summed exactly over the map's texels.
glm::dvec3 specularReference(const image::ImageF& map, glm::vec3 n, double roughness)
{
    double alpha = roughness * roughness;
    glm::dvec3 sum(0.0);
    double weight = 0.0;
    for (int y = 0; y < map.height; ++y) {
        double omega = scene::equirectTexelSolidAngle(y, map.width, map.height);
        for (int x = 0; x < map.width; ++x) {
            glm::vec3 l = directionOfTexel({map.width, map.height}, x, y);
            double nDotL = glm::dot(n, l);
            if (nDotL <= 0.0)
                continue;
            glm::vec3 h = glm::normalize(n + l);
            double w = nDotL * ggx(glm::dot(n, h), alpha) * omega;
            sum += glm::dvec3(texel(map, x, y)) * w;
            weight += w;
        }
    }
    return sum / weight;
}

void expectNear(glm::dvec3 actual, glm::dvec3 expected, double relative, const std::string& where)
{
    for (int c = 0; c < 3; ++c)
        EXPECT_NEAR(actual[c], expected[c], relative * std::abs(expected[c]) + 1e-6) << where << " channel " << c;
}

TEST_F(EnvironmentLightingTest, IrradianceMatchesTheCpuSum)
{
    glm::ivec2 size = scene::EnvironmentLighting::kIrradianceSize;
    // A constant map: the cosine-weighted mean is the constant itself (up to the texel grid).
    {
        image::ImageF map = mapFrom(64, [](glm::vec3) { return glm::vec3(2.0f); });
        scene::EnvironmentLighting env(testing_support::shaderLibrary(), map, {});
        std::vector<float> gpu = env.irradiance().readRgbaFloat();
        for (int y = 0; y < size.y; y += 3)
            for (int x = 0; x < size.x; x += 5) {
                glm::dvec3 reference = irradianceReference(map, directionOfTexel(size, x, y));
                EXPECT_NEAR(reference.x, 2.0, 0.02);
                expectNear(glm::dvec3(gpuTexel(gpu, size, x, y)), reference, 1e-3, "constant");
            }
    }
    // A single bright texel: lights exactly the hemisphere around it, cosine-weighted.
    {
        image::ImageF map = mapFrom(64, [](glm::vec3) { return glm::vec3(0.0f); });
        float* hot = map.at(20, 9);
        hot[0] = 1000.0f, hot[1] = 500.0f, hot[2] = 250.0f;
        scene::EnvironmentLighting env(testing_support::shaderLibrary(), map, {});
        std::vector<float> gpu = env.irradiance().readRgbaFloat();
        int lit = 0;
        for (int y = 0; y < size.y; ++y)
            for (int x = 0; x < size.x; ++x) {
                glm::dvec3 reference = irradianceReference(map, directionOfTexel(size, x, y));
                lit += reference.x > 0.0 ? 1 : 0;
                expectNear(glm::dvec3(gpuTexel(gpu, size, x, y)), reference, 1e-3,
                           "bright texel, output " + std::to_string(x) + "," + std::to_string(y));
            }
        EXPECT_GT(lit, size.x * size.y / 3);
        EXPECT_LT(lit, size.x * size.y * 2 / 3);
    }
}

TEST_F(EnvironmentLightingTest, SpecularPrefilterMatchesTheCpuReference)
{
    image::ImageF map = mapFrom(64, smoothSky);
    scene::EnvironmentLighting env(testing_support::shaderLibrary(), map, {});
    const gl::Texture& specular = env.specular();
    ASSERT_EQ(specular.levels(), scene::EnvironmentLighting::kSpecularLevels);

    // Roughness 0: the map itself, bilinearly filtered.
    glm::ivec2 size0 = scene::EnvironmentLighting::kSpecularSize;
    std::vector<float> level0 = specular.readRgbaFloat(0);
    for (int y = 0; y < size0.y; y += 7)
        for (int x = 0; x < size0.x; x += 11) {
            glm::vec3 d = directionOfTexel(size0, x, y);
            expectNear(glm::dvec3(gpuTexel(level0, size0, x, y)), glm::dvec3(bilinear(map, scene::equirectUv(d))), 2e-3,
                       "level 0 texel " + std::to_string(x) + "," + std::to_string(y));
        }

    // Roughness 0.6 and 1: the GGX-weighted mean over the map.
    for (int level : {3, 5}) {
        double roughness = double(level) / double(scene::EnvironmentLighting::kSpecularLevels - 1);
        glm::ivec2 size = glm::max(size0 >> level, glm::ivec2(1));
        std::vector<float> gpu = specular.readRgbaFloat(level);
        double worst = 0.0;
        for (int y = 0; y < size.y; ++y)
            for (int x = 0; x < size.x; ++x) {
                glm::dvec3 reference = specularReference(map, directionOfTexel(size, x, y), roughness);
                glm::dvec3 actual(gpuTexel(gpu, size, x, y));
                for (int c = 0; c < 3; ++c)
                    worst = std::max(worst, std::abs(actual[c] - reference[c]) / reference[c]);
                expectNear(
                    actual, reference, 0.02,
                    "roughness " + std::to_string(roughness) + " texel " + std::to_string(x) + "," + std::to_string(y));
            }
        std::printf("[ env      ] roughness %.1f: worst relative error %.4f\n", roughness, worst);
    }

    // A constant map stays constant at every roughness.
    image::ImageF flat = mapFrom(64, [](glm::vec3) { return glm::vec3(3.0f); });
    scene::EnvironmentLighting flatEnv(testing_support::shaderLibrary(), flat, {});
    for (int level = 0; level < scene::EnvironmentLighting::kSpecularLevels; ++level) {
        std::vector<float> gpu = flatEnv.specular().readRgbaFloat(level);
        for (std::size_t i = 0; i < gpu.size(); i += 4)
            ASSERT_NEAR(gpu[i], 3.0f, 3e-3f) << "level " << level << " value " << i / 4;
    }
}

// The split-sum scale and bias of the renderer's BRDF by midpoint quadrature over the hemisphere.
glm::dvec2 brdfReference(double nDotV, double roughness)
{
    double alpha = roughness * roughness;
    glm::dvec3 v(std::sqrt(1.0 - nDotV * nDotV), 0.0, nDotV);
    constexpr int kTheta = 600, kPhi = 300;
    glm::dvec2 sum(0.0);
    for (int i = 0; i < kTheta; ++i) {
        double theta = (i + 0.5) / kTheta * kPi / 2.0;
        double dTheta = kPi / 2.0 / kTheta;
        for (int j = 0; j < kPhi; ++j) {
            double phi = (j + 0.5) / kPhi * 2.0 * kPi;
            double dPhi = 2.0 * kPi / kPhi;
            glm::dvec3 l(std::sin(theta) * std::cos(phi), std::sin(theta) * std::sin(phi), std::cos(theta));
            glm::dvec3 h = glm::normalize(v + l);
            double nDotL = l.z;
            double a2 = alpha * alpha;
            double visibility = 0.5 / (nDotL * std::sqrt(nDotV * nDotV * (1.0 - a2) + a2) +
                                       nDotV * std::sqrt(nDotL * nDotL * (1.0 - a2) + a2));
            double f = ggx(h.z, alpha) * visibility * nDotL * std::sin(theta) * dTheta * dPhi;
            double fresnel = std::pow(1.0 - glm::dot(v, h), 5.0);
            sum += glm::dvec2((1.0 - fresnel) * f, fresnel * f);
        }
    }
    return sum;
}

TEST_F(EnvironmentLightingTest, BrdfTableMatchesAQuadrature)
{
    image::ImageF map = mapFrom(16, [](glm::vec3) { return glm::vec3(1.0f); });
    scene::EnvironmentLighting env(testing_support::shaderLibrary(), map, {});
    const int n = scene::EnvironmentLighting::kBrdfLutSize;
    std::vector<float> lut = env.brdfLut().readRgbaFloat();
    for (glm::ivec2 p : {glm::ivec2(8, 24), glm::ivec2(32, 32), glm::ivec2(60, 50), glm::ivec2(20, 63),
                         glm::ivec2(50, 30), glm::ivec2(4, 40)}) {
        double nDotV = (p.x + 0.5) / n, roughness = (p.y + 0.5) / n;
        glm::dvec2 reference = brdfReference(nDotV, roughness);
        std::size_t i = (std::size_t(p.y) * n + std::size_t(p.x)) * 4;
        EXPECT_NEAR(lut[i], reference.x, 0.01) << "scale at n.v " << nDotV << ", roughness " << roughness;
        EXPECT_NEAR(lut[i + 1], reference.y, 0.01) << "bias at n.v " << nDotV << ", roughness " << roughness;
        EXPECT_LE(reference.x + reference.y, 1.0 + 1e-3) << "energy";
    }
}

struct EnvironmentScene
{
    fs::path folder;
    scene::Scene scene;
};

EnvironmentScene writeScene(const std::string& name, const image::ImageF& map, const std::string& extra)
{
    EnvironmentScene out;
    out.folder = testing_support::scratchDir(name);
    image::writeExr(out.folder / "sky.exr", map, image::ExrPixelType::Half);
    {
        std::ofstream file(out.folder / "scene.json");
        file << R"({
  "materials": { "grey": { "baseColor": [0.5, 0.5, 0.5], "roughness": 1.0 } },
)" << extra << "\n}\n";
    }
    out.scene = scene::loadSceneFile(out.folder / "scene.json");
    return out;
}

// The background the renderer should show in `direction`: the stored map times the intensity, except
// inside the masked sun cone, which shows the analytic disc (when drawn) or the map at the cone's
// rim, one map texel further out, along the same bearing from the sun.
glm::vec3 expectedBackground(const image::ImageF& stored, const scene::Scene& s, glm::vec3 direction, bool sunDisc)
{
    const scene::EnvironmentMap& environment = *s.sky.environment;
    scene::EnvironmentOptions options = scene::environmentOptionsFor(s);
    glm::vec3 d = glm::normalize(direction);
    if (options.sunMaskDirection) {
        glm::vec3 sun = s.sun.direction();
        float cone = scene::maskedSunConeRadians(options, stored.height);
        float cosToSun = glm::dot(d, sun);
        if (cosToSun >= std::cos(cone)) {
            double discRadius = s.sun.angularRadiusDegrees * kPi / 180.0;
            if (sunDisc && cosToSun >= std::cos(float(discRadius)))
                return s.sun.color * float(s.sun.illuminance / (2.0 * kPi * (1.0 - std::cos(discRadius))));
            float rim = cone + float(kPi) / float(stored.height);
            d = std::cos(rim) * sun + std::sin(rim) * glm::normalize(d - cosToSun * sun);
        }
    }
    return bilinear(stored, scene::equirectUv(scene::worldToMap(d, environment.rotationDegrees))) *
           environment.intensity;
}

glm::vec3 pixelDirection(const scene::Camera& camera, glm::ivec2 size, int x, int y)
{
    glm::mat4 inverse = glm::inverse(camera.projection(float(size.x) / float(size.y)) * camera.view());
    glm::vec2 ndc((x + 0.5f) / size.x * 2.0f - 1.0f, (y + 0.5f) / size.y * 2.0f - 1.0f);
    glm::vec4 farPoint = inverse * glm::vec4(ndc, 1.0f, 1.0f);
    glm::vec4 nearPoint = inverse * glm::vec4(ndc, -1.0f, 1.0f);
    return glm::vec3(farPoint) / farPoint.w - glm::vec3(nearPoint) / nearPoint.w;
}

TEST_F(EnvironmentLightingTest, BackgroundIsTheMapTimesIntensityInTheViewDirection)
{
    image::ImageF map = mapFrom(64, [](glm::vec3 d) { return smoothSky(d) * 1000.0f; });
    // The default sun (elevation 45) is in view: its masked cone is drawn as the rim's sky.
    EnvironmentScene s = writeScene("env-background", map, R"(
  "objects": [ { "type": "box", "position": [0, -50, 0], "size": [1, 1, 1], "material": "grey" } ],
  "sky": { "environment": "sky.exr", "intensity": 2.5, "rotationDegrees": 90 },
  "camera": { "position": [0, 1, 0], "yaw": 30, "pitch": 20, "fov": 70 })");
    scene::SceneRenderer renderer(testing_support::shaderLibrary(), s.scene);
    const glm::ivec2 size(48, 32);
    renderer.resize(size);
    renderer.render(s.scene.camera, {});
    std::vector<float> frame = renderer.hdrTarget().readRgbaFloat();
    // The file is half floats: compare against what was stored.
    image::ImageF stored = image::loadHdrImage(s.folder / "sky.exr");
    float coneCosine = std::cos(scene::maskedSunConeRadians(scene::environmentOptionsFor(s.scene), stored.height));
    int insideCone = 0;
    for (int y = 0; y < size.y; ++y)
        for (int x = 0; x < size.x; ++x) {
            glm::vec3 direction = pixelDirection(s.scene.camera, size, x, y);
            insideCone += glm::dot(glm::normalize(direction), s.scene.sun.direction()) >= coneCosine ? 1 : 0;
            glm::vec3 expected = expectedBackground(stored, s.scene, direction, true);
            glm::vec3 actual = gpuTexel(frame, size, x, y);
            ASSERT_TRUE(std::isfinite(actual.x) && std::isfinite(actual.y) && std::isfinite(actual.z));
            expectNear(glm::dvec3(actual), glm::dvec3(expected), 2e-3,
                       "pixel " + std::to_string(x) + "," + std::to_string(y));
        }
    EXPECT_GT(insideCone, 0) << "the view should cross the masked sun cone";
    fs::remove_all(s.folder);
}

TEST_F(EnvironmentLightingTest, TheVisibleSunIsTheAnalyticDiscAndCanBeHidden)
{
    // A map with its own bright sun where the analytic sun is: the background shows the analytic
    // disc (the light that casts the shadows), and without the disc the map's sun is gone too.
    glm::vec3 towardsSun = scene::Sun{30.0f, 40.0f}.direction();
    image::ImageF map = mapFrom(512, [&](glm::vec3 d) {
        return glm::dot(d, towardsSun) > std::cos(glm::radians(1.0f)) ? glm::vec3(6.0e4f)
                                                                      : glm::vec3(smoothSky(d) * 100.0f);
    });
    EnvironmentScene s = writeScene("env-sun", map, R"(
  "objects": [ { "type": "box", "position": [0, -50, 0], "size": [1, 1, 1], "material": "grey" } ],
  "sun": { "azimuth": 30, "elevation": 40, "illuminance": 80000 },
  "sky": { "environment": "sky.exr" },
  "camera": { "position": [0, 1, 0], "yaw": 30, "pitch": 40, "fov": 8 })");
    image::ImageF stored = image::loadHdrImage(s.folder / "sky.exr");
    scene::SceneRenderer renderer(testing_support::shaderLibrary(), s.scene);
    const glm::ivec2 size(33, 33);
    renderer.resize(size);
    for (bool disc : {true, false}) {
        SCOPED_TRACE(disc ? "with the disc" : "without the disc");
        scene::RenderOptions options;
        options.drawSunDisc = disc;
        renderer.render(s.scene.camera, options);
        std::vector<float> frame = renderer.hdrTarget().readRgbaFloat();
        float brightest = 0.0f;
        for (int y = 0; y < size.y; ++y)
            for (int x = 0; x < size.x; ++x) {
                glm::vec3 direction = pixelDirection(s.scene.camera, size, x, y);
                glm::vec3 expected = expectedBackground(stored, s.scene, direction, disc);
                glm::vec3 actual = gpuTexel(frame, size, x, y);
                brightest = std::max(brightest, actual.y);
                // Near the sun's centre the bearing (hence which rim texel) is float noise: only the
                // brightness check below applies there.
                float cosToSun = glm::dot(glm::normalize(direction), s.scene.sun.direction());
                if (!disc && cosToSun >= std::cos(glm::radians(s.scene.sun.angularRadiusDegrees)))
                    continue;
                // The renderer computes the disc's 1 - cos(r) in float (0.3% off at r = 0.265 deg).
                double tolerance = expected.y > 1.0e8f ? 1e-2 : 2e-3;
                expectNear(glm::dvec3(actual), glm::dvec3(expected), tolerance,
                           "pixel " + std::to_string(x) + "," + std::to_string(y));
            }
        // The centre pixel looks at the sun: the analytic disc's 1e9 cd/m², or only sky.
        if (disc)
            EXPECT_GT(brightest, 1.0e9f);
        else
            EXPECT_LT(brightest, 1000.0f);
    }
    fs::remove_all(s.folder);
}

TEST_F(EnvironmentLightingTest, DiffusePlaneUnderAUniformSkyGetsAlbedoTimesRadiance)
{
    // No sun: a grey (0.5) rough plane under a uniform 100 cd/m² sky shows 0.5 * 100 from the
    // diffuse term plus a few percent of specular (F0 0.04).
    image::ImageF map = mapFrom(32, [](glm::vec3) { return glm::vec3(100.0f); });
    EnvironmentScene s = writeScene("env-plane", map, R"(
  "objects": [ { "type": "plane", "size": [200, 200], "material": "grey" } ],
  "sun": { "illuminance": 0 },
  "sky": { "environment": "sky.exr" },
  "camera": { "position": [0, 2, 0], "yaw": 0, "pitch": -60, "fov": 40 })");
    scene::SceneRenderer renderer(testing_support::shaderLibrary(), s.scene);
    const glm::ivec2 size(32, 32);
    renderer.resize(size);
    renderer.render(s.scene.camera, {});
    std::vector<float> frame = renderer.hdrTarget().readRgbaFloat();
    for (std::size_t i = 0; i < frame.size(); i += 4) {
        ASSERT_TRUE(std::isfinite(frame[i]) && std::isfinite(frame[i + 1]) && std::isfinite(frame[i + 2]));
        EXPECT_GE(frame[i + 1], 50.0f * 0.99f) << "pixel " << i / 4;
        EXPECT_LE(frame[i + 1], 50.0f * 1.12f) << "pixel " << i / 4;
    }
    fs::remove_all(s.folder);
}

TEST_F(EnvironmentLightingTest, ASunFoundInTheMapLightsLikeTheSameSunStated)
{
    // A map with its own sun, lit through "fromEnvironment", against the same map without the sun
    // and the analytic sun stated where the renderer found it: the same picture (the map's sun is
    // masked out of the image-based light, so it is counted once), shadows included.
    const glm::vec3 towardsSun = scene::Sun{30.0f, 40.0f}.direction();
    const float cosDisc = std::cos(glm::radians(1.0f));
    image::ImageF withSun =
        mapFrom(512, [&](glm::vec3 d) { return glm::vec3(glm::dot(d, towardsSun) > cosDisc ? 6.0e4f : 1.0f); });
    image::ImageF sunless = mapFrom(512, [](glm::vec3) { return glm::vec3(1.0f); });
    const std::string geometry = R"(
  "objects": [ { "type": "plane", "size": [40, 40], "material": "grey", "castsShadow": false },
               { "type": "box", "position": [0, 0.5, -3], "size": [1, 1, 1], "material": "grey" } ],
  "camera": { "position": [0, 4, 2], "yaw": 0, "pitch": -55, "fov": 50 },)";
    EnvironmentScene found = writeScene("env-found-sun", withSun, geometry + R"(
  "sun": { "fromEnvironment": true },
  "sky": { "environment": "sky.exr", "intensity": 100 })");
    scene::SceneRenderer foundRenderer(testing_support::shaderLibrary(), found.scene);
    const scene::Sun& sun = foundRenderer.sun();
    EXPECT_NEAR(sun.azimuthDegrees, 30.0f, 0.3f);
    EXPECT_NEAR(sun.elevationDegrees, 40.0f, 0.3f);
    EXPECT_NEAR(sun.angularRadiusDegrees, 1.0f, 0.15f);
    // The region's own sum over the stored map in cd/m²; the disc's 1 degree is a few 0.7-degree texels.
    std::optional<scene::EnvironmentSunEstimate> estimate =
        scene::findEnvironmentSun(image::loadHdrImage(found.folder / "sky.exr"));
    ASSERT_TRUE(estimate.has_value());
    EXPECT_NEAR(sun.illuminance, 100.0 * estimate->luminance(), 1e-4 * sun.illuminance) << "times the intensity";
    const double discIlluminance = 6.0e6 * 2.0 * kPi * (1.0 - cosDisc);
    EXPECT_NEAR(sun.illuminance, discIlluminance, 0.25 * discIlluminance);

    char stated[256];
    std::snprintf(stated, sizeof(stated),
                  R"( "sun": { "azimuth": %.9g, "elevation": %.9g, "illuminance": %.9g, "angularRadius": %.9g },)",
                  double(sun.azimuthDegrees), double(sun.elevationDegrees), double(sun.illuminance),
                  double(sun.angularRadiusDegrees));
    EnvironmentScene given = writeScene("env-stated-sun", sunless, geometry + stated + R"(
  "sky": { "environment": "sky.exr", "intensity": 100 })");
    scene::SceneRenderer givenRenderer(testing_support::shaderLibrary(), given.scene);
    const glm::ivec2 size(40, 30);
    foundRenderer.resize(size);
    givenRenderer.resize(size);
    foundRenderer.render(found.scene.camera, {});
    givenRenderer.render(given.scene.camera, {});
    std::vector<float> a = foundRenderer.hdrTarget().readRgbaFloat();
    std::vector<float> b = givenRenderer.hdrTarget().readRgbaFloat();
    float darkest = 1e30f, brightest = 0.0f;
    for (std::size_t i = 0; i < a.size(); i += 4) {
        ASSERT_TRUE(std::isfinite(a[i + 1]));
        // The masked cone's sky (3 degrees of radiance 100) is all that differs: well under 1%.
        EXPECT_NEAR(a[i + 1], b[i + 1], 0.01f * b[i + 1]) << "pixel " << i / 4;
        darkest = std::min(darkest, a[i + 1]);
        brightest = std::max(brightest, a[i + 1]);
    }
    // Sunlit grey: 0.5 / pi x 5.7 klx x sin 40 deg plus the sky's 50; in the box's shadow only the sky.
    EXPECT_GT(brightest, 500.0f);
    EXPECT_LT(darkest, 80.0f) << "the box's shadow is in view";
    fs::remove_all(found.folder);
    fs::remove_all(given.folder);
}

TEST_F(EnvironmentLightingTest, AMapWithoutASunCannotGiveTheSun)
{
    EnvironmentScene s = writeScene("env-no-sun", mapFrom(64, smoothSky), R"(
  "objects": [ { "type": "box", "size": [1, 1, 1], "material": "grey" } ],
  "sun": { "fromEnvironment": true },
  "sky": { "environment": "sky.exr" })");
    try {
        scene::SceneRenderer renderer(testing_support::shaderLibrary(), s.scene);
        ADD_FAILURE() << "expected a SceneError";
    } catch (const scene::SceneError& e) {
        std::string what = e.what();
        EXPECT_NE(what.find((s.folder / "scene.json").string() +
                            ":6: \"sun\" asks for the sun of 'sky.exr' (\"fromEnvironment\"), but the map has no "
                            "distinct sun: its brightest texel is only"),
                  std::string::npos)
            << what;
    }
    fs::remove_all(s.folder);
}

TEST_F(EnvironmentLightingTest, ABadMapFailsTheRendererWithTheSceneAndField)
{
    EnvironmentScene s = writeScene("env-bad", mapFrom(16, smoothSky), R"(
  "objects": [ { "type": "box", "size": [1, 1, 1], "material": "grey" } ],
  "sky": { "environment": "missing.exr" })");
    try {
        scene::SceneRenderer renderer(testing_support::shaderLibrary(), s.scene);
        ADD_FAILURE() << "expected a SceneError";
    } catch (const scene::SceneError& e) {
        std::string what = e.what();
        EXPECT_NE(
            what.find((s.folder / "scene.json").string() + ":5: \"environment\" in \"sky\": cannot find 'missing.exr'"),
            std::string::npos)
            << what;
    }
    fs::remove_all(s.folder);
}

}  // namespace
