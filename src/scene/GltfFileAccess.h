// GltfFileAccess.h: what a glTF import may read, and how its images are decoded. tinygltf gets file
// callbacks that read only regular files inside the glTF file's folder (no absolute paths, no ".."
// out of it), each at most image::kMaxFileBytes, and remember why a file was refused so the error
// names the real reason; images decode through image::decodeImage8 (PNG or JPEG only) within a
// budget of kMaxGltfTexels for all images of one file. Internal to the glTF import (GltfLoader.cpp).
#pragma once

#include "scene/GltfImport.h"
#include "scene/TinyGltf.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace scene::gltf {

// The file access tinygltf gets: only regular files inside the glTF's folder, each at most
// image::kMaxFileBytes. Refusals are remembered so the error names the real reason.
struct FileAccess
{
    std::filesystem::path folder;  ///< canonical; empty: no file access at all
    std::string refusal;

    /// False, with the reason in `why`, for a path outside the folder (or any path without one).
    bool allowed(const std::string& path, std::string* why) const;
};

// tinygltf's file system callbacks (FsCallbacks); `user` is the import's FileAccess.
bool fileExists(const std::string& path, void* user);
std::string expandFilePath(const std::string& path, void*);
bool readWholeFile(std::vector<unsigned char>* out, std::string* err, const std::string& path, void* user);
bool writeWholeFile(std::string* err, const std::string&, const std::vector<unsigned char>&, void*);

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
                 std::string* err);

/// tinygltf's image loader callback (`user` is the import's ImageBudget). Images held in a
/// bufferView are left alone (GltfMaterials decodes them after a bounds check).
bool loadImageData(tinygltf::Image* image,
                   const int index,
                   std::string* err,
                   std::string*,
                   int,
                   int,
                   const unsigned char* bytes,
                   int size,
                   void* user);

/// "%20" and friends in a relative URI.
std::string decodeUri(const std::string& uri);

/// The whole file (at most image::kMaxFileBytes); throws SceneError naming it.
std::vector<std::uint8_t> readFileBytes(const std::filesystem::path& path);

}  // namespace scene::gltf
