// GltfMaterials.cpp: glTF materials, textures and images into the scene (see GltfMaterials.h).
#include "scene/GltfMaterials.h"

#include <glm/common.hpp>

#include <algorithm>

namespace scene::gltf {
namespace {

std::string shortNumber(double value)
{
    std::ostringstream out;
    out << value;
    return out.str();
}

TextureWrap wrapOf(int glWrap)
{
    switch (glWrap) {
        case TINYGLTF_TEXTURE_WRAP_CLAMP_TO_EDGE:
            return TextureWrap::ClampToEdge;
        case TINYGLTF_TEXTURE_WRAP_MIRRORED_REPEAT:
            return TextureWrap::MirroredRepeat;
        default:
            return TextureWrap::Repeat;
    }
}

}  // namespace

void GltfMaterials::importAll()
{
    mMaterialBase = int(mImport.scene.materials.size());
    for (std::size_t i = 0; i < mImport.model.materials.size(); ++i) {
        const tinygltf::Material& g = mImport.model.materials[i];
        std::string what = "material " + std::to_string(i);
        Material m;
        m.name = g.name.empty() ? mImport.name + "#material" + std::to_string(i) : g.name;
        const tinygltf::PbrMetallicRoughness& pbr = g.pbrMetallicRoughness;
        auto base = mImport.factor<4>(pbr.baseColorFactor, {1, 1, 1, 1}, what + " baseColorFactor");
        m.baseColor = glm::clamp(glm::vec3(base[0], base[1], base[2]), 0.0f, 1.0f);
        m.baseAlpha = std::clamp(base[3], 0.0f, 1.0f);
        m.metalness = std::clamp(float(pbr.metallicFactor), 0.0f, 1.0f);
        m.roughness = std::clamp(float(pbr.roughnessFactor), 0.0f, 1.0f);
        if (!finite(float(pbr.metallicFactor)) || !finite(float(pbr.roughnessFactor)))
            mImport.fail(what + " has a non-finite metallic or roughness factor");
        m.textures.baseColor =
            textureFor(pbr.baseColorTexture.index, pbr.baseColorTexture.texCoord, true, what + " baseColorTexture");
        m.textures.metallicRoughness =
            textureFor(pbr.metallicRoughnessTexture.index, pbr.metallicRoughnessTexture.texCoord, false,
                       what + " metallicRoughnessTexture");
        m.textures.normal = textureFor(g.normalTexture.index, g.normalTexture.texCoord, false, what + " normalTexture");
        m.normalScale = float(g.normalTexture.scale);
        m.textures.occlusion =
            textureFor(g.occlusionTexture.index, g.occlusionTexture.texCoord, false, what + " occlusionTexture");
        m.occlusionStrength = std::clamp(float(g.occlusionTexture.strength), 0.0f, 1.0f);
        m.textures.emissive =
            textureFor(g.emissiveTexture.index, g.emissiveTexture.texCoord, true, what + " emissiveTexture");
        if (!finite(m.normalScale) || !finite(float(g.occlusionTexture.strength)))
            mImport.fail(what + " has a non-finite normal scale or occlusion strength");

        auto emissive = mImport.factor<3>(g.emissiveFactor, {0, 0, 0}, what + " emissiveFactor");
        glm::vec3 emission = glm::max(glm::vec3(emissive[0], emissive[1], emissive[2]), 0.0f);
        float strength = 1.0f;
        auto extension = g.extensions.find("KHR_materials_emissive_strength");
        if (extension != g.extensions.end() && extension->second.IsObject() &&
            extension->second.Has("emissiveStrength")) {
            const tinygltf::Value& value = extension->second.Get("emissiveStrength");
            strength = value.IsNumber() ? float(value.GetNumberAsDouble()) : -1.0f;
            if (!finite(strength) || strength < 0.0f)
                mImport.fail(what + " KHR_materials_emissive_strength must be a non-negative number");
        }
        float luminance = luminanceOf(emission);
        if (luminance > 0.0f) {
            m.emissionColor = emission / luminance;
            m.emissionLuminance = luminance * strength * mImport.options.emissiveLuminance;
            if (!finite(m.emissionLuminance))
                mImport.fail(what + " has an emission too strong to represent");
        }

        if (g.alphaMode == "MASK" || g.alphaMode == "BLEND") {
            if (g.alphaMode == "BLEND")
                mImport.warn(what + " uses alphaMode BLEND, drawn as MASK (cutoff " + shortNumber(g.alphaCutoff) + ")");
            m.alphaMode = AlphaMode::Mask;
            m.alphaCutoff = float(g.alphaCutoff);
            if (!finite(m.alphaCutoff))
                mImport.fail(what + " has a non-finite alphaCutoff");
        } else if (g.alphaMode != "OPAQUE") {
            mImport.fail(what + " has unknown alphaMode '" + printable(g.alphaMode) + "'");
        }
        m.doubleSided = g.doubleSided;
        mImport.scene.materials.push_back(std::move(m));
    }
}

int GltfMaterials::sceneMaterial(int material, const std::string& what)
{
    if (material >= 0 && std::size_t(material) >= mImport.model.materials.size())
        mImport.fail(what + " refers to material " + std::to_string(material) + ", which does not exist");
    return material >= 0 ? mMaterialBase + material : defaultMaterial();
}

int GltfMaterials::defaultMaterial()
{
    if (mDefaultMaterial < 0) {
        // The spec's default material: white, fully metallic, fully rough.
        Material m;
        m.name = mImport.name + "#default";
        m.baseColor = glm::vec3(1.0f);
        m.metalness = 1.0f;
        m.roughness = 1.0f;
        mDefaultMaterial = int(mImport.scene.materials.size());
        mImport.scene.materials.push_back(m);
    }
    return mDefaultMaterial;
}

const image::Image8* GltfMaterials::imagePixels(int imageIndex, const std::string& what)
{
    if (imageIndex < 0 || std::size_t(imageIndex) >= mImport.model.images.size())
        mImport.fail(what + " refers to image " + std::to_string(imageIndex) + ", which does not exist");
    auto found = mImages.find(imageIndex);
    if (found != mImages.end())
        return found->second.get();
    tinygltf::Image& img = mImport.model.images[std::size_t(imageIndex)];
    if (img.image.empty() && img.bufferView >= 0)
        loadBufferViewImage(img, imageIndex);
    else if (img.image.empty() && !img.uri.empty())
        loadExternalImage(img, imageIndex);
    if (img.image.empty() || img.width <= 0 || img.height <= 0 || img.component != 4 || img.bits != 8 ||
        img.image.size() != std::size_t(img.width) * std::size_t(img.height) * 4)
        mImport.fail("image " + std::to_string(imageIndex) + " has no pixel data");
    auto pixels = std::make_shared<image::Image8>();
    pixels->width = img.width;
    pixels->height = img.height;
    pixels->channels = 4;
    pixels->pixels = std::move(img.image);
    const image::Image8* result = pixels.get();
    mImages[imageIndex] = std::move(pixels);
    return result;
}

void GltfMaterials::loadBufferViewImage(tinygltf::Image& img, int index)
{
    std::string what = "image " + std::to_string(index);
    if (std::size_t(img.bufferView) >= mImport.model.bufferViews.size())
        mImport.fail(what + " refers to bufferView " + std::to_string(img.bufferView) + ", which does not exist");
    const tinygltf::BufferView& view = mImport.model.bufferViews[std::size_t(img.bufferView)];
    if (view.buffer < 0 || std::size_t(view.buffer) >= mImport.model.buffers.size())
        mImport.fail(what + ": its bufferView refers to buffer " + std::to_string(view.buffer) +
                     ", which does not exist");
    const std::vector<unsigned char>& buffer = mImport.model.buffers[std::size_t(view.buffer)].data;
    if (view.byteOffset > buffer.size() || view.byteLength > buffer.size() - view.byteOffset || view.byteLength == 0)
        mImport.fail(what + ": bufferView " + std::to_string(img.bufferView) + " reaches past the end of buffer " +
                     std::to_string(view.buffer) + " (" + std::to_string(buffer.size()) + " bytes)");
    if (!decodeImage(&img, index, buffer.data() + view.byteOffset, view.byteLength, mBudget, nullptr))
        mImport.fail(mBudget.failure);
}

void GltfMaterials::loadExternalImage(tinygltf::Image& img, int index)
{
    std::string uri = decodeUri(img.uri);
    if (mFolder.empty())
        mImport.fail("image " + std::to_string(index) + " references external file '" + printable(uri) +
                     "' (this input may not reference files)");
    std::filesystem::path relative(uri);
    if (relative.is_absolute())
        mImport.fail("image " + std::to_string(index) + " has an absolute path '" + printable(uri) + "'");
    std::string path = (mFolder / relative).string();
    FileAccess access{mFolder, {}};
    std::vector<unsigned char> bytes;
    std::string err;
    std::error_code error;
    if (!std::filesystem::exists(path, error))
        mImport.fail("image " + std::to_string(index) + " file '" + printable(uri) + "' does not exist");
    if (!readWholeFile(&bytes, &err, path, &access))
        mImport.fail("image " + std::to_string(index) + ": " + access.refusal);
    if (!decodeImage(&img, index, bytes.data(), bytes.size(), mBudget, nullptr))
        mImport.fail(mBudget.failure + " ('" + printable(uri) + "')");
}

int GltfMaterials::textureFor(int index, int texCoord, bool srgb, const std::string& what)
{
    if (index < 0)
        return -1;
    if (std::size_t(index) >= mImport.model.textures.size())
        mImport.fail(what + " refers to texture " + std::to_string(index) + ", which does not exist");
    if (texCoord != 0)
        mImport.warn(what + " uses TEXCOORD_" + std::to_string(texCoord) + "; TEXCOORD_0 is used instead");
    auto key = std::make_pair(index, srgb);
    auto found = mTextures.find(key);
    if (found != mTextures.end())
        return found->second;
    const tinygltf::Texture& gltfTexture = mImport.model.textures[std::size_t(index)];
    std::string textureWhat = "texture " + std::to_string(index);
    if (gltfTexture.source < 0)
        mImport.fail(textureWhat + " has no image (extension-only image formats are not supported)");
    imagePixels(gltfTexture.source, textureWhat);
    Texture texture;
    texture.name = gltfTexture.name.empty() ? mImport.name + "#texture" + std::to_string(index) : gltfTexture.name;
    texture.image = mImages.at(gltfTexture.source);
    texture.srgb = srgb;
    if (gltfTexture.sampler >= 0) {
        if (std::size_t(gltfTexture.sampler) >= mImport.model.samplers.size())
            mImport.fail(textureWhat + " refers to sampler " + std::to_string(gltfTexture.sampler) +
                         ", which does not exist");
        const tinygltf::Sampler& sampler = mImport.model.samplers[std::size_t(gltfTexture.sampler)];
        texture.wrapS = wrapOf(sampler.wrapS);
        texture.wrapT = wrapOf(sampler.wrapT);
    }
    int sceneIndex = int(mImport.scene.textures.size());
    mImport.scene.textures.push_back(std::move(texture));
    mTextures[key] = sceneIndex;
    return sceneIndex;
}

}  // namespace scene::gltf
