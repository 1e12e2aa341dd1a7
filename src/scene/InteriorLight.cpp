// InteriorLight.cpp: the interior's indirect light, its uniform block and its CPU twin (see
// InteriorLight.h).
#include "scene/InteriorLight.h"

#include "scene/PrimitiveMesh.h"

#include <glm/geometric.hpp>
#include <glm/vec4.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numbers>

namespace scene {
namespace {

constexpr double kPi = std::numbers::pi;
// Surfaces on the room's walls lie on its box: they count as inside within this margin (m).
constexpr float kInsideMargin = 0.05f;
// A corner must be this far (m) above a surface to light it: a polygon in the surface's own plane
// (the sun patch on the floor it lies on, a window in its wall) gives nothing.
constexpr float kHorizonOffset = 1e-4f;

// std140 mirror of the InteriorFrame block in shaders/scene/InteriorLight.glsl (vec4s only).
struct InteriorBlock
{
    glm::vec4 min;                               ///< xyz, w opening count (0: no interior)
    glm::vec4 max;                               ///< xyz, w scale
    glm::vec4 reflectance;                       ///< rgb, w 1 when the openings' radiance comes from the irradiance map
    glm::vec4 interreflection;                   ///< rgb r / ((1 - r) x area): lux per lumen left in the room
    glm::vec4 reflectedSunFlux;                  ///< rgb lm
    glm::vec4 openingCorners[kMaxOpenings * 4];  ///< xyz; w of the first corner: the area
    glm::vec4 openingInward[kMaxOpenings];
    glm::vec4 openingRadiance[kMaxOpenings];
    glm::vec4 patchCorners[kMaxOpenings * kMaxSunPatchCorners];
    glm::vec4 patchRadiance[kMaxOpenings];  ///< rgb, w corner count
};
static_assert(sizeof(InteriorBlock) == 16 * (5 + kMaxOpenings * (4 + 1 + 1 + kMaxSunPatchCorners + 1)));

// Sutherland-Hodgman: the part of a convex polygon where keep(p) >= 0 (keep is affine along edges).
std::vector<glm::vec3> clipPolygon(std::span<const glm::vec3> polygon, const std::function<float(glm::vec3)>& keep)
{
    std::vector<glm::vec3> out;
    for (std::size_t i = 0; i < polygon.size(); ++i) {
        glm::vec3 a = polygon[i];
        glm::vec3 b = polygon[(i + 1) % polygon.size()];
        float ka = keep(a);
        float kb = keep(b);
        if (ka >= 0.0f)
            out.push_back(a);
        if ((ka >= 0.0f) != (kb >= 0.0f))
            out.push_back(a + (b - a) * (ka / (ka - kb)));
    }
    return out;
}

double areaOnFloor(std::span<const glm::vec3> polygon)
{
    double twice = 0.0;
    for (std::size_t i = 0; i < polygon.size(); ++i) {
        glm::vec3 a = polygon[i];
        glm::vec3 b = polygon[(i + 1) % polygon.size()];
        twice += double(a.x) * double(b.z) - double(b.x) * double(a.z);
    }
    return std::abs(twice) * 0.5;
}

bool inside(const InteriorLightSetup& setup, glm::vec3 p)
{
    return glm::all(glm::greaterThanEqual(p, setup.min - kInsideMargin)) &&
           glm::all(glm::lessThanEqual(p, setup.max + kInsideMargin));
}

}  // namespace

InteriorLightSetup interiorLightFor(const Scene& scene)
{
    const Interior& interior = *scene.interior;
    InteriorLightSetup setup;
    setup.min = interior.min;
    setup.max = interior.max;
    setup.scale = interior.scale;
    setup.reflectance = interior.reflectance;
    glm::vec3 extent = interior.max - interior.min;
    setup.surfaceArea = 2.0f * (extent.x * extent.y + extent.x * extent.z + extent.y * extent.z);
    setup.outsideFromEnvironment = scene.sky.environment.has_value();

    const Sun& sun = scene.sun;
    glm::vec3 towardsSun = sun.direction();
    bool sunUp = sun.elevationDegrees > 0.0f && sun.illuminance > 0.0f && towardsSun.y > 1e-4f;
    glm::vec3 sunIlluminance = sun.color * sun.illuminance;
    const float floorHeight = interior.min.y;

    for (const Opening& opening : interior.openings) {
        InteriorOpeningLight light;
        glm::mat3 rotation = rotationOf(opening.rotationDegrees);
        glm::vec2 half = opening.size * 0.5f;
        const glm::vec2 local[4] = {{-half.x, -half.y}, {half.x, -half.y}, {half.x, half.y}, {-half.x, half.y}};
        for (int i = 0; i < 4; ++i)
            light.corners[std::size_t(i)] = opening.position + rotation * glm::vec3(local[i], 0.0f);
        light.inward = glm::normalize(rotation * glm::vec3(0.0f, 0.0f, 1.0f));
        light.area = opening.size.x * opening.size.y;
        // Without a map, the outside is what the renderer's outdoor surfaces see: the outdoor
        // ambient, scaled by how much the direction looks up (SceneShading.glsl's sky facing).
        light.outsideRadiance = scene.ambient.outdoor * (0.6f - 0.4f * light.inward.y);

        if (sunUp && glm::dot(towardsSun, -light.inward) > 0.0f) {
            std::vector<glm::vec3> patch;
            for (glm::vec3 corner : light.corners) {
                float height = std::max(corner.y - floorHeight, 0.0f);
                glm::vec3 onFloor = corner - towardsSun * (height / towardsSun.y);
                patch.push_back({onFloor.x, floorHeight, onFloor.z});
            }
            patch = clipPolygon(patch, [&](glm::vec3 p) { return p.x - interior.min.x; });
            patch = clipPolygon(patch, [&](glm::vec3 p) { return interior.max.x - p.x; });
            patch = clipPolygon(patch, [&](glm::vec3 p) { return p.z - interior.min.z; });
            patch = clipPolygon(patch, [&](glm::vec3 p) { return interior.max.z - p.z; });
            double area = patch.size() >= 3 ? areaOnFloor(patch) : 0.0;
            if (area > 1e-6) {
                glm::vec3 onFloorIlluminance = sunIlluminance * towardsSun.y;
                light.sunPatch = patch;
                light.sunPatchRadiance = interior.floorAlbedo * onFloorIlluminance / float(kPi);
                setup.reflectedSunFlux += interior.floorAlbedo * onFloorIlluminance * float(area);
            }
        }
        setup.openings.push_back(std::move(light));
    }
    return setup;
}

double polygonIrradiance(glm::vec3 point, glm::vec3 normal, std::span<const glm::vec3> polygon)
{
    std::vector<glm::vec3> above =
        clipPolygon(polygon, [&](glm::vec3 p) { return glm::dot(normal, p - point) - kHorizonOffset; });
    if (above.size() < 3)
        return 0.0;
    // Lambert: E = L / 2 * sum of edge angle x (normal . unit normal of the edge's plane); the sign
    // follows the winding, so the magnitude is taken.
    double sum = 0.0;
    for (std::size_t i = 0; i < above.size(); ++i) {
        glm::dvec3 a = glm::normalize(glm::dvec3(above[i] - point));
        glm::dvec3 b = glm::normalize(glm::dvec3(above[(i + 1) % above.size()] - point));
        glm::dvec3 c = glm::cross(a, b);
        double sine = glm::length(c);
        if (sine < 1e-12)
            continue;
        sum += std::atan2(sine, glm::dot(a, b)) / sine * glm::dot(glm::dvec3(normal), c);
    }
    return 0.5 * std::abs(sum);
}

glm::vec3 interiorIndirectRadiance(const InteriorLightSetup& setup,
                                   glm::vec3 point,
                                   glm::vec3 normal,
                                   std::span<const glm::vec3> outsideRadiance)
{
    if (setup.openings.empty() || !inside(setup, point))
        return glm::vec3(0.0f);
    glm::dvec3 irradiance(0.0);
    glm::dvec3 daylightFlux(0.0);
    for (std::size_t i = 0; i < setup.openings.size(); ++i) {
        const InteriorOpeningLight& opening = setup.openings[i];
        glm::dvec3 radiance(outsideRadiance[i]);
        daylightFlux += radiance * (kPi * double(opening.area));
        if (glm::dot(opening.inward, point - opening.corners[0]) > 0.0f)
            irradiance += radiance * polygonIrradiance(point, normal, opening.corners);
        if (!opening.sunPatch.empty())
            irradiance += glm::dvec3(opening.sunPatchRadiance) * polygonIrradiance(point, normal, opening.sunPatch);
    }
    glm::dvec3 r(setup.reflectance);
    irradiance += (daylightFlux + glm::dvec3(setup.reflectedSunFlux)) * r / ((1.0 - r) * double(setup.surfaceArea));
    return glm::vec3(irradiance * (double(setup.scale) / kPi));
}

InteriorLighting::InteriorLighting() : InteriorLighting(InteriorLightSetup{})
{
}

InteriorLighting::InteriorLighting(const InteriorLightSetup& setup)
{
    InteriorBlock block{};
    block.min = glm::vec4(setup.min, float(setup.openings.size()));
    block.max = glm::vec4(setup.max, setup.scale);
    block.reflectance = glm::vec4(setup.reflectance, setup.outsideFromEnvironment ? 1.0f : 0.0f);
    if (setup.surfaceArea > 0.0f)
        block.interreflection = glm::vec4(setup.reflectance / ((1.0f - setup.reflectance) * setup.surfaceArea), 0.0f);
    block.reflectedSunFlux = glm::vec4(setup.reflectedSunFlux, 0.0f);
    for (std::size_t i = 0; i < setup.openings.size() && i < std::size_t(kMaxOpenings); ++i) {
        const InteriorOpeningLight& opening = setup.openings[i];
        for (std::size_t c = 0; c < 4; ++c)
            block.openingCorners[i * 4 + c] = glm::vec4(opening.corners[c], c == 0 ? opening.area : 0.0f);
        block.openingInward[i] = glm::vec4(opening.inward, 0.0f);
        block.openingRadiance[i] = glm::vec4(opening.outsideRadiance, 0.0f);
        std::size_t corners = std::min(opening.sunPatch.size(), std::size_t(kMaxSunPatchCorners));
        for (std::size_t c = 0; c < corners; ++c)
            block.patchCorners[i * kMaxSunPatchCorners + c] = glm::vec4(opening.sunPatch[c], 1.0f);
        block.patchRadiance[i] = glm::vec4(opening.sunPatchRadiance, float(corners));
    }
    mBlock = gl::Buffer("scene.interior.block", sizeof(block), &block);
}

void InteriorLighting::bind() const
{
    mBlock.bindBase(GL_UNIFORM_BUFFER, kBlockBinding);
}

}  // namespace scene
