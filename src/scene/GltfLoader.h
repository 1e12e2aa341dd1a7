// GltfLoader.h: imports glTF 2.0 files (.gltf with external or embedded base64 buffers, .glb) into a
// Scene, through tinygltf (scene/TinyGltf.h).
//
// What is imported: the default scene's node tree (TRS or matrix transforms) with its meshes baked
// into world space (indexed or not; triangles, strips and fans; every component type the spec allows
// for indices, positions, normals, tangents and TEXCOORD_0, normalised integers included), the
// metallic-roughness materials with base colour, metallic-roughness, normal, emissive and occlusion
// textures, alpha mode MASK (BLEND is drawn as MASK, with a warning), double-sided materials,
// KHR_materials_emissive_strength, KHR_lights_punctual (the first directional light becomes the
// sun, point lights become point lights, spot lights become point lights with a warning) and the
// first perspective camera. Missing normals become flat normals; missing tangents are generated per
// triangle from the texture coordinates (not MikkTSpace). glTF emissive is unitless: emissive 1.0 is
// `emissiveLuminance` cd/m² (docs/SCENE_FORMAT.md).
//
// Not imported: animations, skins, morph targets, sparse accessors, texCoord sets other than 0,
// KHR_texture_transform and other material extensions, orthographic cameras (warnings or errors).
//
// Safety: images decode through image::decodeImage8 (PNG or JPEG only, kMaxImageDimension), and
// the decoded texels of one file are capped at kMaxGltfTexels; buffers and images are read only from
// inside the glTF file's folder (no absolute paths, no ".." out of it); every accessor is checked
// against its buffer before it is read; vertex and index counts are capped. Every problem throws
// SceneError "cannot load glTF 'FILE': what is wrong", one line.
#pragma once

#include "scene/Scene.h"

#include <glm/mat4x4.hpp>

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>

namespace scene {

/// cd/m² of a glTF emissive of 1.0 (times KHR_materials_emissive_strength) unless a scene says
/// otherwise: a bright backlit panel, so that emissive glTF surfaces glow past display white at
/// daylight exposures but do not rival the sky.
inline constexpr float kDefaultGltfEmissiveLuminance = 1000.0f;
/// Largest number of vertices (after instancing) and of indices one glTF import may produce.
inline constexpr std::size_t kMaxGltfVertices = std::size_t(1) << 24;
inline constexpr std::size_t kMaxGltfIndices = std::size_t(3) << 24;
/// Largest number of decoded texels (all images of one file together): 512 MiB of RGBA8.
inline constexpr std::size_t kMaxGltfTexels = std::size_t(1) << 27;

struct GltfImportOptions
{
    glm::mat4 transform{1.0f};  ///< applied on top of the file's node transforms
    bool castsShadow = true;
    float emissiveLuminance = kDefaultGltfEmissiveLuminance;
    /// Take the file's lights (sun, point lights) and camera into the scene; off for models placed
    /// by a JSON scene, whose own lights and camera rule.
    bool takeLightsAndCamera = false;
};

/// Appends the file's materials, textures and meshes (and, if asked, lights and camera) to `scene`.
void importGltf(const std::filesystem::path& file, Scene& scene, const GltfImportOptions& options);

/// The same on a file already in memory (.glb by its magic, else .gltf JSON). `name` stands for the
/// file in messages. External buffers and images are read from `folder`; an empty folder refuses
/// every external reference (the fuzz target).
void importGltfFromMemory(std::span<const std::uint8_t> bytes,
                          const std::string& name,
                          const std::filesystem::path& folder,
                          Scene& scene,
                          const GltfImportOptions& options);

/// A whole scene from a glTF file: the default sky, sun and ambient of the JSON format, replaced by
/// the file's directional light and camera where it has them.
Scene loadGltfScene(const std::filesystem::path& file);

/// True for .gltf/.glb names (any case) and for files starting with the glTF binary magic.
bool looksLikeGltf(const std::filesystem::path& file);

}  // namespace scene
