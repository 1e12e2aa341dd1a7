// FuzzEntryPoints.cpp: the per-parser fuzz entry points and the invariants they check (see
// FuzzEntryPoints.h). Only the parsers' documented errors are expected; their messages must be
// one line (no control characters) of bounded length, naming the input.
#include "FuzzEntryPoints.h"

#include "image/HdrPng.h"
#include "image/ImageIo.h"
#include "net/TevImageStore.h"
#include "post/Parameter.h"
#include "scene/GltfLoader.h"
#include "scene/PrimitiveMesh.h"
#include "scene/Scene.h"

#include <algorithm>
#include <cstring>
#include <filesystem>

#include <unistd.h>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <string>

namespace fuzz {
namespace {

// Longest error message accepted: echoing a megabyte of the input back is no "clear line".
constexpr std::size_t kMaxMessageBytes = 1024;

void require(bool condition, const std::string& what)
{
    if (!condition)
        throw FuzzInvariantError(what);
}

void requireCleanMessage(std::string_view message, std::string_view expectedStart)
{
    require(message.starts_with(expectedStart),
            "error message does not start with \"" + std::string(expectedStart) + "\": " + std::string(message));
    require(message.size() <= kMaxMessageBytes,
            "error message of " + std::to_string(message.size()) + " bytes: " + std::string(message.substr(0, 200)));
    const bool hasControlCharacter =
        std::any_of(message.begin(), message.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20; });
    require(!hasControlCharacter, "error message holds a control character: " + std::string(message));
}

void requireConsistent(const image::ImageF& decoded)
{
    require(decoded.width >= 1 && decoded.height >= 1 && decoded.width <= image::kMaxImageDimension &&
                decoded.height <= image::kMaxImageDimension,
            "decoded image of " + std::to_string(decoded.width) + "x" + std::to_string(decoded.height));
    require(
        decoded.pixels.size() == std::size_t(decoded.width) * std::size_t(decoded.height) * image::ImageF::kChannels,
        "decoded image has the wrong number of values");
}

void requireConsistent(const image::Image8& decoded, int desiredChannels)
{
    require(decoded.width >= 1 && decoded.height >= 1 && decoded.width <= image::kMaxImageDimension &&
                decoded.height <= image::kMaxImageDimension,
            "decoded 8-bit image of " + std::to_string(decoded.width) + "x" + std::to_string(decoded.height));
    require(
        decoded.channels >= 1 && decoded.channels <= 4 && (desiredChannels == 0 || decoded.channels == desiredChannels),
        "decoded 8-bit image has " + std::to_string(decoded.channels) + " channels");
    require(decoded.pixels.size() ==
                std::size_t(decoded.width) * std::size_t(decoded.height) * std::size_t(decoded.channels),
            "decoded 8-bit image has the wrong number of bytes");
}

/// Decodes `input` as the app loads an image (decodeHdrImage) when its magic bytes say it is one
/// of `kinds` or nothing known; inputs that turned into another target's format are skipped so
/// each target spends its time on its own parser.
bool runImage(Bytes input, const char* name, std::initializer_list<image::FileKind> kinds)
{
    image::FileKind detected = image::detectFileKind(input.data(), input.size(), name);
    if (detected != image::FileKind::Unknown && std::find(kinds.begin(), kinds.end(), detected) == kinds.end())
        return false;
    const std::string messageStart = std::string("cannot read '") + name + "': ";
    try {
        requireConsistent(image::decodeHdrImage(input, name));
        return true;
    } catch (const image::ImageError& error) {
        requireCleanMessage(error.what(), messageStart);
    }
    return false;
}

bool finite(const glm::vec3& v)
{
    return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

void requireConsistent(const scene::Scene& parsed)
{
    require(!parsed.materials.empty() && (!parsed.objects.empty() || !parsed.models.empty()),
            "scene without materials or objects");
    for (const scene::ModelReference& model : parsed.models)
        require(!model.file.empty() && finite(model.position) && finite(model.rotationDegrees) && finite(model.scale) &&
                    std::isfinite(model.emissiveLuminance),
                "glTF model reference with an empty file or a non-finite value");
    for (const scene::Object& object : parsed.objects) {
        require(object.material >= 0 && std::size_t(object.material) < parsed.materials.size(),
                "object material index out of range");
        require(finite(object.position) && finite(object.rotationDegrees) && finite(object.size) &&
                    std::isfinite(object.radius) && std::isfinite(object.height),
                "object with a non-finite value");
    }
    require(parsed.lights.size() <= std::size_t(scene::kMaxPointLights), "too many lights");
    require(parsed.camera.nearPlane > 0.0f && parsed.camera.farPlane > parsed.camera.nearPlane, "bad camera planes");
    const std::vector<scene::CameraKeyframe>& keys = parsed.cameraPath.keyframes;
    for (std::size_t i = 1; i < keys.size(); ++i)
        require(keys[i].time > keys[i - 1].time, "keyframe times not increasing");
}

}  // namespace

void runScene(Bytes input)
{
    const std::string_view text(reinterpret_cast<const char*>(input.data()), input.size());
    scene::Scene parsed;
    try {
        parsed = scene::parseScene(text, "fuzz.json");
    } catch (const scene::SceneError& error) {
        requireCleanMessage(error.what(), "fuzz.json:");
        return;
    }
    requireConsistent(parsed);

    // What the app does next on the CPU: tessellate every object, and play the camera path.
    scene::TriangleMesh mesh = scene::buildSceneMesh(parsed);
    require(mesh.indices.size() % 3 == 0 && mesh.shadowCasterIndexCount <= mesh.indices.size(),
            "bad mesh index counts");
    for (std::uint32_t index : mesh.indices)
        require(index < mesh.vertices.size(), "mesh index out of range");
    const double start = parsed.cameraPath.empty() ? 0.0 : parsed.cameraPath.keyframes.front().time;
    const double duration = parsed.cameraPath.duration();
    for (double t : {start, start + 0.37 * duration, start + duration, start + 2.5 * duration + 1.0, -1.0e9,
                     std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
        scene::Camera camera = parsed.cameraAt(t);
        require(camera.pitchDegrees >= -89.9f && camera.pitchDegrees <= 89.9f, "camera pitch out of range");
    }
}

void runGltf(Bytes input)
{
    constexpr const char* kName = "fuzz.gltf";
    scene::Scene imported;
    scene::GltfImportOptions options;
    options.takeLightsAndCamera = true;
    try {
        scene::importGltfFromMemory(input, kName, {}, imported, options);
    } catch (const scene::SceneError& error) {
        requireCleanMessage(error.what(), std::string("cannot load glTF '") + kName + "': ");
        return;
    }
    for (const scene::Texture& texture : imported.textures) {
        require(texture.image != nullptr, "texture without an image");
        requireConsistent(*texture.image, 4);
    }
    auto validTexture = [&](int index) { return index >= -1 && index < int(imported.textures.size()); };
    for (const scene::Material& m : imported.materials) {
        const scene::MaterialTextures& t = m.textures;
        require(validTexture(t.baseColor) && validTexture(t.metallicRoughness) && validTexture(t.normal) &&
                    validTexture(t.emissive) && validTexture(t.occlusion),
                "material texture index out of range");
        require(finite(m.baseColor) && std::isfinite(m.emissionLuminance) && std::isfinite(m.alphaCutoff) &&
                    std::isfinite(m.normalScale),
                "material with a non-finite value");
    }
    for (const scene::ImportedMesh& mesh : imported.meshes) {
        require(mesh.material >= 0 && std::size_t(mesh.material) < imported.materials.size(),
                "mesh material index out of range");
        require(mesh.indices.size() % 3 == 0, "mesh index count not a multiple of 3");
        for (const scene::MeshVertex& v : mesh.vertices)
            require(finite(v.position) && finite(v.normal), "mesh vertex with a non-finite value");
    }
    require(imported.lights.size() <= std::size_t(scene::kMaxPointLights), "too many lights");
    require(imported.camera.nearPlane > 0.0f && imported.camera.farPlane > imported.camera.nearPlane,
            "bad camera planes");
    require(std::isfinite(imported.sun.illuminance) && std::isfinite(imported.sun.elevationDegrees) &&
                std::isfinite(imported.sun.azimuthDegrees),
            "sun with a non-finite value");

    scene::TriangleMesh mesh = scene::buildSceneMesh(imported);
    std::size_t batched = 0;
    for (const scene::DrawBatch& batch : mesh.batches) {
        require(batch.firstIndex == batched, "draw batches not contiguous");
        batched += batch.indexCount;
    }
    require(batched == mesh.indices.size() && mesh.shadowCasterIndexCount <= mesh.indices.size(),
            "bad batch index counts");
    for (std::uint32_t index : mesh.indices)
        require(index < mesh.vertices.size(), "mesh index out of range");
}

void runTev(Bytes input)
{
    // A small store: the fuzzer's memory limit, not the app's, bounds what it may allocate.
    net::TevImageStore store(std::int64_t(1) << 22);
    std::size_t at = 0;
    try {
        for (;;) {
            const Bytes rest = input.subspan(at);
            const std::optional<std::uint32_t> length = net::declaredPacketLength(rest);
            if (!length || rest.size() < *length)
                break;
            const net::Packet packet = net::parsePacket(rest.first(*length));
            at += *length;
            if (std::holds_alternative<net::OpenImagePacket>(packet) ||
                std::holds_alternative<net::ReloadImagePacket>(packet))
                continue;  // they read files: the image targets fuzz those readers
            store.apply(packet, "fuzz");
        }
    } catch (const net::ProtocolError& error) {
        requireCleanMessage(error.what(), "");
    }
    for (const net::StoredImageInfo& info : store.list()) {
        net::RgbaImage image;
        std::uint64_t version = 0;
        require(store.copyIfChanged(info.name, version, image) && version == info.version, "a listed image is gone");
        require(image.width == info.width && image.height == info.height &&
                    image.pixels.size() == std::size_t(image.width) * std::size_t(image.height) * 4,
                "copied image of the wrong size");
    }
    require(store.list().size() <= net::kMaxImages, "too many images");
}

void runExr(Bytes input)
{
    runImage(input, "fuzz.exr", {image::FileKind::OpenExr});
}

void runHdr(Bytes input)
{
    runImage(input, "fuzz.hdr", {image::FileKind::RadianceHdr});
}

void runPng(Bytes input)
{
    constexpr const char* kName = "fuzz.png";
    if (!runImage(input, kName,
                  {image::FileKind::Png, image::FileKind::Jpeg, image::FileKind::Bmp, image::FileKind::Gif}))
        return;
    // The 8-bit path as equalize8 uses it (one grey channel): a clean image or a clean error. Not
    // "accepts whatever the HDR path accepted": CI found a damaged JPEG that one decode accepted
    // and the other refused. The likely cause, stb 2.27 decoding a scan with a Huffman table the
    // file never defined from uninitialised memory, is now refused by JpegCheck; agreement is
    // still not required, since stb promises no determinism on damaged input.
    try {
        requireConsistent(image::decodeImage8(input, kName, 1), 1);
    } catch (const image::ImageError&) {
    }
}

}  // namespace fuzz

namespace fuzz {

void runPoints(Bytes input)
{
    post::ParameterInfo info;
    info.key = "percentile.compensation_curve";
    info.type = post::ParameterType::Points;
    info.min = -64.0;
    info.max = 64.0;
    info.yMin = -16.0;
    info.yMax = 16.0;
    info.maxPoints = 16;
    const std::string_view text(reinterpret_cast<const char*>(input.data()), input.size());
    std::string error;
    const std::optional<std::vector<post::ParameterPoint>> points = post::parsePoints(info, text, error);
    if (!points) {
        require(!error.empty(), "a refused list without a reason");
        require(error.size() <= kMaxMessageBytes + text.size(), "reason too long");
        return;
    }
    require(points->size() <= info.maxPoints, "more points than the key allows");
    for (std::size_t i = 0; i < points->size(); ++i) {
        const post::ParameterPoint& p = (*points)[i];
        require(std::isfinite(p.x) && std::isfinite(p.y), "a non-finite point");
        require(p.x >= float(info.min) && p.x <= float(info.max) && p.y >= float(info.yMin) && p.y <= float(info.yMax),
                "a point outside the key's ranges");
        require(i == 0 || p.x > (*points)[i - 1].x, "x not strictly increasing");
    }
    const std::string formatted = post::formatPoints(*points);
    std::string again;
    const auto back = post::parsePoints(info, formatted, again);
    require(back.has_value(), "formatPoints text refused: " + formatted + ": " + again);
    require(back->size() == points->size(), "formatPoints text reads back another count: " + formatted);
    for (std::size_t i = 0; i < back->size(); ++i)
        require(float((*back)[i].x) == float((*points)[i].x) && float((*back)[i].y) == float((*points)[i].y),
                "formatPoints text reads back another point: " + formatted);
}

void runHdrPng(Bytes input)
{
    if (input.size() < 2)
        return;
    const int width = 1 + input[0] % 16, height = 1 + input[1] % 16;
    image::ImageF nits(width, height);
    const Bytes values = input.subspan(2);
    for (std::size_t i = 0; i < nits.pixels.size(); ++i) {
        std::uint8_t bytes[4] = {0, 0, 0, 0};
        for (std::size_t b = 0; b < 4 && !values.empty(); ++b)
            bytes[b] = values[(i * 4 + b) % values.size()];
        std::memcpy(&nits.pixels[i], bytes, 4);
    }
    static const std::filesystem::path path =
        std::filesystem::temp_directory_path() / ("hdrlab-fuzz-hdrpng-" + std::to_string(::getpid()) + ".png");
    image::writeHdr10Png(path, nits, image::contentLightLevels(nits, 1000.0));
    const image::Image16 back = image::loadPng16(path);
    const std::vector<image::PngChunk> chunks = image::readPngChunks(path);
    std::filesystem::remove(path);
    bool cicp = false;
    for (const image::PngChunk& chunk : chunks) {
        require(chunk.crcOk, "a chunk with a bad CRC");
        cicp |= chunk.type == "cICP";
    }
    require(cicp, "no cICP chunk");
    require(back.width == width && back.height == height, "the PNG reads back at another size");
    require(back.samples.size() == std::size_t(width) * std::size_t(height) * 3, "the PNG reads back short");
    for (std::size_t i = 0, n = std::size_t(width) * std::size_t(height); i < n; ++i)
        for (std::size_t c = 0; c < 3; ++c)
            require(back.samples[i * 3 + c] == image::pqCode16(nits.pixels[i * 4 + c]),
                    "sample " + std::to_string(i) + " is not the PQ code of its value");
}

}  // namespace fuzz
