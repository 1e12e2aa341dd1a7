// Paths.h: finds hdrlab's data folders (shaders/, scenes/, assets/) relative to the executable, so
// a build or install can be moved anywhere. Order: --data-dir, $HDRLAB_DATA_DIR, the executable's
// folder and up to three parents, <exe>/../share/hdrlab, then the working directory.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace util {

/// Path of the running executable (/proc/self/exe), empty if unknown.
std::filesystem::path executablePath();

/// The data root: a folder holding shaders/shared/HostDevice.h. Throws with the places tried.
std::filesystem::path findDataRoot(const std::optional<std::filesystem::path>& overrideDir = std::nullopt);

/// Writes `bytes` to `path` through a temporary name in the same folder and a rename, so a reader
/// never sees a half-written file. Throws std::runtime_error on failure.
void writeFileAtomically(const std::filesystem::path& path, const std::string& bytes);

} // namespace util
