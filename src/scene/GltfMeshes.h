// GltfMeshes.h: a glTF mesh's primitives baked into world space as scene meshes. Triangles, strips
// and fans (points and lines are refused), indexed or not; POSITION, NORMAL, TANGENT and TEXCOORD_0
// read through GltfAccessors. Missing normals become flat normals (each triangle its own three
// vertices); missing tangents, where a normal map needs them, are generated per triangle from the
// texture coordinates (Lengyel's method, not MikkTSpace). A mirroring transform flips the winding
// and the tangents' handedness. Morph targets are ignored with a warning. Vertex and index counts
// after instancing are capped (kMaxGltfVertices, kMaxGltfIndices). Internal to the glTF import.
#pragma once

#include "scene/GltfImport.h"
#include "scene/GltfMaterials.h"

#include <glm/mat4x4.hpp>

#include <cstddef>
#include <string>

namespace scene::gltf {

/// Vertices and indices imported so far (all meshes and instances of one file), against the caps.
struct GltfMeshTotals
{
    std::size_t vertices = 0;
    std::size_t indices = 0;
};

/// Appends mesh `meshIndex`'s primitives, transformed by `world` (its node's), to the scene.
/// `nodeWhat` names the node in messages.
void importMesh(GltfImport& import,
                GltfMaterials& materials,
                int meshIndex,
                const glm::mat4& world,
                const std::string& nodeWhat,
                GltfMeshTotals& totals);

}  // namespace scene::gltf
