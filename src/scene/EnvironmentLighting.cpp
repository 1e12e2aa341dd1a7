// EnvironmentLighting.cpp: loading an environment map for a scene and prefiltering it on the GPU
// (see EnvironmentLighting.h).
#include "scene/EnvironmentLighting.h"

#include "gl/Debug.h"
#include "image/ImageIo.h"
#include "scene/Scene.h"
#include "util/PrintableText.h"

#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>
#include <glm/vec4.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <system_error>

namespace scene {
namespace {

constexpr double kPi = std::numbers::pi;
// Beyond the sun's own radius, the circumsolar glow a map bakes around the disc also goes to the
// analytic sun (it is mostly forward-scattered sunlight).
constexpr float kSunMaskMarginDegrees = 2.0f;
constexpr int kIrradianceSourceMaxWidth = 128;

GLuint groupsFor(int size)
{
    return GLuint((size + 7) / 8);
}

[[noreturn]] void failField(const Scene& scene, const std::string& what)
{
    const EnvironmentMap& map = *scene.sky.environment;
    throw SceneError(util::escapeControlCharacters(scene.sourceName) + ":" + std::to_string(map.line) +
                     ": \"environment\" in \"sky\": " + util::escapeControlCharacters(what, false, 400));
}

}  // namespace

glm::vec3 equirectDirection(glm::vec2 uv)
{
    double yaw = (double(uv.x) - 0.5) * 2.0 * kPi;
    double theta = double(uv.y) * kPi;
    return glm::vec3(float(std::sin(theta) * std::sin(yaw)), float(std::cos(theta)),
                     float(-std::sin(theta) * std::cos(yaw)));
}

glm::vec2 equirectUv(glm::vec3 d)
{
    d = glm::normalize(d);
    double yaw = std::atan2(double(d.x), double(-d.z));
    double u = 0.5 + yaw / (2.0 * kPi);
    if (u >= 1.0)
        u -= 1.0;
    return glm::vec2(float(u), float(std::acos(std::clamp(double(d.y), -1.0, 1.0)) / kPi));
}

glm::vec3 worldToMap(glm::vec3 d, float rotationDegrees)
{
    // Turning the map by +yaw shows a map direction of yaw a at world yaw a + rotation.
    float c = std::cos(glm::radians(rotationDegrees));
    float s = std::sin(glm::radians(rotationDegrees));
    return glm::vec3(d.x * c + d.z * s, d.y, d.z * c - d.x * s);
}

double equirectTexelSolidAngle(int row, int width, int height)
{
    return 2.0 * kPi / double(width) *
           (std::cos(double(row) * kPi / double(height)) - std::cos(double(row + 1) * kPi / double(height)));
}

std::filesystem::path resolveEnvironmentPath(const Scene& scene, const std::filesystem::path& dataRoot)
{
    const EnvironmentMap& map = *scene.sky.environment;
    std::filesystem::path path(map.path);
    if (path.is_absolute())
        return path;
    std::error_code ec;
    if (!map.sceneFolder.empty() && std::filesystem::exists(map.sceneFolder / path, ec))
        return map.sceneFolder / path;
    return dataRoot / path;
}

image::ImageF loadEnvironmentImage(const Scene& scene, const std::filesystem::path& dataRoot)
{
    const EnvironmentMap& map = *scene.sky.environment;
    std::filesystem::path path = resolveEnvironmentPath(scene, dataRoot);
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
        std::string where = "'" + path.string() + "'";
        if (!std::filesystem::path(map.path).is_absolute() && !map.sceneFolder.empty())
            where = "'" + (map.sceneFolder / map.path).string() + "' or " + where;
        failField(scene, "cannot find '" + map.path + "' (looked for " + where + ")");
    }
    image::ImageF image;
    try {
        image = image::loadHdrImage(path);
    } catch (const std::exception& error) {
        failField(scene, error.what());
    }
    if (image.width != 2 * image.height)
        failField(scene, "'" + path.string() + "' is " + std::to_string(image.width) + "x" +
                             std::to_string(image.height) +
                             "; an equirectangular map must be twice as wide as it is high");
    if (image.width < kMinEnvironmentWidth || image.width > kMaxEnvironmentWidth)
        failField(scene, "'" + path.string() + "' is " + std::to_string(image.width) + "x" +
                             std::to_string(image.height) + "; environment maps must be from " +
                             std::to_string(kMinEnvironmentWidth) + "x" + std::to_string(kMinEnvironmentWidth / 2) +
                             " to " + std::to_string(kMaxEnvironmentWidth) + "x" +
                             std::to_string(kMaxEnvironmentWidth / 2));
    std::size_t bad = 0;
    std::size_t overflow = 0;
    for (std::size_t i = 0; i < image.pixels.size(); i += 4) {
        for (std::size_t c = 0; c < 3; ++c) {
            float& v = image.pixels[i + c];
            if (!std::isfinite(v) || v < 0.0f) {
                ++bad;
                continue;
            }
            v *= map.intensity;
            overflow += std::isfinite(v) ? 0 : 1;
        }
        image.pixels[i + 3] = 1.0f;
    }
    if (bad > 0)
        failField(scene, "'" + path.string() + "' holds " + std::to_string(bad) +
                             " NaN, infinite or negative colour values (a half-float file stores values above "
                             "65504 as infinity: pre-expose the map and set \"intensity\", or store floats)");
    if (overflow > 0)
        failField(scene, "\"intensity\" scales " + std::to_string(overflow) + " values of '" + path.string() +
                             "' beyond the float range");
    return image;
}

void maskCone(image::ImageF& map, glm::vec3 mapDirection, float coneRadians)
{
    glm::vec3 centre = glm::normalize(mapDirection);
    float cosLimit = std::cos(coneRadians);
    for (int y = 0; y < map.height; ++y)
        for (int x = 0; x < map.width; ++x) {
            glm::vec3 d =
                equirectDirection({(float(x) + 0.5f) / float(map.width), (float(y) + 0.5f) / float(map.height)});
            if (glm::dot(d, centre) >= cosLimit) {
                float* texel = map.at(x, y);
                texel[0] = texel[1] = texel[2] = 0.0f;
            }
        }
}

EnvironmentOptions environmentOptionsFor(const Scene& scene)
{
    EnvironmentOptions options;
    if (!scene.sky.environment)
        return options;
    options.rotationDegrees = scene.sky.environment->rotationDegrees;
    if (scene.sun.elevationDegrees > 0.0f && scene.sun.illuminance > 0.0f) {
        options.sunMaskDirection = worldToMap(scene.sun.direction(), options.rotationDegrees);
        // A sun taken from the map covers its whole bright region, which may reach past the disc
        // of equal solid angle (EnvironmentSun.h).
        float radius = std::max(scene.sun.angularRadiusDegrees, scene.sun.maskExtentDegrees);
        options.sunMaskRadians = glm::radians(radius + kSunMaskMarginDegrees);
    }
    return options;
}

float maskedSunConeRadians(const EnvironmentOptions& options, int mapHeight)
{
    // Half a texel more, so a sun smaller than a texel cannot slip between texel centres.
    return options.sunMaskRadians + float(kPi) / float(std::max(mapHeight, 1));
}

EnvironmentLighting::EnvironmentLighting(const gl::ShaderLibrary& shaders,
                                         const image::ImageF& map,
                                         const EnvironmentOptions& options)
{
    gl::DebugGroup group("scene/environment-prefilter");
    glm::ivec2 size(map.width, map.height);
    mBackground = gl::Texture("scene.environment.background", GL_RGBA32F, size);
    mBackground.upload(GL_RGBA, GL_FLOAT, map.pixels.data());
    mBackground.setWrap(GL_CLAMP_TO_EDGE);
    glTextureParameteri(mBackground.id(), GL_TEXTURE_WRAP_S, GL_REPEAT);  // yaw wraps around

    image::ImageF lit = map;
    float maskRadians = maskedSunConeRadians(options, map.height);
    if (options.sunMaskDirection)
        maskCone(lit, *options.sunMaskDirection, maskRadians);
    mSource = gl::Texture("scene.environment.source", GL_RGBA32F, size, gl::mipLevelCount(size));
    mSource.upload(GL_RGBA, GL_FLOAT, lit.pixels.data());
    glTextureParameteri(mSource.id(), GL_TEXTURE_WRAP_S, GL_REPEAT);
    glGenerateTextureMipmap(mSource.id());
    mSource.bindUnit(0);

    // Irradiance: direct summation over the smallest level still at least 128 texels wide (or 0).
    int sourceLevel = 0;
    while ((map.width >> (sourceLevel + 1)) >= kIrradianceSourceMaxWidth)
        ++sourceLevel;
    mIrradiance = gl::Texture("scene.environment.irradiance", GL_RGBA32F, kIrradianceSize);
    glTextureParameteri(mIrradiance.id(), GL_TEXTURE_WRAP_S, GL_REPEAT);
    gl::Program irradiance = shaders.buildCompute("scene.environment.irradiance", "scene/EnvironmentIrradiance.comp");
    irradiance.use();
    irradiance.set(0, sourceLevel);
    mIrradiance.bindImage(0, GL_WRITE_ONLY);
    glDispatchCompute(groupsFor(kIrradianceSize.x), groupsFor(kIrradianceSize.y), 1);

    // Specular: level i at perceptual roughness i / (levels - 1), read from the masked source.
    mSpecular = gl::Texture("scene.environment.specular", GL_RGBA32F, kSpecularSize, kSpecularLevels);
    glTextureParameteri(mSpecular.id(), GL_TEXTURE_WRAP_S, GL_REPEAT);
    gl::Program prefilter = shaders.buildCompute("scene.environment.prefilter", "scene/EnvironmentPrefilter.comp");
    prefilter.use();
    prefilter.set(1, kSpecularSamples);
    for (int level = 0; level < kSpecularLevels; ++level) {
        glm::ivec2 levelSize = glm::max(kSpecularSize >> level, glm::ivec2(1));
        prefilter.set(0, float(level) / float(kSpecularLevels - 1));
        mSpecular.bindImage(0, GL_WRITE_ONLY, level);
        glDispatchCompute(groupsFor(levelSize.x), groupsFor(levelSize.y), 1);
    }

    mBrdfLut = gl::Texture("scene.environment.brdfLut", GL_RG16F, glm::ivec2(kBrdfLutSize));
    gl::Program brdf = shaders.buildCompute("scene.environment.brdf", "scene/EnvironmentBrdf.comp");
    brdf.use();
    brdf.set(0, kBrdfSamples);
    mBrdfLut.bindImage(0, GL_WRITE_ONLY);
    glDispatchCompute(groupsFor(kBrdfLutSize), groupsFor(kBrdfLutSize), 1);
    glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT);
    glUseProgram(0);

    // The source is only needed by the prefilter; keep the lighting maps and the background.
    mSource = gl::Texture();
    float rotation = glm::radians(options.rotationDegrees);
    // w: the background shader swaps the map's sun for the analytic one inside the same cone.
    float maskCosine = options.sunMaskDirection ? std::cos(maskRadians) : 2.0f;
    glm::vec4 block(std::cos(rotation), std::sin(rotation), float(kSpecularLevels - 1), maskCosine);
    mBlock = gl::Buffer("scene.environment.block", sizeof(block), &block);
}

void EnvironmentLighting::bind() const
{
    mIrradiance.bindUnit(kIrradianceUnit);
    mSpecular.bindUnit(kSpecularUnit);
    mBrdfLut.bindUnit(kBrdfUnit);
    mBackground.bindUnit(kBackgroundUnit);
    mBlock.bindBase(GL_UNIFORM_BUFFER, kBlockBinding);
}

}  // namespace scene
