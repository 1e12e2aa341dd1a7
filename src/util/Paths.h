// Paths.h: finds hdrlab's data folders (shaders/, scenes/, assets/) relative to the executable, so
// a build or install can be moved anywhere. Order: --data-dir, $HDRLAB_DATA_DIR, the executable's
// folder and up to three parents, <exe>/../share/hdrlab, then the working directory.
#pragma once

#include "util/OutputFile.h"  // writeFileAtomically, formerly declared here

#include <filesystem>
#include <optional>
#include <string>

namespace util {

/// Path of the running executable (/proc/self/exe), empty if unknown.
std::filesystem::path executablePath();

/// The data root: a folder holding shaders/shared/HostDevice.h. Throws with the places tried.
std::filesystem::path findDataRoot(const std::optional<std::filesystem::path>& overrideDir = std::nullopt);

}  // namespace util
