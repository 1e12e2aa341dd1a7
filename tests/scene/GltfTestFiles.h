// GltfTestFiles.h: writes small glTF 2.0 files for the tests (no downloaded assets): a builder that
// packs accessors into one buffer (embedded as a base64 data URI, or as a .glb BIN chunk) and a
// textured quad facing +Z. Header-only; used by the loader (CPU) and renderer (GL) tests.
#pragma once

#include "image/ImageIo.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace gltf_test {

inline std::string base64(const std::vector<std::uint8_t>& bytes)
{
    static const char* kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    for (std::size_t i = 0; i < bytes.size(); i += 3) {
        std::uint32_t n = std::uint32_t(bytes[i]) << 16;
        if (i + 1 < bytes.size())
            n |= std::uint32_t(bytes[i + 1]) << 8;
        if (i + 2 < bytes.size())
            n |= bytes[i + 2];
        out += kAlphabet[(n >> 18) & 63];
        out += kAlphabet[(n >> 12) & 63];
        out += i + 1 < bytes.size() ? kAlphabet[(n >> 6) & 63] : '=';
        out += i + 2 < bytes.size() ? kAlphabet[n & 63] : '=';
    }
    return out;
}

inline std::vector<std::uint8_t> readBytes(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void writeText(const std::filesystem::path& path, const std::string& text)
{
    std::ofstream(path, std::ios::binary) << text;
}

/// PNG bytes of `image`, written with hdrlab's own writePng (through a file in `folder`).
inline std::vector<std::uint8_t> pngBytes(const image::Image8& image, const std::filesystem::path& folder)
{
    std::filesystem::path path = folder / "encode-tmp.png";
    image::writePng(path, image);
    std::vector<std::uint8_t> bytes = readBytes(path);
    std::filesystem::remove(path);
    return bytes;
}

inline std::string pngDataUri(const image::Image8& image, const std::filesystem::path& folder)
{
    return "data:image/png;base64," + base64(pngBytes(image, folder));
}

// glTF component types.
constexpr int kByte = 5120, kUnsignedByte = 5121, kShort = 5122, kUnsignedShort = 5123, kUnsignedInt = 5125,
              kFloat = 5126;

class Builder
{
public:
    /// Appends `bytes` as a new bufferView + accessor; returns the accessor index.
    template <typename T>
    int accessor(const std::vector<T>& values,
                 int componentType,
                 int count,
                 const std::string& type,
                 bool normalized = false,
                 const std::string& extra = "")
    {
        while (mBin.size() % 4 != 0)
            mBin.push_back(0);
        std::size_t offset = mBin.size();
        mBin.resize(offset + values.size() * sizeof(T));
        std::memcpy(mBin.data() + offset, values.data(), values.size() * sizeof(T));
        int view = int(mViews.size());
        mViews.push_back("{\"buffer\":0,\"byteOffset\":" + std::to_string(offset) +
                         ",\"byteLength\":" + std::to_string(values.size() * sizeof(T)) + "}");
        mAccessors.push_back("{\"bufferView\":" + std::to_string(view) + ",\"componentType\":" +
                             std::to_string(componentType) + ",\"count\":" + std::to_string(count) + ",\"type\":\"" +
                             type + "\"" + (normalized ? ",\"normalized\":true" : "") + extra + "}");
        return int(mAccessors.size() - 1);
    }

    /// A raw accessor entry (for malformed ones).
    int rawAccessor(const std::string& json)
    {
        mAccessors.push_back(json);
        return int(mAccessors.size() - 1);
    }

    /// The .gltf text: the buffer embedded as base64, then `members` (",\"nodes\":..." etc.).
    std::string gltf(const std::string& members) const
    {
        return "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":" + std::to_string(mBin.size()) +
               ",\"uri\":\"data:application/octet-stream;base64," + base64(mBin) + "\"}]" + common() + members + "}";
    }

    /// The same as a .glb: JSON chunk + BIN chunk.
    std::vector<std::uint8_t> glb(const std::string& members) const
    {
        std::string json =
            "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":" + std::to_string(mBin.size()) + "}]" +
            common() + members + "}";
        while (json.size() % 4 != 0)
            json += ' ';
        std::vector<std::uint8_t> bin = mBin;
        while (bin.size() % 4 != 0)
            bin.push_back(0);
        std::vector<std::uint8_t> out;
        auto u32 = [&](std::uint32_t v) {
            for (int i = 0; i < 4; ++i)
                out.push_back(std::uint8_t(v >> (8 * i)));
        };
        u32(0x46546C67);  // "glTF"
        u32(2);
        u32(std::uint32_t(12 + 8 + json.size() + 8 + bin.size()));
        u32(std::uint32_t(json.size()));
        u32(0x4E4F534A);  // "JSON"
        out.insert(out.end(), json.begin(), json.end());
        u32(std::uint32_t(bin.size()));
        u32(0x004E4942);  // "BIN\0"
        out.insert(out.end(), bin.begin(), bin.end());
        return out;
    }

private:
    std::string common() const
    {
        std::string views, accessors;
        for (const std::string& v : mViews)
            views += (views.empty() ? "" : ",") + v;
        for (const std::string& a : mAccessors)
            accessors += (accessors.empty() ? "" : ",") + a;
        return ",\"bufferViews\":[" + views + "],\"accessors\":[" + accessors + "]";
    }

    std::vector<std::uint8_t> mBin;
    std::vector<std::string> mViews;
    std::vector<std::string> mAccessors;
};

/// A quad x,y in [-1, 1] at z = 0 facing +Z, texture u left to right, v top to bottom; returns the
/// primitive JSON (material 0).
/// A quad from -extent to extent in x and y (extent 1 unless a test needs extreme bounds).
inline std::string addQuad(Builder& b, int indexComponentType = kUnsignedShort, float extent = 1.0f)
{
    const float e = extent;
    char bounds[96];
    std::snprintf(bounds, sizeof bounds, ",\"min\":[%.9g,%.9g,0],\"max\":[%.9g,%.9g,0]", double(-e), double(-e),
                  double(e), double(e));
    int position =
        b.accessor(std::vector<float>{-e, -e, 0, e, -e, 0, e, e, 0, -e, e, 0}, kFloat, 4, "VEC3", false, bounds);
    int normal = b.accessor(std::vector<float>{0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1}, kFloat, 4, "VEC3");
    int texcoord = b.accessor(std::vector<float>{0, 1, 1, 1, 1, 0, 0, 0}, kFloat, 4, "VEC2");
    int indices = 0;
    if (indexComponentType == kUnsignedByte)
        indices = b.accessor(std::vector<std::uint8_t>{0, 1, 2, 0, 2, 3}, kUnsignedByte, 6, "SCALAR");
    else if (indexComponentType == kUnsignedInt)
        indices = b.accessor(std::vector<std::uint32_t>{0, 1, 2, 0, 2, 3}, kUnsignedInt, 6, "SCALAR");
    else
        indices = b.accessor(std::vector<std::uint16_t>{0, 1, 2, 0, 2, 3}, kUnsignedShort, 6, "SCALAR");
    return "{\"attributes\":{\"POSITION\":" + std::to_string(position) + ",\"NORMAL\":" + std::to_string(normal) +
           ",\"TEXCOORD_0\":" + std::to_string(texcoord) + "},\"indices\":" + std::to_string(indices) +
           ",\"material\":0}";
}

}  // namespace gltf_test
