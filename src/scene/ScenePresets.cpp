#include "scene/ScenePresets.h"

#include "scene/Scene.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace scene {

std::vector<ScenePreset> listScenePresets(const std::filesystem::path& folder)
{
    std::vector<ScenePreset> presets;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(folder, error)) {
        if (entry.path().extension() != ".json" || !entry.is_regular_file(error))
            continue;
        ScenePreset preset{entry.path(), entry.path().stem().string(), {}, true};
        try {
            std::ifstream file(entry.path(), std::ios::binary);
            std::ostringstream text;
            text << file.rdbuf();
            preset.description = parseScene(text.str(), entry.path().string(), folder).description;
        } catch (const std::exception& e) {
            preset.description = e.what();
            preset.valid = false;
        }
        presets.push_back(std::move(preset));
    }
    std::sort(presets.begin(), presets.end(), [](const ScenePreset& a, const ScenePreset& b) {
        return std::pair(a.name != "default", a.name) < std::pair(b.name != "default", b.name);
    });
    return presets;
}

}  // namespace scene
