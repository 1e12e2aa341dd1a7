// CommonOptions.h: what every subcommand is given besides its own options (--data-dir, --log-level).
#pragma once

#include <filesystem>
#include <optional>

namespace app {

/// Options every command shares.
struct CommonOptions
{
    std::optional<std::filesystem::path> dataDir;  ///< --data-dir
    bool verbose = false;                          ///< --log-level debug: GL debug output and more messages
};

}  // namespace app
