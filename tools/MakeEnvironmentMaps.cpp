// MakeEnvironmentMaps.cpp: generates the procedural environment maps of assets/ (see
// assets/README.md): an outdoor clear sky over fields and hills, and a room looking out of a
// sunlit window. Equirectangular (scene::equirectDirection), half-float EXR, luminances in cd/m².
//
// The outdoor map holds a sun disc of about 1.3e9 cd/m², which no half float can, so it is stored
// pre-exposed: stored = luminance / 32768 (scenes set "intensity": 32768). The interior map's
// values fit and are stored as they are. Usage: hdrlab_make_environment_maps OUTPUT_FOLDER
#include "image/ImageIo.h"
#include "scene/Camera.h"
#include "scene/EnvironmentLighting.h"

#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <iostream>
#include <numbers>

namespace {

constexpr float kPi = std::numbers::pi_v<float>;

float luminance(glm::vec3 c)
{
    return 0.2126f * c.x + 0.7152f * c.y + 0.0722f * c.z;
}

glm::vec3 hue(glm::vec3 c)
{
    return c / luminance(c);
}

// Value noise on the integer lattice, smoothly interpolated, and its fractal sum.
float lattice(int x, int y, std::uint32_t seed)
{
    std::uint32_t h = std::uint32_t(x) * 0x8da6b343u ^ std::uint32_t(y) * 0xd8163841u ^ seed * 0xcb1ab31fu;
    h ^= h >> 13;
    h *= 0x5bd1e995u;
    h ^= h >> 15;
    return float(h & 0xffffu) / 65535.0f;
}

float valueNoise(float x, float y, std::uint32_t seed)
{
    int ix = int(std::floor(x));
    int iy = int(std::floor(y));
    float fx = x - float(ix);
    float fy = y - float(iy);
    fx = fx * fx * (3.0f - 2.0f * fx);
    fy = fy * fy * (3.0f - 2.0f * fy);
    float a = lattice(ix, iy, seed), b = lattice(ix + 1, iy, seed);
    float c = lattice(ix, iy + 1, seed), d = lattice(ix + 1, iy + 1, seed);
    return (a + (b - a) * fx) + ((c + (d - c) * fx) - (a + (b - a) * fx)) * fy;
}

float fractalNoise(float x, float y, std::uint32_t seed, int octaves)
{
    float sum = 0.0f, amplitude = 0.5f, total = 0.0f;
    for (int i = 0; i < octaves; ++i) {
        sum += amplitude * valueNoise(x, y, seed + std::uint32_t(i));
        total += amplitude;
        x *= 2.03f;
        y *= 2.03f;
        amplitude *= 0.5f;
    }
    return sum / total;
}

/// A clear afternoon: CIE clear sky (as shaders/scene/SkyModel.glsl), sun disc, hills, fields.
struct Outdoor
{
    glm::vec3 towardsSun;
    float sunIlluminance = 90000.0f;  // lux, normal to the sun
    float sunRadius = glm::radians(0.265f);
    float zenithLuminance = 5000.0f;
    glm::vec3 zenithColor = hue({0.55f, 0.75f, 1.25f});
    glm::vec3 horizonColor = hue({0.9f, 1.0f, 1.1f});
    float eyeHeight = 1.6f;

    explicit Outdoor(float azimuthDegrees, float elevationDegrees)
        : towardsSun(scene::directionFromYawPitch(azimuthDegrees, elevationDegrees))
    {
    }

    static float indicatrix(float gamma)
    {
        float c = std::cos(gamma);
        return 1.0f + 10.0f * (std::exp(-3.0f * gamma) - std::exp(-3.0f * kPi / 2.0f)) + 0.45f * c * c;
    }

    glm::vec3 sky(glm::vec3 d) const
    {
        float cosTheta = std::max(d.y, 1e-3f);
        float gamma = std::acos(std::clamp(glm::dot(d, towardsSun), -1.0f, 1.0f));
        float sunZenith = std::acos(std::clamp(towardsSun.y, 0.0f, 1.0f));
        float l = zenithLuminance * indicatrix(gamma) * (1.0f - std::exp(-0.32f / cosTheta)) /
                  (indicatrix(sunZenith) * (1.0f - std::exp(-0.32f)));
        return glm::mix(horizonColor, zenithColor, std::sqrt(cosTheta)) * l;
    }

    // Illuminance of the sky on a horizontal surface, about pi * 1.3 * zenith luminance for this model.
    float skyIlluminance() const { return kPi * 1.3f * zenithLuminance; }

    float hillElevation(float yaw) const
    {
        // Periodic in yaw: noise sampled on a circle.
        float x = 3.0f * std::cos(yaw), y = 3.0f * std::sin(yaw);
        return glm::radians(0.6f + 3.2f * fractalNoise(x + 10.0f, y + 10.0f, 7u, 4));
    }

    /// Radiance seen in direction `d` (unit); `withSun` adds the disc where it covers the direction.
    glm::vec3 radiance(glm::vec3 d, bool withSun) const
    {
        float elevation = std::asin(std::clamp(d.y, -1.0f, 1.0f));
        float yaw = std::atan2(d.x, -d.z);
        float sunHorizontal = sunIlluminance * std::max(towardsSun.y, 0.0f);
        if (elevation < 0.0f) {
            // Fields: patches of grass and dry earth on the ground plane, blurred with distance.
            float t = eyeHeight / std::max(-d.y, 1e-4f);
            float x = d.x * t, z = d.z * t;
            float detail = std::clamp(40.0f / t, 0.0f, 1.0f);
            float patches = fractalNoise(x * 0.04f, z * 0.04f, 3u, 3);
            float fine = 0.5f + (fractalNoise(x * 0.8f, z * 0.8f, 5u, 3) - 0.5f) * detail;
            glm::vec3 grass(0.08f, 0.16f, 0.04f), earth(0.22f, 0.17f, 0.11f);
            glm::vec3 albedo = glm::mix(grass, earth, glm::smoothstep(0.45f, 0.7f, patches)) * (0.75f + 0.5f * fine);
            glm::vec3 ground = albedo * (sunHorizontal + skyIlluminance()) / kPi;
            // Aerial perspective: far ground fades into the horizon haze.
            float haze = 1.0f - std::exp(-t / 3000.0f);
            return glm::mix(ground, horizonColor * zenithLuminance * 1.2f, haze);
        }
        if (elevation < hillElevation(yaw)) {
            // Wooded hills a few km away: lit by the sun on the side facing it, hazy.
            float facing = 0.5f + 0.5f * std::cos(yaw - std::atan2(towardsSun.x, -towardsSun.z));
            float texture = 0.7f + 0.6f * fractalNoise(yaw * 40.0f, elevation * 400.0f, 11u, 3);
            glm::vec3 albedo = glm::vec3(0.05f, 0.09f, 0.04f) * texture;
            glm::vec3 hill = albedo * (sunHorizontal * (0.3f + 0.7f * facing) + skyIlluminance()) / kPi;
            return glm::mix(hill, sky(d), 0.45f);
        }
        glm::vec3 l = sky(d);
        if (withSun) {
            float solidAngle = 2.0f * kPi * (1.0f - std::cos(sunRadius));
            if (glm::dot(d, towardsSun) >= std::cos(sunRadius))
                l += glm::vec3(1.0f, 0.97f, 0.92f) / luminance({1.0f, 0.97f, 0.92f}) * (sunIlluminance / solidAngle);
        }
        return l;
    }
};

/// A 5 m x 6 m room, 2.7 m high, seen from 1.5 m above its floor; a window in the -Z wall looks out
/// on the outdoor scene, the sun falls through it onto the floor. Surfaces are Lambertian, lit by
/// the window (sampled as an area of sky) and the sun patch, plus a constant bounce.
struct Interior
{
    Outdoor outside;
    glm::vec3 eye{0.3f, 1.5f, 0.8f};
    glm::vec3 roomMin{-2.5f, 0.0f, -3.0f};
    glm::vec3 roomMax{2.5f, 2.7f, 3.0f};
    glm::vec2 windowMin{-1.1f, 0.9f};  // x, y on the z = -3 wall
    glm::vec2 windowMax{1.1f, 2.3f};

    Interior() : outside(20.0f, 40.0f) {}

    bool inWindow(float x, float y) const
    {
        bool opening = x > windowMin.x && x < windowMax.x && y > windowMin.y && y < windowMax.y;
        bool mullion = std::abs(x - 0.5f * (windowMin.x + windowMax.x)) < 0.03f || std::abs(y - 1.85f) < 0.03f;
        return opening && !mullion;
    }

    // Illuminance at `p` with normal `n` from the window opening (sky and landscape through it) and the sun.
    float illuminance(glm::vec3 p, glm::vec3 n) const
    {
        constexpr int kSamplesX = 8, kSamplesY = 5;
        glm::vec2 extent = windowMax - windowMin;
        float area = extent.x * extent.y / float(kSamplesX * kSamplesY);
        float e = 0.0f;
        for (int j = 0; j < kSamplesY; ++j)
            for (int i = 0; i < kSamplesX; ++i) {
                glm::vec3 w(windowMin.x + extent.x * (float(i) + 0.5f) / kSamplesX,
                            windowMin.y + extent.y * (float(j) + 0.5f) / kSamplesY, roomMin.z);
                glm::vec3 toWindow = w - p;
                float r2 = glm::dot(toWindow, toWindow);
                glm::vec3 dir = toWindow / std::sqrt(r2);
                float cosSurface = glm::dot(n, dir);
                float cosWindow = -dir.z;
                if (cosSurface <= 0.0f || cosWindow <= 0.0f)
                    continue;
                e += luminance(outside.radiance(dir, false)) * cosSurface * cosWindow * area / r2;
            }
        // The sun patch: the ray towards the sun leaves through the window.
        glm::vec3 s = outside.towardsSun;
        float cosSun = glm::dot(n, s);
        if (cosSun > 0.0f && s.z < 0.0f) {
            float t = (roomMin.z - p.z) / s.z;
            glm::vec3 q = p + s * t;
            if (t > 0.0f && inWindow(q.x, q.y))
                e += outside.sunIlluminance * cosSun;
        }
        return e + 150.0f;  // bounce light from the rest of the room (the sunlit floor patch above all)
    }

    glm::vec3 radiance(glm::vec3 d) const
    {
        // The nearest wall the ray from the eye hits.
        float tBest = 1e30f;
        int axis = 0;
        for (int a = 0; a < 3; ++a) {
            if (std::abs(d[a]) < 1e-6f)
                continue;
            float t = ((d[a] > 0.0f ? roomMax[a] : roomMin[a]) - eye[a]) / d[a];
            if (t > 0.0f && t < tBest) {
                tBest = t;
                axis = a;
            }
        }
        glm::vec3 p = eye + d * tBest;
        glm::vec3 n(0.0f);
        n[axis] = d[axis] > 0.0f ? -1.0f : 1.0f;
        if (axis == 2 && d.z < 0.0f && inWindow(p.x, p.y))
            return outside.radiance(d, true);
        glm::vec3 albedo(0.62f, 0.6f, 0.55f);  // plaster walls
        if (axis == 1 && n.y > 0.0f) {
            // Oak floor boards 0.14 m wide along x, each a little different.
            int board = int(std::floor(p.z / 0.14f));
            float grain = 0.85f + 0.3f * lattice(board, 0, 17u) + 0.1f * valueNoise(p.x * 3.0f, float(board), 19u);
            albedo = glm::vec3(0.30f, 0.19f, 0.10f) * grain;
        } else if (axis == 1) {
            albedo = glm::vec3(0.78f, 0.78f, 0.76f);  // ceiling
        } else if (axis == 0 && n.x < 0.0f && p.z > -0.5f && p.z < 0.4f && p.y < 2.05f) {
            albedo = glm::vec3(0.25f, 0.16f, 0.09f);  // a wooden door on the +X wall
        } else if (axis == 2 && n.z < 0.0f && std::abs(p.x + 0.4f) < 0.6f && std::abs(p.y - 1.55f) < 0.4f) {
            albedo = glm::vec3(0.15f, 0.25f, 0.4f);  // a painting on the back wall
        }
        return albedo * illuminance(p, n) / kPi;
    }
};

template <typename Radiance>
image::ImageF render(int width, Radiance radiance, float scale)
{
    constexpr int kSub = 4;  // 4x4 supersampling: the sun disc's energy lands in its texels
    int height = width / 2;
    image::ImageF out(width, height);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            glm::vec3 sum(0.0f);
            for (int sy = 0; sy < kSub; ++sy)
                for (int sx = 0; sx < kSub; ++sx) {
                    glm::vec2 uv((float(x) + (float(sx) + 0.5f) / kSub) / float(width),
                                 (float(y) + (float(sy) + 0.5f) / kSub) / float(height));
                    sum += radiance(scene::equirectDirection(uv));
                }
            float* texel = out.at(x, y);
            glm::vec3 value = sum / float(kSub * kSub) * scale;
            texel[0] = value.x;
            texel[1] = value.y;
            texel[2] = value.z;
            texel[3] = 1.0f;
        }
    return out;
}

// One line per map for assets/README.md: size and the luminance range it holds.
void report(const std::filesystem::path& file, const image::ImageF& map, float scale)
{
    float lo = 1e30f, hi = 0.0f, stored = 0.0f;
    for (std::size_t i = 0; i < map.pixels.size(); i += 4) {
        float l = luminance({map.pixels[i], map.pixels[i + 1], map.pixels[i + 2]});
        lo = std::min(lo, l / scale);
        hi = std::max(hi, l / scale);
        stored = std::max({stored, map.pixels[i], map.pixels[i + 1], map.pixels[i + 2]});
    }
    std::cout << file.filename().string() << ": " << map.width << "x" << map.height << ", luminance " << lo << " to "
              << hi << " cd/m2, largest stored value " << stored << ", " << std::filesystem::file_size(file)
              << " bytes\n";
}

}  // namespace

int main(int argc, char** argv)
{
    if (argc != 2) {
        std::cerr << "usage: hdrlab_make_environment_maps OUTPUT_FOLDER\n";
        return 2;
    }
    try {
        std::filesystem::path folder(argv[1]);
        std::filesystem::create_directories(folder);
        Outdoor outdoor(30.0f, 35.0f);
        const float outdoorScale = 1.0f / 32768.0f;
        image::ImageF sky = render(
            1024, [&](glm::vec3 d) { return outdoor.radiance(d, true); }, outdoorScale);
        image::writeExr(folder / "outdoor-clear-sky.exr", sky);
        report(folder / "outdoor-clear-sky.exr", sky, outdoorScale);
        Interior interior;
        image::ImageF room = render(
            1024, [&](glm::vec3 d) { return interior.radiance(d); }, 1.0f);
        image::writeExr(folder / "interior-window.exr", room);
        report(folder / "interior-window.exr", room, 1.0f);
    } catch (const std::exception& error) {
        std::cerr << "hdrlab_make_environment_maps: " << error.what() << "\n";
        return 1;
    }
    return 0;
}
