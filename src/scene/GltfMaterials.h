// GltfMaterials.h: a glTF import's metallic-roughness materials and the textures and images they
// use. Base colour, metallic-roughness, normal, occlusion and emissive textures (TEXCOORD_0 only;
// another set is used as TEXCOORD_0 with a warning), samplers' wrap modes, alpha mode MASK (BLEND
// drawn as MASK, with a warning), double-sided materials, KHR_materials_emissive_strength, and the
// spec's default material for primitives without one. glTF emissive is unitless: 1.0 becomes
// options.emissiveLuminance cd/m² (docs/SCENE_FORMAT.md). Images held in a bufferView are decoded
// here, after a bounds check; external ones are read through GltfFileAccess. Each image and each
// (texture, colour space) pair becomes one scene image and texture, shared by the materials.
// Internal to the glTF import (GltfLoader.cpp).
#pragma once

#include "image/ImageIo.h"
#include "scene/GltfFileAccess.h"
#include "scene/GltfImport.h"

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <utility>

namespace scene::gltf {

class GltfMaterials
{
public:
    /// `budget` is the one tinygltf's image callback used; `folder` the canonical folder external
    /// images may come from (empty: none).
    GltfMaterials(GltfImport& import, ImageBudget& budget, std::filesystem::path folder)
        : mImport(import), mBudget(budget), mFolder(std::move(folder))
    {
    }

    /// Appends every material of the file (and the textures they use) to the scene.
    void importAll();

    /// The scene material of a primitive's `material` (-1: the spec's default, made on first use).
    int sceneMaterial(int material, const std::string& what);

private:
    const image::Image8* imagePixels(int imageIndex, const std::string& what);
    void loadBufferViewImage(tinygltf::Image& img, int index);
    void loadExternalImage(tinygltf::Image& img, int index);
    /// The scene texture for glTF texture `index` in the given colour space (-1 for none).
    int textureFor(int index, int texCoord, bool srgb, const std::string& what);
    int defaultMaterial();

    GltfImport& mImport;
    ImageBudget& mBudget;
    std::filesystem::path mFolder;
    std::map<int, std::shared_ptr<image::Image8>> mImages;
    std::map<std::pair<int, bool>, int> mTextures;
    int mMaterialBase = 0;
    int mDefaultMaterial = -1;
};

}  // namespace scene::gltf
