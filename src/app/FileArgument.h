// FileArgument.h: `hdrlab FILE` opens FILE as other viewers do, by its kind: an image (EXR, Radiance
// .hdr, PNG, JPEG, ...) as `hdrlab view FILE` would, a scene (.gltf, .glb, hdrlab's .json) as `--scene
// FILE`. The command line is rewritten before CLI11 parses it (one file argument of a known extension
// where no subcommand is named and the token is not the value of an option before it); anything else
// is left for the parser to judge. And the scene flag's value: a scene name ("tunnel-exit") or a
// relative path ("scenes/tunnel-exit.json") that is not there from the working directory is looked up
// in the data folder (--data-dir, HDRLAB_DATA_DIR, beside the executable: util/Paths.h); an image given
// as a scene is refused with the command that opens it.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace app {

enum class FileKind { Other, Image, Scene };
/// By the extension, case-insensitively: .exr .hdr .pic .pfm .png .jpg .jpeg .bmp .tga -> Image;
/// .gltf .glb .json -> Scene.
FileKind fileKindOf(const std::filesystem::path& path);

/// `args` (without the program's name) with a bare image file turned into "view FILE" and a bare
/// scene file into "--scene FILE"; unchanged where a subcommand is named or no such argument is found.
std::vector<std::string> openFileArgument(const CLI::App& cli, std::vector<std::string> args);

/// The scene file `scene` names: itself where it exists, else in the data root (`dataDir` or the
/// usual places) as given, under scenes/, or as scenes/<name>.json. Throws std::runtime_error naming
/// the places tried, or for an image ("open it with hdrlab FILE").
std::filesystem::path resolveSceneFile(const std::filesystem::path& scene,
                                       const std::optional<std::filesystem::path>& dataDir);

}  // namespace app
