// InteriorLight.h: indirect light of a room lit through its openings (the scene's "interior"), the
// daylight-factor split of building physics made per pixel:
//  - sky component: each opening (window, door) is a Lambertian rectangle of the radiance outside
//    it, seen from the room; its irradiance at a point is Lambert's formula for a polygon (exact for
//    an unoccluded uniform polygon), clipped to the hemisphere above the surface. The outside
//    radiance is the environment map's cosine-weighted mean radiance in the opening's outward
//    direction (its irradiance map, so the sun the map loses to the analytic sun is not counted), or
//    without a map the outdoor ambient constant as the renderer's outdoor surfaces see it;
//  - sunlit patches: the sun through each opening lands on the floor as the opening's parallelogram
//    projected along the sun (clipped to the floor's rectangle), a Lambertian polygon of radiance
//    floorAlbedo x E_sun sin(elevation) / pi, by the same formula;
//  - internally reflected component (the split-flux formula, Hopkinson, Longmore and Petherbridge
//    1954): the flux the first two leave in the room is reflected on and on with the room's mean
//    reflectance r, a uniform irradiance (flux x r) / ((1 - r) x the room's surface area).
// The sum, times the interior's `scale`, is an irradiance E; surfaces inside the room's box reflect
// it as an ambient radiance E / pi added to `ambient.indoor` (SceneShading.glsl), in the forward and
// deferred paths alike. Shaders: shaders/scene/InteriorLight.glsl (the block layout is mirrored by
// InteriorBlock in InteriorLight.cpp). Cost per shaded pixel inside the box: per opening one
// irradiance-map tap and two polygons of at most 4 and 8 corners (about 25 edge terms for two openings).
// Limits: no occlusion inside the room (furniture does not shade the openings or the patches), the
// patches ignore the sun's shadows (frames, eaves), sunlight landing outside the floor's rectangle
// is dropped, and one mean reflectance stands for every surface.
#pragma once

#include "gl/Buffer.h"
#include "scene/Scene.h"

#include <glm/vec3.hpp>

#include <array>
#include <span>
#include <vector>

namespace scene {

inline constexpr int kMaxSunPatchCorners = 8;  ///< a parallelogram clipped by a rectangle

struct InteriorOpeningLight
{
    std::array<glm::vec3, 4> corners{};  ///< world, counter-clockwise seen from the room
    glm::vec3 inward{0.0f, 0.0f, 1.0f};  ///< unit normal into the room
    float area = 0.0f;
    glm::vec3 outsideRadiance{0.0f};  ///< cd/m² (scenes without an environment map)
    std::vector<glm::vec3> sunPatch;  ///< floor polygon the sun through it lights; empty: none
    glm::vec3 sunPatchRadiance{0.0f};
};

/// What the shaders evaluate, in world units (see the header comment).
struct InteriorLightSetup
{
    glm::vec3 min{0.0f};
    glm::vec3 max{0.0f};
    float scale = 1.0f;
    glm::vec3 reflectance{0.5f};
    float surfaceArea = 0.0f;             ///< of the room's box, m²
    glm::vec3 reflectedSunFlux{0.0f};     ///< lm: the sunlight the floor patches reflect
    bool outsideFromEnvironment = false;  ///< openings take their radiance from the irradiance map
    std::vector<InteriorOpeningLight> openings;
};

/// The setup for `scene` (which has an interior), with its sun as the renderer lights with it.
InteriorLightSetup interiorLightFor(const Scene& scene);

/// Irradiance at `point` (normal `normal`, unit) from a planar, convex polygon of radiance 1 whose
/// corners are given in order: Lambert's formula over the part above the surface's horizon.
double polygonIrradiance(glm::vec3 point, glm::vec3 normal, std::span<const glm::vec3> polygon);

/// The CPU twin of the shaders' estimate: the ambient radiance (E x scale / pi, cd/m²) a surface at
/// `point` with `normal` gets (zero outside the box); `outsideRadiance` gives each opening's (for
/// an environment map, what its irradiance map holds in the opening's outward direction).
glm::vec3 interiorIndirectRadiance(const InteriorLightSetup& setup,
                                   glm::vec3 point,
                                   glm::vec3 normal,
                                   std::span<const glm::vec3> outsideRadiance);

/// The setup uploaded as the shaders' uniform block (binding kBlockBinding).
class InteriorLighting
{
public:
    static constexpr GLuint kBlockBinding = 6;  ///< InteriorLight.glsl
    explicit InteriorLighting(const InteriorLightSetup& setup);
    /// A block that says "no interior" (the shaders skip the estimate).
    InteriorLighting();
    void bind() const;

private:
    gl::Buffer mBlock;
};

}  // namespace scene
