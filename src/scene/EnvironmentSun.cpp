// EnvironmentSun.cpp: the brightest region of an environment map as the scene's sun (see
// EnvironmentSun.h).
#include "scene/EnvironmentSun.h"

#include "scene/EnvironmentLighting.h"
#include "scene/Scene.h"
#include "util/Log.h"
#include "util/PrintableText.h"

#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <sstream>
#include <vector>

namespace scene {
namespace {

constexpr double kPi = std::numbers::pi;
// The median only places the threshold; every 7th texel estimates it well and bounds the cost of
// an 8192x4096 map (a prime stride, so it does not alias with rows).
constexpr std::size_t kMedianStride = 7;

double luminanceOf(const float* texel)
{
    return 0.2126 * double(texel[0]) + 0.7152 * double(texel[1]) + 0.0722 * double(texel[2]);
}

glm::vec3 texelDirection(const image::ImageF& map, int x, int y)
{
    return equirectDirection({(float(x) + 0.5f) / float(map.width), (float(y) + 0.5f) / float(map.height)});
}

std::string formatNumber(double value)
{
    std::ostringstream out;
    out.precision(3);
    out << value;
    return out.str();
}

}  // namespace

double EnvironmentSunEstimate::luminance() const
{
    return 0.2126 * illuminance.x + 0.7152 * illuminance.y + 0.0722 * illuminance.z;
}

double EnvironmentSunEstimate::angularRadiusRadians() const
{
    // A cone of half-angle r covers 2 pi (1 - cos r).
    return std::acos(std::clamp(1.0 - solidAngle / (2.0 * kPi), -1.0, 1.0));
}

std::optional<EnvironmentSunEstimate> findEnvironmentSun(const image::ImageF& map, std::string* why)
{
    auto fail = [&](const std::string& reason) -> std::optional<EnvironmentSunEstimate> {
        if (why)
            *why = reason;
        return std::nullopt;
    };
    if (map.width < 2 || map.height < 1 || map.pixels.size() < std::size_t(map.width) * std::size_t(map.height) * 4)
        return fail("the map is empty");
    const std::size_t count = std::size_t(map.width) * std::size_t(map.height);
    std::vector<double> sampled;
    sampled.reserve(count / kMedianStride + 1);
    std::size_t peakIndex = 0;
    double peak = -1.0;
    for (std::size_t i = 0; i < count; ++i) {
        double l = luminanceOf(&map.pixels[i * 4]);
        if (i % kMedianStride == 0)
            sampled.push_back(l);
        if (l > peak) {
            peak = l;
            peakIndex = i;
        }
    }
    auto middle = sampled.begin() + std::ptrdiff_t(sampled.size() / 2);
    std::nth_element(sampled.begin(), middle, sampled.end());
    const double median = *middle;
    if (!(peak > 0.0))
        return fail("the map is black");
    if (!(peak >= kMinSunContrast * median))
        return fail("its brightest texel is only " + formatNumber(median > 0.0 ? peak / median : 0.0) +
                    " times its median luminance (a sun is at least " + formatNumber(kMinSunContrast) + " times)");

    const double threshold = std::sqrt(peak * std::max(median, peak * 1e-12));
    const int peakX = int(peakIndex % std::size_t(map.width));
    const int peakY = int(peakIndex / std::size_t(map.width));
    const glm::vec3 peakDirection = texelDirection(map, peakX, peakY);
    const float cosMaxRegion = float(std::cos(kMaxSunRegionDegrees * kPi / 180.0));

    std::vector<unsigned char> visited(count, 0);
    std::vector<std::size_t> stack{peakIndex};
    std::vector<std::size_t> region;
    visited[peakIndex] = 1;
    while (!stack.empty()) {
        std::size_t i = stack.back();
        stack.pop_back();
        region.push_back(i);
        int x = int(i % std::size_t(map.width));
        int y = int(i / std::size_t(map.width));
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
                int ny = y + dy;
                if ((dx == 0 && dy == 0) || ny < 0 || ny >= map.height)
                    continue;
                int nx = (x + dx + map.width) % map.width;  // yaw wraps around
                std::size_t j = std::size_t(ny) * std::size_t(map.width) + std::size_t(nx);
                if (visited[j])
                    continue;
                visited[j] = 1;
                if (luminanceOf(&map.pixels[j * 4]) >= threshold &&
                    glm::dot(texelDirection(map, nx, ny), peakDirection) >= cosMaxRegion)
                    stack.push_back(j);
            }
    }

    EnvironmentSunEstimate estimate;
    glm::dvec3 weightedDirection(0.0);
    for (std::size_t i : region) {
        int x = int(i % std::size_t(map.width));
        int y = int(i / std::size_t(map.width));
        const float* texel = &map.pixels[i * 4];
        double omega = equirectTexelSolidAngle(y, map.width, map.height);
        estimate.solidAngle += omega;
        estimate.illuminance += glm::dvec3(texel[0], texel[1], texel[2]) * omega;
        weightedDirection += glm::dvec3(texelDirection(map, x, y)) * (luminanceOf(texel) * omega);
    }
    estimate.mapDirection = glm::vec3(glm::normalize(weightedDirection));
    for (std::size_t i : region) {
        glm::vec3 d = texelDirection(map, int(i % std::size_t(map.width)), int(i / std::size_t(map.width)));
        double angle = std::acos(std::clamp(double(glm::dot(d, estimate.mapDirection)), -1.0, 1.0));
        estimate.extentRadians = std::max(estimate.extentRadians, angle);
    }
    estimate.texels = int(region.size());
    estimate.peakLuminance = peak;
    estimate.medianLuminance = median;
    return estimate;
}

void applyEnvironmentSun(Sun& sun, const EnvironmentSunEstimate& estimate, float rotationDegrees)
{
    // The renderer shows map direction d at world worldToMap^-1(d): turning back by -rotation.
    glm::vec3 world = glm::normalize(worldToMap(estimate.mapDirection, -rotationDegrees));
    sun.elevationDegrees = float(glm::degrees(std::asin(std::clamp(double(world.y), -1.0, 1.0))));
    sun.azimuthDegrees = float(glm::degrees(std::atan2(double(world.x), double(-world.z))));
    sun.angularRadiusDegrees = float(glm::degrees(estimate.angularRadiusRadians()));
    sun.maskExtentDegrees = float(glm::degrees(estimate.extentRadians));
    double luminance = estimate.luminance();
    if (luminance > 0.0)
        sun.color = glm::vec3(estimate.illuminance / luminance);
    if (sun.measureIlluminance)
        sun.illuminance = float(luminance);
}

void takeSunFromEnvironment(Scene& scene, const image::ImageF& map)
{
    const EnvironmentMap& environment = *scene.sky.environment;
    std::string why;
    std::optional<EnvironmentSunEstimate> estimate = findEnvironmentSun(map, &why);
    if (!estimate)
        throw SceneError(util::escapeControlCharacters(scene.sourceName) + ":" + std::to_string(environment.line) +
                         ": \"sun\" asks for the sun of '" +
                         util::escapeControlCharacters(environment.path, false, 400) +
                         "' (\"fromEnvironment\"), but the map has no distinct sun: " + why);
    applyEnvironmentSun(scene.sun, *estimate, environment.rotationDegrees);
    const Sun& sun = scene.sun;
    util::logDebug(
        "sun of '{}': azimuth {}, elevation {}, angular radius {} (region {} texels, extent {} deg), "
        "measured {} lux{}",
        util::escapeControlCharacters(environment.path), sun.azimuthDegrees, sun.elevationDegrees,
        sun.angularRadiusDegrees, estimate->texels, sun.maskExtentDegrees, estimate->luminance(),
        sun.measureIlluminance ? "" : util::format(" (the scene states {})", sun.illuminance));
}

}  // namespace scene
