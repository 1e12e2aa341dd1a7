// ScenePresets.h: the scene files shipped in the data root's scenes/ folder, listed for the UI's
// scene combo with their one-line descriptions. Listing parses each file's JSON (not its glTF
// models or environment map, which load when the scene is chosen), so it stays cheap.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace scene {

struct ScenePreset
{
    std::filesystem::path path;
    std::string name;         ///< the file's stem, e.g. "tunnel-exit"
    std::string description;  ///< the scene's "description"; the error line when it does not parse
    bool valid = true;        ///< false: the file does not parse (listed greyed out, with the error)
};

/// Every *.json file in `folder`, "default" first, then by name; empty when the folder is missing.
std::vector<ScenePreset> listScenePresets(const std::filesystem::path& folder);

}  // namespace scene
