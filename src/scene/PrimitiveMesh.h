// PrimitiveMesh.h: triangle meshes for the scene's procedural primitives, in world space.
//
// Every object is tessellated on the CPU once, transformed (rotation then translation; no scale:
// sizes are built into the shape) and appended to one vertex/index list, so the renderer draws the
// whole static scene with a single indexed draw. Spheres and cylinders use fixed tessellations
// (kRoundSegments around), which is plenty at the sizes the lab renders.
#pragma once

#include "scene/Scene.h"

#include <glm/vec3.hpp>

#include <cstdint>
#include <vector>

namespace scene {

struct MeshVertex
{
    glm::vec3 position;
    glm::vec3 normal;
    float material;  ///< material index, as a float so that one float attribute format serves all
};

struct TriangleMesh
{
    std::vector<MeshVertex> vertices;
    std::vector<std::uint32_t> indices;
    /// The shadow casters come first: indices [0, shadowCasterIndexCount) are the shadow-pass draw.
    std::size_t shadowCasterIndexCount = 0;
    glm::vec3 casterBoundsMin{0.0f};
    glm::vec3 casterBoundsMax{0.0f};
    glm::vec3 boundsMin{0.0f};
    glm::vec3 boundsMax{0.0f};
};

inline constexpr int kRoundSegments = 32;

/// Appends one object's triangles (counter-clockwise seen from outside).
void appendPrimitive(const Object& object, TriangleMesh& mesh);
/// All objects of the scene, shadow casters first.
TriangleMesh buildSceneMesh(const Scene& scene);

}  // namespace scene
