#include "util/Paths.h"

#include <cstdlib>
#include <stdexcept>
#include <system_error>
#include <vector>

namespace util {
namespace fs = std::filesystem;

namespace {
bool isDataRoot(const fs::path& dir)
{
    std::error_code ec;
    return fs::is_regular_file(dir / "shaders" / "shared" / "HostDevice.h", ec);
}
}  // namespace

fs::path executablePath()
{
    std::error_code ec;
    fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    return ec ? fs::path() : exe;
}

fs::path findDataRoot(const std::optional<fs::path>& overrideDir)
{
    std::vector<fs::path> candidates;
    if (overrideDir)
        candidates.push_back(*overrideDir);
    if (const char* env = std::getenv("HDRLAB_DATA_DIR"); env && *env)
        candidates.emplace_back(env);
    if (fs::path exe = executablePath(); !exe.empty()) {
        fs::path dir = exe.parent_path();
        for (int up = 0; up <= 3 && !dir.empty(); ++up) {
            candidates.push_back(dir);
            candidates.push_back(dir / "share" / "hdrlab");
            dir = dir.parent_path();
        }
    }
    std::error_code ec;
    candidates.push_back(fs::current_path(ec));

    if (overrideDir) {
        if (isDataRoot(*overrideDir))
            return fs::weakly_canonical(*overrideDir, ec);
        throw std::runtime_error("--data-dir '" + overrideDir->string() + "' holds no shaders/shared/HostDevice.h");
    }
    std::string tried;
    for (const fs::path& dir : candidates) {
        if (isDataRoot(dir))
            return fs::weakly_canonical(dir, ec);
        tried += "\n  " + dir.string();
    }
    throw std::runtime_error(
        "cannot find hdrlab's data folder (shaders/, scenes/, assets/); pass --data-dir or set "
        "HDRLAB_DATA_DIR. Tried:" +
        tried);
}

}  // namespace util
