// GltfLoader.cpp: glTF 2.0 import through tinygltf (see GltfLoader.h).
#include "scene/GltfLoader.h"

#include "image/ImageIo.h"
#include "scene/TinyGltf.h"
#include "util/Log.h"
#include "util/PrintableText.h"

#include <glm/common.hpp>
#include <glm/ext/matrix_transform.hpp>
#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/gtc/type_ptr.hpp>
#include <glm/mat3x3.hpp>
#include <glm/trigonometric.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

namespace scene {
namespace {

constexpr std::size_t kMaxEchoedBytes = 200;

std::string printable(std::string_view text)
{
    return util::escapeControlCharacters(text, false, kMaxEchoedBytes);
}

/// The first line of one of tinygltf's (often multi-line) messages.
std::string firstLine(const std::string& text)
{
    std::size_t start = text.find_first_not_of(" \n\r\t");
    if (start == std::string::npos)
        return "unknown error";
    std::size_t end = text.find('\n', start);
    return printable(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
}

std::string shortNumber(double value)
{
    std::ostringstream out;
    out << value;
    return out.str();
}

float luminanceOf(glm::vec3 c)
{
    return 0.2126f * c.x + 0.7152f * c.y + 0.0722f * c.z;
}

bool finite(float v)
{
    return std::isfinite(v);
}

// The file access tinygltf gets: only regular files inside the glTF's folder, each at most
// image::kMaxFileBytes. Refusals are remembered so the error names the real reason.
struct FileAccess
{
    std::filesystem::path folder;  ///< canonical; empty: no file access at all
    std::string refusal;

    bool allowed(const std::string& path, std::string* why)
    {
        if (folder.empty()) {
            *why = "external file '" + printable(path) + "' (this input may not reference files)";
            return false;
        }
        std::error_code error;
        std::filesystem::path resolved = std::filesystem::weakly_canonical(path, error);
        if (error) {
            *why = "'" + printable(path) + "': " + error.message();
            return false;
        }
        auto [folderEnd, pathIt] = std::mismatch(folder.begin(), folder.end(), resolved.begin(), resolved.end());
        if (folderEnd != folder.end()) {
            *why = "'" + printable(path) + "' lies outside the glTF file's folder";
            return false;
        }
        return true;
    }
};

bool fileExists(const std::string& path, void* user)
{
    // tinygltf probes several candidate paths; a refused probe is no error yet (readWholeFile's is).
    std::string why;
    if (!static_cast<FileAccess*>(user)->allowed(path, &why))
        return false;
    std::error_code error;
    return std::filesystem::is_regular_file(path, error);
}

std::string expandFilePath(const std::string& path, void*)
{
    return path;  // no ~ or variable expansion: a URI is a path relative to the file
}

bool readWholeFile(std::vector<unsigned char>* out, std::string* err, const std::string& path, void* user)
{
    auto* access = static_cast<FileAccess*>(user);
    std::string why;
    if (!access->allowed(path, &why)) {
        access->refusal = why;
        if (err)
            *err += why + "\n";
        return false;
    }
    std::error_code error;
    std::uintmax_t size = std::filesystem::file_size(path, error);
    if (error || !std::filesystem::is_regular_file(path, error) || size > image::kMaxFileBytes) {
        access->refusal = "'" + printable(path) + "' is not a readable file of at most 1 GiB";
        if (err)
            *err += access->refusal + "\n";
        return false;
    }
    std::ifstream in(path, std::ios::binary);
    out->resize(std::size_t(size));
    if (!in || !in.read(reinterpret_cast<char*>(out->data()), std::streamsize(size))) {
        access->refusal = "cannot read '" + printable(path) + "'";
        if (err)
            *err += access->refusal + "\n";
        return false;
    }
    return true;
}

bool writeWholeFile(std::string* err, const std::string&, const std::vector<unsigned char>&, void*)
{
    if (err)
        *err += "writing is not supported\n";
    return false;
}

struct ImageBudget
{
    std::string fileName;
    std::size_t texels = 0;
    std::string failure;  ///< the first decoding failure, for the error message
};

/// Decodes an embedded or external image's bytes (PNG or JPEG) to RGBA8 within the texel budget.
bool decodeImage(tinygltf::Image* out,
                 int index,
                 const std::uint8_t* bytes,
                 std::size_t size,
                 ImageBudget& budget,
                 std::string* err)
{
    std::string what = "image " + std::to_string(index);
    auto fail = [&](const std::string& why) {
        if (budget.failure.empty())
            budget.failure = what + ": " + why;
        if (err)
            *err += budget.failure + "\n";
        return false;
    };
    image::FileKind kind = image::detectFileKind(bytes, size);
    if (kind != image::FileKind::Png && kind != image::FileKind::Jpeg)
        return fail("not a PNG or JPEG image");
    try {
        image::Image8 decoded = image::decodeImage8({bytes, size}, budget.fileName + " " + what, 4);
        std::size_t texels = std::size_t(decoded.width) * std::size_t(decoded.height);
        if (budget.texels + texels > kMaxGltfTexels)
            return fail("the file's images exceed " + std::to_string(kMaxGltfTexels >> 20) + " M texels in all");
        budget.texels += texels;
        out->width = decoded.width;
        out->height = decoded.height;
        out->component = 4;
        out->bits = 8;
        out->pixel_type = TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE;
        out->image = std::move(decoded.pixels);
        return true;
    } catch (const image::ImageError& error) {
        // ImageError already names the image ("cannot read 'FILE image N': ..."); keep its reason.
        std::string message = error.what();
        std::size_t colon = message.find("': ");
        return fail(colon == std::string::npos ? printable(message) : printable(message.substr(colon + 3)));
    }
}

bool loadImageData(tinygltf::Image* image,
                   const int index,
                   std::string* err,
                   std::string*,
                   int,
                   int,
                   const unsigned char* bytes,
                   int size,
                   void* user)
{
    // tinygltf 2.7 hands over an image's bufferView without checking it against its buffer (the
    // pointer and length may run past the buffer's end: fuzz corpus regress-gltf-image-view-past-buffer.glb),
    // so those are not read here; Importer::imagePixels decodes them after a bounds check.
    if (image->bufferView >= 0)
        return true;
    if (size <= 0)
        return false;
    return decodeImage(image, index, bytes, std::size_t(size), *static_cast<ImageBudget*>(user), err);
}

/// "%20" and friends in a relative URI.
std::string decodeUri(const std::string& uri)
{
    std::string out;
    for (std::size_t i = 0; i < uri.size(); ++i) {
        if (uri[i] == '%' && i + 2 < uri.size() && std::isxdigit(static_cast<unsigned char>(uri[i + 1])) &&
            std::isxdigit(static_cast<unsigned char>(uri[i + 2]))) {
            out += char(std::stoi(uri.substr(i + 1, 2), nullptr, 16));
            i += 2;
        } else {
            out += uri[i];
        }
    }
    return out;
}

class Importer
{
public:
    Importer(std::string name, Scene& scene, const GltfImportOptions& options)
        : mName(std::move(name)), mScene(scene), mOptions(options)
    {
    }

    [[noreturn]] void fail(const std::string& what) const
    {
        throw SceneError("cannot load glTF '" + printable(mName) + "': " + what);
    }

    void warn(const std::string& what) const { util::logWarning("glTF '{}': {}", printable(mName), what); }

    void run(std::span<const std::uint8_t> bytes, const std::filesystem::path& folder)
    {
        FileAccess access;
        if (!folder.empty()) {
            std::error_code error;
            access.folder = std::filesystem::weakly_canonical(std::filesystem::absolute(folder, error), error);
            if (error)
                fail("cannot resolve its folder: " + error.message());
        }
        mBudget.fileName = mName;
        tinygltf::TinyGLTF loader;
        loader.SetFsCallbacks({&fileExists, &expandFilePath, &readWholeFile, &writeWholeFile, &access});
        loader.SetImageLoader(&loadImageData, &mBudget);
        std::string err;
        std::string warn;
        bool binary = bytes.size() >= 4 && std::memcmp(bytes.data(), "glTF", 4) == 0;
        if (bytes.size() > std::size_t(std::numeric_limits<unsigned int>::max() / 2))
            fail("the file is too large");
        std::string baseDir = access.folder.empty() ? std::string() : access.folder.string();
        bool ok = binary ? loader.LoadBinaryFromMemory(&mModel, &err, &warn, bytes.data(),
                                                       static_cast<unsigned int>(bytes.size()), baseDir)
                         : loader.LoadASCIIFromString(&mModel, &err, &warn, reinterpret_cast<const char*>(bytes.data()),
                                                      static_cast<unsigned int>(bytes.size()), baseDir);
        if (!ok) {
            if (!mBudget.failure.empty())
                fail(mBudget.failure);
            if (!access.refusal.empty())
                fail("cannot read " + access.refusal);
            fail(firstLine(err.empty() ? warn : err));
        }
        mFolder = access.folder;
        checkExtensions();
        importMaterials();
        importNodes();
    }

private:
    // ---- images and textures --------------------------------------------------------------------

    const image::Image8* imagePixels(int imageIndex, const std::string& what)
    {
        if (imageIndex < 0 || std::size_t(imageIndex) >= mModel.images.size())
            fail(what + " refers to image " + std::to_string(imageIndex) + ", which does not exist");
        auto found = mImages.find(imageIndex);
        if (found != mImages.end())
            return found->second.get();
        tinygltf::Image& img = mModel.images[std::size_t(imageIndex)];
        if (img.image.empty() && img.bufferView >= 0)
            loadBufferViewImage(img, imageIndex);
        else if (img.image.empty() && !img.uri.empty())
            loadExternalImage(img, imageIndex);
        if (img.image.empty() || img.width <= 0 || img.height <= 0 || img.component != 4 || img.bits != 8 ||
            img.image.size() != std::size_t(img.width) * std::size_t(img.height) * 4)
            fail("image " + std::to_string(imageIndex) + " has no pixel data");
        auto pixels = std::make_shared<image::Image8>();
        pixels->width = img.width;
        pixels->height = img.height;
        pixels->channels = 4;
        pixels->pixels = std::move(img.image);
        const image::Image8* result = pixels.get();
        mImages[imageIndex] = std::move(pixels);
        return result;
    }

    void loadBufferViewImage(tinygltf::Image& img, int index)
    {
        std::string what = "image " + std::to_string(index);
        if (std::size_t(img.bufferView) >= mModel.bufferViews.size())
            fail(what + " refers to bufferView " + std::to_string(img.bufferView) + ", which does not exist");
        const tinygltf::BufferView& view = mModel.bufferViews[std::size_t(img.bufferView)];
        if (view.buffer < 0 || std::size_t(view.buffer) >= mModel.buffers.size())
            fail(what + ": its bufferView refers to buffer " + std::to_string(view.buffer) + ", which does not exist");
        const std::vector<unsigned char>& buffer = mModel.buffers[std::size_t(view.buffer)].data;
        if (view.byteOffset > buffer.size() || view.byteLength > buffer.size() - view.byteOffset ||
            view.byteLength == 0)
            fail(what + ": bufferView " + std::to_string(img.bufferView) + " reaches past the end of buffer " +
                 std::to_string(view.buffer) + " (" + std::to_string(buffer.size()) + " bytes)");
        if (!decodeImage(&img, index, buffer.data() + view.byteOffset, view.byteLength, mBudget, nullptr))
            fail(mBudget.failure);
    }

    void loadExternalImage(tinygltf::Image& img, int index)
    {
        std::string uri = decodeUri(img.uri);
        if (mFolder.empty())
            fail("image " + std::to_string(index) + " references external file '" + printable(uri) +
                 "' (this input may not reference files)");
        std::filesystem::path relative(uri);
        if (relative.is_absolute())
            fail("image " + std::to_string(index) + " has an absolute path '" + printable(uri) + "'");
        std::string path = (mFolder / relative).string();
        FileAccess access{mFolder, {}};
        std::vector<unsigned char> bytes;
        std::string err;
        std::error_code error;
        if (!std::filesystem::exists(path, error))
            fail("image " + std::to_string(index) + " file '" + printable(uri) + "' does not exist");
        if (!readWholeFile(&bytes, &err, path, &access))
            fail("image " + std::to_string(index) + ": " + access.refusal);
        if (!decodeImage(&img, index, bytes.data(), bytes.size(), mBudget, nullptr))
            fail(mBudget.failure + " ('" + printable(uri) + "')");
    }

    static TextureWrap wrapOf(int glWrap)
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

    /// The scene texture for glTF texture `index` in the given colour space (-1 for none).
    int textureFor(int index, int texCoord, bool srgb, const std::string& what)
    {
        if (index < 0)
            return -1;
        if (std::size_t(index) >= mModel.textures.size())
            fail(what + " refers to texture " + std::to_string(index) + ", which does not exist");
        if (texCoord != 0)
            warn(what + " uses TEXCOORD_" + std::to_string(texCoord) + "; TEXCOORD_0 is used instead");
        auto key = std::make_pair(index, srgb);
        auto found = mTextures.find(key);
        if (found != mTextures.end())
            return found->second;
        const tinygltf::Texture& gltfTexture = mModel.textures[std::size_t(index)];
        std::string textureWhat = "texture " + std::to_string(index);
        if (gltfTexture.source < 0)
            fail(textureWhat + " has no image (extension-only image formats are not supported)");
        imagePixels(gltfTexture.source, textureWhat);
        Texture texture;
        texture.name = gltfTexture.name.empty() ? mName + "#texture" + std::to_string(index) : gltfTexture.name;
        texture.image = mImages.at(gltfTexture.source);
        texture.srgb = srgb;
        if (gltfTexture.sampler >= 0) {
            if (std::size_t(gltfTexture.sampler) >= mModel.samplers.size())
                fail(textureWhat + " refers to sampler " + std::to_string(gltfTexture.sampler) +
                     ", which does not exist");
            const tinygltf::Sampler& sampler = mModel.samplers[std::size_t(gltfTexture.sampler)];
            texture.wrapS = wrapOf(sampler.wrapS);
            texture.wrapT = wrapOf(sampler.wrapT);
        }
        int sceneIndex = int(mScene.textures.size());
        mScene.textures.push_back(std::move(texture));
        mTextures[key] = sceneIndex;
        return sceneIndex;
    }

    // ---- materials ------------------------------------------------------------------------------

    void checkExtensions()
    {
        for (const std::string& required : mModel.extensionsRequired) {
            if (required != "KHR_lights_punctual" && required != "KHR_materials_emissive_strength")
                fail("requires extension " + printable(required) + ", which is not supported");
        }
    }

    template <std::size_t N>
    std::array<float, N> factor(const std::vector<double>& values,
                                std::array<float, N> fallback,
                                const std::string& what)
    {
        if (values.empty())
            return fallback;
        if (values.size() != N)
            fail(what + " must have " + std::to_string(N) + " numbers, got " + std::to_string(values.size()));
        std::array<float, N> out;
        for (std::size_t i = 0; i < N; ++i) {
            out[i] = float(values[i]);
            if (!finite(out[i]))
                fail(what + " holds a non-finite number");
        }
        return out;
    }

    void importMaterials()
    {
        mMaterialBase = int(mScene.materials.size());
        for (std::size_t i = 0; i < mModel.materials.size(); ++i) {
            const tinygltf::Material& g = mModel.materials[i];
            std::string what = "material " + std::to_string(i);
            Material m;
            m.name = g.name.empty() ? mName + "#material" + std::to_string(i) : g.name;
            const tinygltf::PbrMetallicRoughness& pbr = g.pbrMetallicRoughness;
            auto base = factor<4>(pbr.baseColorFactor, {1, 1, 1, 1}, what + " baseColorFactor");
            m.baseColor = glm::clamp(glm::vec3(base[0], base[1], base[2]), 0.0f, 1.0f);
            m.baseAlpha = std::clamp(base[3], 0.0f, 1.0f);
            m.metalness = std::clamp(float(pbr.metallicFactor), 0.0f, 1.0f);
            m.roughness = std::clamp(float(pbr.roughnessFactor), 0.0f, 1.0f);
            if (!finite(float(pbr.metallicFactor)) || !finite(float(pbr.roughnessFactor)))
                fail(what + " has a non-finite metallic or roughness factor");
            m.textures.baseColor =
                textureFor(pbr.baseColorTexture.index, pbr.baseColorTexture.texCoord, true, what + " baseColorTexture");
            m.textures.metallicRoughness =
                textureFor(pbr.metallicRoughnessTexture.index, pbr.metallicRoughnessTexture.texCoord, false,
                           what + " metallicRoughnessTexture");
            m.textures.normal =
                textureFor(g.normalTexture.index, g.normalTexture.texCoord, false, what + " normalTexture");
            m.normalScale = float(g.normalTexture.scale);
            m.textures.occlusion =
                textureFor(g.occlusionTexture.index, g.occlusionTexture.texCoord, false, what + " occlusionTexture");
            m.occlusionStrength = std::clamp(float(g.occlusionTexture.strength), 0.0f, 1.0f);
            m.textures.emissive =
                textureFor(g.emissiveTexture.index, g.emissiveTexture.texCoord, true, what + " emissiveTexture");
            if (!finite(m.normalScale) || !finite(float(g.occlusionTexture.strength)))
                fail(what + " has a non-finite normal scale or occlusion strength");

            auto emissive = factor<3>(g.emissiveFactor, {0, 0, 0}, what + " emissiveFactor");
            glm::vec3 emission = glm::max(glm::vec3(emissive[0], emissive[1], emissive[2]), 0.0f);
            float strength = 1.0f;
            auto extension = g.extensions.find("KHR_materials_emissive_strength");
            if (extension != g.extensions.end() && extension->second.IsObject() &&
                extension->second.Has("emissiveStrength")) {
                const tinygltf::Value& value = extension->second.Get("emissiveStrength");
                strength = value.IsNumber() ? float(value.GetNumberAsDouble()) : -1.0f;
                if (!finite(strength) || strength < 0.0f)
                    fail(what + " KHR_materials_emissive_strength must be a non-negative number");
            }
            float luminance = luminanceOf(emission);
            if (luminance > 0.0f) {
                m.emissionColor = emission / luminance;
                m.emissionLuminance = luminance * strength * mOptions.emissiveLuminance;
                if (!finite(m.emissionLuminance))
                    fail(what + " has an emission too strong to represent");
            }

            if (g.alphaMode == "MASK" || g.alphaMode == "BLEND") {
                if (g.alphaMode == "BLEND")
                    warn(what + " uses alphaMode BLEND, drawn as MASK (cutoff " + shortNumber(g.alphaCutoff) + ")");
                m.alphaMode = AlphaMode::Mask;
                m.alphaCutoff = float(g.alphaCutoff);
                if (!finite(m.alphaCutoff))
                    fail(what + " has a non-finite alphaCutoff");
            } else if (g.alphaMode != "OPAQUE") {
                fail(what + " has unknown alphaMode '" + printable(g.alphaMode) + "'");
            }
            m.doubleSided = g.doubleSided;
            mScene.materials.push_back(std::move(m));
        }
    }

    int defaultMaterial()
    {
        if (mDefaultMaterial < 0) {
            // The spec's default material: white, fully metallic, fully rough.
            Material m;
            m.name = mName + "#default";
            m.baseColor = glm::vec3(1.0f);
            m.metalness = 1.0f;
            m.roughness = 1.0f;
            mDefaultMaterial = int(mScene.materials.size());
            mScene.materials.push_back(m);
        }
        return mDefaultMaterial;
    }

    // ---- accessors ------------------------------------------------------------------------------

    struct AccessorView
    {
        const std::uint8_t* data = nullptr;  ///< null: all zeros (no bufferView)
        std::size_t stride = 0;
        std::size_t count = 0;
        int componentType = 0;
        int components = 0;
        bool normalized = false;
    };

    AccessorView view(int index, const std::string& what)
    {
        if (index < 0 || std::size_t(index) >= mModel.accessors.size())
            fail(what + " refers to accessor " + std::to_string(index) + ", which does not exist");
        const tinygltf::Accessor& a = mModel.accessors[std::size_t(index)];
        std::string where = what + " (accessor " + std::to_string(index) + ")";
        if (a.sparse.isSparse)
            fail(where + " is sparse; sparse accessors are not supported");
        AccessorView v;
        v.count = a.count;
        v.componentType = a.componentType;
        v.components = tinygltf::GetNumComponentsInType(std::uint32_t(a.type));
        v.normalized = a.normalized;
        int componentSize = tinygltf::GetComponentSizeInBytes(std::uint32_t(a.componentType));
        if (v.components <= 0 || componentSize <= 0)
            fail(where + " has an invalid type or component type");
        if (v.count == 0)
            fail(where + " has count 0");
        if (v.count > kMaxGltfIndices)
            fail(where + " has an absurd count of " + std::to_string(v.count));
        std::size_t elementSize = std::size_t(componentSize) * std::size_t(v.components);
        if (a.bufferView < 0)
            return v;  // zeros, per the spec
        if (std::size_t(a.bufferView) >= mModel.bufferViews.size())
            fail(where + " refers to bufferView " + std::to_string(a.bufferView) + ", which does not exist");
        const tinygltf::BufferView& bv = mModel.bufferViews[std::size_t(a.bufferView)];
        if (bv.buffer < 0 || std::size_t(bv.buffer) >= mModel.buffers.size())
            fail(where + ": its bufferView refers to buffer " + std::to_string(bv.buffer) + ", which does not exist");
        const std::vector<unsigned char>& buffer = mModel.buffers[std::size_t(bv.buffer)].data;
        if (bv.byteOffset > buffer.size() || bv.byteLength > buffer.size() - bv.byteOffset)
            fail(where + ": bufferView " + std::to_string(a.bufferView) + " reaches past the end of buffer " +
                 std::to_string(bv.buffer) + " (" + std::to_string(buffer.size()) + " bytes)");
        v.stride = bv.byteStride != 0 ? bv.byteStride : elementSize;
        if (v.stride < elementSize || v.stride > 252)
            fail(where + " has byteStride " + std::to_string(v.stride) + " for elements of " +
                 std::to_string(elementSize) + " bytes");
        if (a.byteOffset % std::size_t(componentSize) != 0)
            fail(where + " has a byteOffset that is not a multiple of its component size");
        std::size_t needed = a.byteOffset + v.stride * (v.count - 1) + elementSize;
        if (a.byteOffset > bv.byteLength || needed > bv.byteLength)
            fail(where + " reaches past the end of its bufferView (" + std::to_string(needed) + " bytes needed, " +
                 std::to_string(bv.byteLength) + " there)");
        v.data = buffer.data() + bv.byteOffset + a.byteOffset;
        return v;
    }

    static float component(const AccessorView& v, std::size_t element, int c)
    {
        if (!v.data)
            return 0.0f;
        const std::uint8_t* p = v.data + element * v.stride;
        auto read = [&](auto type) {
            using T = decltype(type);
            T value;
            std::memcpy(&value, p + sizeof(T) * std::size_t(c), sizeof(T));
            return value;
        };
        switch (v.componentType) {
            case TINYGLTF_COMPONENT_TYPE_FLOAT:
                return read(float());
            case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE:
                return v.normalized ? float(read(std::uint8_t())) / 255.0f : float(read(std::uint8_t()));
            case TINYGLTF_COMPONENT_TYPE_BYTE:
                return v.normalized ? std::max(float(read(std::int8_t())) / 127.0f, -1.0f) : float(read(std::int8_t()));
            case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT:
                return v.normalized ? float(read(std::uint16_t())) / 65535.0f : float(read(std::uint16_t()));
            case TINYGLTF_COMPONENT_TYPE_SHORT:
                return v.normalized ? std::max(float(read(std::int16_t())) / 32767.0f, -1.0f)
                                    : float(read(std::int16_t()));
            case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT:
                return float(read(std::uint32_t()));
            default:
                return 0.0f;
        }
    }

    /// An attribute as float vectors of `components` (its accessor must have exactly that many),
    /// restricted to the component types the spec allows for it.
    std::vector<glm::vec4> readVectors(int index,
                                       int components,
                                       std::initializer_list<int> componentTypes,
                                       std::size_t expectedCount,
                                       const std::string& what)
    {
        AccessorView v = view(index, what);
        if (v.components != components)
            fail(what + " must have " + std::to_string(components) + " components, got " +
                 std::to_string(v.components));
        if (std::find(componentTypes.begin(), componentTypes.end(), v.componentType) == componentTypes.end())
            fail(what + " has component type " + std::to_string(v.componentType) + ", not allowed for it");
        if (v.componentType != TINYGLTF_COMPONENT_TYPE_FLOAT && !v.normalized)
            fail(what + " has integer components that are not normalized");
        if (expectedCount != 0 && v.count != expectedCount)
            fail(what + " has " + std::to_string(v.count) + " elements, POSITION has " + std::to_string(expectedCount));
        std::vector<glm::vec4> out(v.count, glm::vec4(0.0f));
        for (std::size_t i = 0; i < v.count; ++i)
            for (int c = 0; c < components; ++c) {
                float value = component(v, i, c);
                if (!finite(value))
                    fail(what + " holds a non-finite number at element " + std::to_string(i));
                out[i][c] = value;
            }
        return out;
    }

    std::vector<std::uint32_t> readIndices(int index, std::size_t vertexCount, const std::string& what)
    {
        AccessorView v = view(index, what);
        if (v.components != 1)
            fail(what + " must be SCALAR");
        if (v.componentType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE &&
            v.componentType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT &&
            v.componentType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT)
            fail(what + " must have an unsigned integer component type, got " + std::to_string(v.componentType));
        std::vector<std::uint32_t> out(v.count);
        for (std::size_t i = 0; i < v.count; ++i) {
            std::uint32_t value = 0;
            if (v.data) {
                const std::uint8_t* p = v.data + i * v.stride;
                if (v.componentType == TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE) {
                    value = *p;
                } else if (v.componentType == TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT) {
                    std::uint16_t shortValue;
                    std::memcpy(&shortValue, p, 2);
                    value = shortValue;
                } else {
                    std::memcpy(&value, p, 4);
                }
            }
            if (std::size_t(value) >= vertexCount)
                fail(what + " holds index " + std::to_string(value) + " at element " + std::to_string(i) +
                     ", but there are only " + std::to_string(vertexCount) + " vertices");
            out[i] = value;
        }
        return out;
    }

    // ---- nodes and meshes -----------------------------------------------------------------------

    glm::mat4 localTransform(const tinygltf::Node& node, const std::string& what)
    {
        auto numbers = [&](const std::vector<double>& values, std::size_t n, const char* field) {
            if (values.size() != n)
                fail(what + " \"" + field + "\" must have " + std::to_string(n) + " numbers, got " +
                     std::to_string(values.size()));
            for (double value : values)
                if (!std::isfinite(value) || std::abs(value) > 1e15)
                    fail(what + " \"" + field + "\" holds a non-finite or absurd number");
        };
        if (!node.matrix.empty()) {
            numbers(node.matrix, 16, "matrix");
            glm::mat4 m;
            for (int i = 0; i < 16; ++i)
                m[i / 4][i % 4] = float(node.matrix[std::size_t(i)]);  // column-major, like glm
            return m;
        }
        glm::mat4 m(1.0f);
        if (!node.translation.empty()) {
            numbers(node.translation, 3, "translation");
            m = glm::translate(m, glm::vec3(node.translation[0], node.translation[1], node.translation[2]));
        }
        if (!node.rotation.empty()) {
            numbers(node.rotation, 4, "rotation");
            glm::quat q(float(node.rotation[3]), float(node.rotation[0]), float(node.rotation[1]),
                        float(node.rotation[2]));
            float length = glm::length(q);
            if (!(length > 1e-6f))
                fail(what + " \"rotation\" is not a unit quaternion");
            m *= glm::mat4_cast(q / length);
        }
        if (!node.scale.empty()) {
            numbers(node.scale, 3, "scale");
            m = glm::scale(m, glm::vec3(node.scale[0], node.scale[1], node.scale[2]));
        }
        return m;
    }

    void importNodes()
    {
        std::vector<int> roots;
        if (!mModel.scenes.empty()) {
            int sceneIndex = mModel.defaultScene >= 0 ? mModel.defaultScene : 0;
            if (std::size_t(sceneIndex) >= mModel.scenes.size())
                fail("default scene " + std::to_string(sceneIndex) + " does not exist");
            roots = mModel.scenes[std::size_t(sceneIndex)].nodes;
        } else {
            // No scene: every node that is nobody's child is a root.
            std::vector<bool> isChild(mModel.nodes.size(), false);
            for (const tinygltf::Node& node : mModel.nodes)
                for (int child : node.children)
                    if (child >= 0 && std::size_t(child) < isChild.size())
                        isChild[std::size_t(child)] = true;
            for (std::size_t i = 0; i < mModel.nodes.size(); ++i)
                if (!isChild[i])
                    roots.push_back(int(i));
        }
        // Iterative walk: node trees may be deep, and a damaged file may hold cycles or share a node
        // between parents, which the spec forbids.
        std::vector<bool> visited(mModel.nodes.size(), false);
        std::vector<std::pair<int, glm::mat4>> stack;
        for (auto it = roots.rbegin(); it != roots.rend(); ++it)
            stack.emplace_back(*it, mOptions.transform);
        while (!stack.empty()) {
            auto [index, parent] = stack.back();
            stack.pop_back();
            if (index < 0 || std::size_t(index) >= mModel.nodes.size())
                fail("a scene or node refers to node " + std::to_string(index) + ", which does not exist");
            std::string what = "node " + std::to_string(index);
            if (visited[std::size_t(index)])
                fail(what + " is reached twice (a cycle or a node with two parents)");
            visited[std::size_t(index)] = true;
            const tinygltf::Node& node = mModel.nodes[std::size_t(index)];
            glm::mat4 world = parent * localTransform(node, what);
            if (node.mesh >= 0)
                importMesh(node.mesh, world, what);
            if (mOptions.takeLightsAndCamera) {
                if (node.camera >= 0)
                    importCamera(node.camera, world, what);
                auto lights = node.extensions.find("KHR_lights_punctual");
                if (lights != node.extensions.end() && lights->second.IsObject() && lights->second.Has("light")) {
                    const tinygltf::Value& light = lights->second.Get("light");
                    if (!light.IsInt())
                        fail(what + " KHR_lights_punctual \"light\" must be an integer");
                    importLight(light.Get<int>(), world, what);
                }
            }
            for (auto child = node.children.rbegin(); child != node.children.rend(); ++child)
                stack.emplace_back(*child, world);
        }
    }

    void importMesh(int meshIndex, const glm::mat4& world, const std::string& nodeWhat)
    {
        if (std::size_t(meshIndex) >= mModel.meshes.size())
            fail(nodeWhat + " refers to mesh " + std::to_string(meshIndex) + ", which does not exist");
        const tinygltf::Mesh& mesh = mModel.meshes[std::size_t(meshIndex)];
        glm::mat3 linear(world);
        glm::mat3 normalMatrix = glm::transpose(glm::inverse(linear));
        bool mirrored = glm::determinant(linear) < 0.0f;
        for (std::size_t p = 0; p < mesh.primitives.size(); ++p) {
            const tinygltf::Primitive& primitive = mesh.primitives[p];
            std::string what = "mesh " + std::to_string(meshIndex) + " primitive " + std::to_string(p);
            int mode = primitive.mode < 0 ? TINYGLTF_MODE_TRIANGLES : primitive.mode;
            if (mode != TINYGLTF_MODE_TRIANGLES && mode != TINYGLTF_MODE_TRIANGLE_STRIP &&
                mode != TINYGLTF_MODE_TRIANGLE_FAN)
                fail(what + " has mode " + std::to_string(mode) +
                     " (points or lines); only triangles, strips and fans are supported");
            if (!primitive.targets.empty())
                warn(what + " has morph targets, which are ignored");
            auto attribute = [&](const char* name) {
                auto found = primitive.attributes.find(name);
                return found == primitive.attributes.end() ? -1 : found->second;
            };
            int positionIndex = attribute("POSITION");
            if (positionIndex < 0)
                fail(what + " has no POSITION attribute");
            std::vector<glm::vec4> positions =
                readVectors(positionIndex, 3, {TINYGLTF_COMPONENT_TYPE_FLOAT}, 0, what + " POSITION");
            std::size_t count = positions.size();
            std::vector<glm::vec4> normals, tangents, texcoords;
            if (int n = attribute("NORMAL"); n >= 0)
                normals = readVectors(n, 3, {TINYGLTF_COMPONENT_TYPE_FLOAT}, count, what + " NORMAL");
            if (int t = attribute("TANGENT"); t >= 0)
                tangents = readVectors(t, 4, {TINYGLTF_COMPONENT_TYPE_FLOAT}, count, what + " TANGENT");
            if (int uv = attribute("TEXCOORD_0"); uv >= 0)
                texcoords = readVectors(uv, 2,
                                        {TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE,
                                         TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT},
                                        count, what + " TEXCOORD_0");

            std::vector<std::uint32_t> indices;
            if (primitive.indices >= 0) {
                indices = readIndices(primitive.indices, count, what + " indices");
            } else {
                indices.resize(count);
                for (std::size_t i = 0; i < count; ++i)
                    indices[i] = std::uint32_t(i);
            }
            std::vector<std::uint32_t> triangles = toTriangleList(indices, mode);

            int material = primitive.material;
            if (material >= 0 && std::size_t(material) >= mModel.materials.size())
                fail(what + " refers to material " + std::to_string(material) + ", which does not exist");
            int sceneMaterial = material >= 0 ? mMaterialBase + material : defaultMaterial();

            ImportedMesh out;
            out.name = mesh.name.empty() ? mName + "#" + what : mesh.name;
            out.material = sceneMaterial;
            out.castsShadow = mOptions.castsShadow;
            bool flat = normals.empty();
            if (flat) {
                // No normals: flat shading, so every triangle gets its own three vertices.
                for (std::size_t t = 0; t + 2 < triangles.size(); t += 3) {
                    glm::vec3 a(positions[triangles[t]]), b(positions[triangles[t + 1]]),
                        c(positions[triangles[t + 2]]);
                    glm::vec3 n = glm::cross(b - a, c - a);
                    n = glm::dot(n, n) > 0.0f ? glm::normalize(n) : glm::vec3(0, 1, 0);
                    for (int k = 0; k < 3; ++k) {
                        std::uint32_t source = triangles[t + std::size_t(k)];
                        MeshVertex v{glm::vec3(positions[source]), n};
                        if (!texcoords.empty())
                            v.texcoord = glm::vec2(texcoords[source]);
                        if (!tangents.empty())
                            v.tangent = tangents[source];
                        out.vertices.push_back(v);
                        out.indices.push_back(std::uint32_t(out.vertices.size() - 1));
                    }
                }
            } else {
                out.vertices.resize(count);
                for (std::size_t i = 0; i < count; ++i) {
                    MeshVertex& v = out.vertices[i];
                    v.position = glm::vec3(positions[i]);
                    v.normal = glm::vec3(normals[i]);
                    if (!texcoords.empty())
                        v.texcoord = glm::vec2(texcoords[i]);
                    if (!tangents.empty())
                        v.tangent = tangents[i];
                }
                out.indices = std::move(triangles);
            }
            const Material& m = mScene.materials[std::size_t(sceneMaterial)];
            if (tangents.empty() && m.textures.normal >= 0 && !texcoords.empty())
                generateTangents(out);
            bakeToWorld(out, world, normalMatrix, mirrored);
            mVertexTotal += out.vertices.size();
            mIndexTotal += out.indices.size();
            if (mVertexTotal > kMaxGltfVertices || mIndexTotal > kMaxGltfIndices)
                fail("the scene has more than " + std::to_string(kMaxGltfVertices) + " vertices or " +
                     std::to_string(kMaxGltfIndices) + " indices after instancing");
            if (!out.indices.empty())
                mScene.meshes.push_back(std::move(out));
        }
    }

    std::vector<std::uint32_t> toTriangleList(const std::vector<std::uint32_t>& indices, int mode)
    {
        std::vector<std::uint32_t> out;
        if (mode == TINYGLTF_MODE_TRIANGLES) {
            out.assign(indices.begin(), indices.begin() + std::ptrdiff_t(indices.size() / 3 * 3));
            return out;
        }
        for (std::size_t i = 2; i < indices.size(); ++i) {
            if (mode == TINYGLTF_MODE_TRIANGLE_STRIP) {
                bool odd = (i % 2) == 1;
                out.insert(out.end(),
                           {indices[i - 2], odd ? indices[i] : indices[i - 1], odd ? indices[i - 1] : indices[i]});
            } else {
                out.insert(out.end(), {indices[0], indices[i - 1], indices[i]});
            }
        }
        return out;
    }

    /// Per-triangle tangents from the texture coordinates, accumulated per vertex (Lengyel's method).
    static void generateTangents(ImportedMesh& mesh)
    {
        std::vector<glm::vec3> tan(mesh.vertices.size(), glm::vec3(0.0f));
        std::vector<glm::vec3> bitan(mesh.vertices.size(), glm::vec3(0.0f));
        for (std::size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
            std::uint32_t i0 = mesh.indices[t], i1 = mesh.indices[t + 1], i2 = mesh.indices[t + 2];
            const MeshVertex &a = mesh.vertices[i0], &b = mesh.vertices[i1], &c = mesh.vertices[i2];
            glm::vec3 e1 = b.position - a.position, e2 = c.position - a.position;
            glm::vec2 d1 = b.texcoord - a.texcoord, d2 = c.texcoord - a.texcoord;
            float det = d1.x * d2.y - d2.x * d1.y;
            if (std::abs(det) < 1e-20f)
                continue;
            float r = 1.0f / det;
            glm::vec3 sdir = (e1 * d2.y - e2 * d1.y) * r;
            glm::vec3 tdir = (e2 * d1.x - e1 * d2.x) * r;
            if (!std::isfinite(glm::dot(sdir, sdir)) || !std::isfinite(glm::dot(tdir, tdir)))
                continue;
            for (std::uint32_t i : {i0, i1, i2}) {
                tan[i] += sdir;
                bitan[i] += tdir;
            }
        }
        for (std::size_t i = 0; i < mesh.vertices.size(); ++i) {
            glm::vec3 n = mesh.vertices[i].normal;
            glm::vec3 t = tan[i] - n * glm::dot(n, tan[i]);
            if (!(glm::dot(t, t) > 1e-20f) || !std::isfinite(glm::dot(t, t)))
                continue;  // no usable frame: the shader then ignores the normal map here
            t = glm::normalize(t);
            float w = glm::dot(glm::cross(n, t), bitan[i]) < 0.0f ? -1.0f : 1.0f;
            mesh.vertices[i].tangent = glm::vec4(t, w);
        }
    }

    void bakeToWorld(ImportedMesh& mesh, const glm::mat4& world, const glm::mat3& normalMatrix, bool mirrored)
    {
        glm::mat3 linear(world);
        for (MeshVertex& v : mesh.vertices) {
            v.position = glm::vec3(world * glm::vec4(v.position, 1.0f));
            glm::vec3 n = normalMatrix * v.normal;
            v.normal = glm::dot(n, n) > 1e-30f ? glm::normalize(n) : glm::vec3(0, 1, 0);
            glm::vec3 t = linear * glm::vec3(v.tangent);
            if (v.tangent.w != 0.0f && glm::dot(t, t) > 1e-30f)
                v.tangent =
                    glm::vec4(glm::normalize(t), (v.tangent.w < 0.0f ? -1.0f : 1.0f) * (mirrored ? -1.0f : 1.0f));
            else
                v.tangent = glm::vec4(0.0f);
            v.material = float(mesh.material);
            if (!finite(v.position.x) || !finite(v.position.y) || !finite(v.position.z) || !finite(v.normal.x) ||
                !finite(v.normal.y) || !finite(v.normal.z))
                fail("mesh '" + printable(mesh.name) + "' has non-finite vertices after its node transforms");
        }
        if (mirrored)  // a mirroring transform turns counter-clockwise triangles clockwise
            for (std::size_t t = 0; t + 2 < mesh.indices.size(); t += 3)
                std::swap(mesh.indices[t + 1], mesh.indices[t + 2]);
    }

    // ---- camera and lights ----------------------------------------------------------------------

    void importCamera(int index, const glm::mat4& world, const std::string& nodeWhat)
    {
        if (std::size_t(index) >= mModel.cameras.size())
            fail(nodeWhat + " refers to camera " + std::to_string(index) + ", which does not exist");
        if (mCameraTaken)
            return;
        const tinygltf::Camera& c = mModel.cameras[std::size_t(index)];
        if (c.type != "perspective") {
            warn("camera " + std::to_string(index) + " is not perspective and is ignored");
            return;
        }
        mCameraTaken = true;
        Camera& camera = mScene.camera;
        float fov = glm::degrees(float(c.perspective.yfov));
        if (finite(fov) && fov > 0.0f && fov < 179.0f)
            camera.verticalFovDegrees = fov;
        if (c.perspective.znear > 0.0 && std::isfinite(c.perspective.znear))
            camera.nearPlane = float(c.perspective.znear);
        if (c.perspective.zfar > c.perspective.znear && std::isfinite(c.perspective.zfar))
            camera.farPlane = float(c.perspective.zfar);
        if (!(camera.farPlane > camera.nearPlane))
            camera.farPlane = camera.nearPlane * 1e4f;
        camera.position = glm::vec3(world[3]);
        glm::vec3 forward = glm::mat3(world) * glm::vec3(0, 0, -1);
        if (glm::dot(forward, forward) > 1e-12f) {
            forward = glm::normalize(forward);
            camera.yawDegrees = glm::degrees(std::atan2(forward.x, -forward.z));
            camera.pitchDegrees =
                std::clamp(glm::degrees(std::asin(std::clamp(forward.y, -1.0f, 1.0f))), -89.9f, 89.9f);
        }
        mScene.cameraPath = {};
    }

    void importLight(int index, const glm::mat4& world, const std::string& nodeWhat)
    {
        if (index < 0 || std::size_t(index) >= mModel.lights.size())
            fail(nodeWhat + " refers to light " + std::to_string(index) + ", which does not exist");
        const tinygltf::Light& light = mModel.lights[std::size_t(index)];
        std::string what = "light " + std::to_string(index);
        auto color = factor<3>(light.color, {1, 1, 1}, what + " color");
        glm::vec3 rgb = glm::max(glm::vec3(color[0], color[1], color[2]), 0.0f);
        float luminance = luminanceOf(rgb);
        float intensity = float(light.intensity) * luminance;
        if (!finite(intensity) || intensity < 0.0f)
            fail(what + " has a negative or non-finite intensity");
        glm::vec3 hue = luminance > 0.0f ? rgb / luminance : glm::vec3(1.0f);
        if (light.type == "directional") {
            if (mSunTaken) {
                warn(what + ": only the first directional light becomes the sun; this one is ignored");
                return;
            }
            mSunTaken = true;
            glm::vec3 towards = glm::mat3(world) * glm::vec3(0, 0, 1);  // the light shines along -Z
            if (!(glm::dot(towards, towards) > 1e-12f))
                fail(what + " has a degenerate direction");
            towards = glm::normalize(towards);
            Sun& sun = mScene.sun;
            sun.illuminance = intensity;  // lux
            sun.color = hue;
            sun.azimuthDegrees = glm::degrees(std::atan2(towards.x, -towards.z));
            sun.elevationDegrees = glm::degrees(std::asin(std::clamp(towards.y, -1.0f, 1.0f)));
            return;
        }
        if (light.type == "spot")
            warn(what + " is a spot light, drawn as a point light");
        else if (light.type != "point")
            fail(what + " has unknown type '" + printable(light.type) + "'");
        if (mScene.lights.size() >= std::size_t(kMaxPointLights)) {
            warn(what + ": at most " + std::to_string(kMaxPointLights) + " point lights are supported; ignored");
            return;
        }
        PointLight point;
        point.position = glm::vec3(world[3]);
        point.intensity = intensity;  // cd
        point.color = hue;
        // glTF range 0 means infinite: stop where the illuminance falls to 0.01 lux.
        float range = light.range > 0.0 && std::isfinite(light.range) ? float(light.range)
                                                                      : std::sqrt(std::max(intensity, 1e-6f) / 0.01f);
        point.range = std::clamp(range, 0.01f, 1e4f);
        mScene.lights.push_back(point);
    }

    std::string mName;
    Scene& mScene;
    GltfImportOptions mOptions;
    tinygltf::Model mModel;
    ImageBudget mBudget;
    std::filesystem::path mFolder;
    std::map<int, std::shared_ptr<image::Image8>> mImages;
    std::map<std::pair<int, bool>, int> mTextures;
    int mMaterialBase = 0;
    int mDefaultMaterial = -1;
    std::size_t mVertexTotal = 0;
    std::size_t mIndexTotal = 0;
    bool mCameraTaken = false;
    bool mSunTaken = false;
};

std::vector<std::uint8_t> readFileBytes(const std::filesystem::path& path)
{
    std::string name = printable(path.string());
    std::error_code error;
    if (std::filesystem::is_directory(path, error))
        throw SceneError("cannot load glTF '" + name + "': it is a folder, not a file");
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        int code = errno;
        throw SceneError("cannot load glTF '" + name + "': " + std::strerror(code != 0 ? code : ENOENT));
    }
    std::uintmax_t size = std::filesystem::file_size(path, error);
    if (error || size > image::kMaxFileBytes)
        throw SceneError("cannot load glTF '" + name + "': not a readable file of at most 1 GiB");
    std::vector<std::uint8_t> bytes(static_cast<std::size_t>(size));
    if (!in.read(reinterpret_cast<char*>(bytes.data()), std::streamsize(size)))
        throw SceneError("cannot load glTF '" + name + "': read error");
    return bytes;
}

}  // namespace

void importGltfFromMemory(std::span<const std::uint8_t> bytes,
                          const std::string& name,
                          const std::filesystem::path& folder,
                          Scene& scene,
                          const GltfImportOptions& options)
{
    Importer(name, scene, options).run(bytes, folder);
}

void importGltf(const std::filesystem::path& file, Scene& scene, const GltfImportOptions& options)
{
    std::vector<std::uint8_t> bytes = readFileBytes(file);
    std::filesystem::path folder = file.parent_path();
    importGltfFromMemory(bytes, file.string(), folder.empty() ? std::filesystem::path(".") : folder, scene, options);
}

Scene loadGltfScene(const std::filesystem::path& file)
{
    Scene scene;
    scene.sourceName = file.string();
    scene.description = "glTF scene " + file.filename().string();
    GltfImportOptions options;
    options.takeLightsAndCamera = true;
    importGltf(file, scene, options);
    if (scene.meshes.empty())
        throw SceneError("cannot load glTF '" + printable(file.string()) + "': it has no triangles to draw");
    return scene;
}

bool looksLikeGltf(const std::filesystem::path& file)
{
    std::string extension = file.extension().string();
    std::transform(extension.begin(), extension.end(), extension.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    if (extension == ".gltf" || extension == ".glb")
        return true;
    std::ifstream in(file, std::ios::binary);
    char magic[4] = {};
    return in.read(magic, 4) && std::memcmp(magic, "glTF", 4) == 0;
}

}  // namespace scene
