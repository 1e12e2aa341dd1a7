// PrimitiveMesh.h: triangle meshes for the scene's procedural primitives, in world space.
//
// Every object is tessellated on the CPU once, transformed (rotation then translation; no scale:
// sizes are built into the shape) and appended to one vertex/index list together with the imported
// glTF meshes, grouped into batches: all untextured opaque materials share one draw, each textured,
// alpha-masked or double-sided material gets its own. Spheres and cylinders use fixed tessellations
// (kRoundSegments around), which is plenty at the sizes the lab renders.
#pragma once

#include "scene/Scene.h"

#include <glm/mat3x3.hpp>
#include <glm/vec3.hpp>

#include <cstdint>
#include <vector>

namespace scene {

/// A run of indices drawn with one material's textures bound (or, material -1, the shared
/// untextured batch of every plain() material).
struct DrawBatch
{
    std::size_t firstIndex = 0;
    std::size_t indexCount = 0;
    int material = -1;
    bool castsShadow = true;
    bool alphaMask = false;
    bool doubleSided = false;
};

struct TriangleMesh
{
    std::vector<MeshVertex> vertices;
    std::vector<std::uint32_t> indices;
    /// Batches in index order: opaque shadow casters, alpha-masked shadow casters, then the rest.
    std::vector<DrawBatch> batches;
    /// The opaque shadow casters come first: indices [0, shadowCasterIndexCount) are one
    /// shadow-pass draw; masked casters follow as their own batches.
    std::size_t shadowCasterIndexCount = 0;
    glm::vec3 casterBoundsMin{0.0f};
    glm::vec3 casterBoundsMax{0.0f};
    glm::vec3 boundsMin{0.0f};
    glm::vec3 boundsMax{0.0f};
};

inline constexpr int kRoundSegments = 32;

/// The scene format's rotation: `degrees` about world X, then Y, then Z.
glm::mat3 rotationOf(glm::vec3 degrees);

/// Appends one object's triangles (counter-clockwise seen from outside).
void appendPrimitive(const Object& object, TriangleMesh& mesh);
/// All objects and imported meshes of the scene, batched (see DrawBatch), shadow casters first.
TriangleMesh buildSceneMesh(const Scene& scene);

}  // namespace scene
