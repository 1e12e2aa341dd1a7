// GltfImport.h: what the parts of one glTF import share (GltfLoader.cpp runs them in turn:
// GltfFileAccess, GltfMaterials, GltfAccessors, GltfMeshes, GltfLightsCamera): the file's name for
// messages, the parsed tinygltf model, the scene being filled and the options, fail() and warn() in
// the loader's one-line style ("cannot load glTF 'FILE': what is wrong"), and the small checks every
// part uses. Internal to the glTF import; the public interface is GltfLoader.h.
#pragma once

#include "scene/GltfLoader.h"
#include "scene/TinyGltf.h"
#include "util/Log.h"
#include "util/PrintableText.h"

#include <glm/vec3.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace scene::gltf {

inline constexpr std::size_t kMaxEchoedBytes = 200;

/// Text from the file as it may appear in a message: control characters escaped, at most 200 bytes.
inline std::string printable(std::string_view text)
{
    return util::escapeControlCharacters(text, false, kMaxEchoedBytes);
}

/// Rec. 709 luminance of a glTF colour (emissive factors, light colours).
inline float luminanceOf(glm::vec3 c)
{
    return 0.2126f * c.x + 0.7152f * c.y + 0.0722f * c.z;
}

inline bool finite(float v)
{
    return std::isfinite(v);
}

/// One import: the file, what it is imported into and how.
struct GltfImport
{
    GltfImport(std::string fileName, Scene& target, const GltfImportOptions& importOptions)
        : name(std::move(fileName)), scene(target), options(importOptions)
    {
    }

    [[noreturn]] void fail(const std::string& what) const
    {
        throw SceneError("cannot load glTF '" + printable(name) + "': " + what);
    }

    void warn(const std::string& what) const { util::logWarning("glTF '{}': {}", printable(name), what); }

    /// A factor of N numbers (baseColorFactor, emissiveFactor, a light's color), `fallback` when absent.
    template <std::size_t N>
    std::array<float, N> factor(const std::vector<double>& values,
                                std::array<float, N> fallback,
                                const std::string& what) const
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

    std::string name;  ///< the file, as messages name it
    Scene& scene;
    GltfImportOptions options;
    tinygltf::Model model;
};

}  // namespace scene::gltf
