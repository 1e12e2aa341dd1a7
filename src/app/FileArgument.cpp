#include "app/FileArgument.h"

#include "util/Paths.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <stdexcept>
#include <string_view>

namespace app {
namespace {

std::string lowerExtension(const std::filesystem::path& path)
{
    std::string extension = path.extension().string();
    for (char& c : extension)
        c = char(std::tolower((unsigned char)c));
    return extension;
}

/// Whether `token` is the value of the option `before` (an option that takes one, not a flag).
bool isOptionValue(const CLI::App& cli, const std::string& before)
{
    if (before.size() < 2 || before[0] != '-' || before.find('=') != std::string::npos)
        return false;
    const CLI::Option* option = cli.get_option_no_throw(before);
    return option == nullptr || option->get_items_expected_max() > 0;  // unknown: leave it to the parser
}

}  // namespace

FileKind fileKindOf(const std::filesystem::path& path)
{
    static constexpr std::array<std::string_view, 9> kImages{".exr", ".hdr",  ".pic", ".pfm", ".png",
                                                             ".jpg", ".jpeg", ".bmp", ".tga"};
    static constexpr std::array<std::string_view, 3> kScenes{".gltf", ".glb", ".json"};
    const std::string extension = lowerExtension(path);
    if (std::find(kImages.begin(), kImages.end(), extension) != kImages.end())
        return FileKind::Image;
    if (std::find(kScenes.begin(), kScenes.end(), extension) != kScenes.end())
        return FileKind::Scene;
    return FileKind::Other;
}

std::vector<std::string> openFileArgument(const CLI::App& cli, std::vector<std::string> args)
{
    for (const std::string& arg : args)
        for (const CLI::App* sub : cli.get_subcommands({}))
            if (arg == sub->get_name())
                return args;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& token = args[i];
        if (token.empty() || token[0] == '-' || (i > 0 && isOptionValue(cli, args[i - 1])))
            continue;
        const FileKind kind = fileKindOf(token);
        if (kind == FileKind::Image) {
            args.insert(args.begin() + std::ptrdiff_t(i), "view");
            return args;
        }
        if (kind == FileKind::Scene) {
            args.insert(args.begin() + std::ptrdiff_t(i), "--scene");
            return args;
        }
    }
    return args;
}

std::filesystem::path resolveSceneFile(const std::filesystem::path& scene,
                                       const std::optional<std::filesystem::path>& dataDir)
{
    if (fileKindOf(scene) == FileKind::Image)
        throw std::runtime_error(scene.string() + " is an image, not a scene: open it with `hdrlab " + scene.string() +
                                 "` (or `hdrlab view " + scene.string() + "`)");
    std::error_code ec;
    if (std::filesystem::exists(scene, ec) || scene.is_absolute())  // a folder: the loader says what it is
        return scene;
    std::vector<std::filesystem::path> tried{std::filesystem::absolute(scene, ec)};
    std::filesystem::path root;
    try {
        root = util::findDataRoot(dataDir);
    } catch (const std::exception&) {
        throw std::runtime_error("scene " + scene.string() + " not found (no data folder found to look in either)");
    }
    for (const std::filesystem::path& candidate :
         {root / scene, root / "scenes" / scene, root / "scenes" / (scene.string() + ".json")}) {
        if (std::filesystem::is_regular_file(candidate, ec))
            return candidate;
        tried.push_back(candidate);
    }
    std::string places;
    for (const std::filesystem::path& place : tried)
        places += (places.empty() ? "" : ", ") + place.string();
    throw std::runtime_error("scene " + scene.string() + " not found; tried " + places);
}

}  // namespace app
