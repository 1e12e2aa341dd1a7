// TestPaths.h: where the tests find the source tree, the built hdrlab binary and ../shared data.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace testing_support {

/// $HDRLAB_SOURCE_DIR or the configure-time source dir.
std::filesystem::path sourceDir();
/// $HDRLAB_BINARY or the configure-time build/hdrlab.
std::filesystem::path hdrlabBinary();
/// ../shared/<sub> beside the checkout when present (CI and developer machines), else nullopt:
/// tests that use it call GTEST_SKIP() so a user's fresh clone skips them cleanly.
std::optional<std::filesystem::path> sharedData(const std::string& sub);
/// A fresh empty folder (under the system temp folder, removed at exit) for a test's output files.
std::filesystem::path scratchDir(const std::string& name);

struct CommandResult
{
    int exitCode = -1;
    std::string output;  ///< stdout and stderr together
};
/// Runs a shell command line, capturing its output (for CLI tests).
CommandResult runCommand(const std::string& commandLine);

}  // namespace testing_support
