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
    std::error_code ec;
    if (overrideDir) {
        if (isDataRoot(*overrideDir))
            return fs::weakly_canonical(*overrideDir, ec);
        throw std::runtime_error("--data-dir '" + overrideDir->string() +
                                 "' is not hdrlab's data folder (it holds no shaders/shared/HostDevice.h): give the "
                                 "folder that holds shaders/, scenes/ and assets/ (the repository's root)");
    }
    // A HDRLAB_DATA_DIR that is not a data folder is named in the error if nothing else is found.
    const char* env = std::getenv("HDRLAB_DATA_DIR");
    const std::string envDir = env ? env : "";
    if (!envDir.empty() && isDataRoot(envDir))
        return fs::weakly_canonical(envDir, ec);
    // Beside the executable: its folder and up to three parents, each also with share/hdrlab.
    const fs::path exe = executablePath();
    fs::path highest;
    if (!exe.empty()) {
        fs::path dir = exe.parent_path();
        for (int up = 0; up <= 3 && !dir.empty(); ++up) {
            for (const fs::path& candidate : {dir, dir / "share" / "hdrlab"})
                if (isDataRoot(candidate))
                    return fs::weakly_canonical(candidate, ec);
            highest = dir;
            dir = dir.parent_path();
        }
    }
    const fs::path working = fs::current_path(ec);
    if (!ec && isDataRoot(working))
        return fs::weakly_canonical(working, ec);
    // One line: what to set, then where it looked (the executable's folders as a range).
    std::string looked = exe.empty() ? std::string("(the executable's folder is unknown)")
                                     : "'" + exe.parent_path().string() + "' and its parents up to '" +
                                           highest.string() + "' (each also with share/hdrlab)";
    if (!envDir.empty())
        looked = "HDRLAB_DATA_DIR='" + envDir + "' (no shaders/shared/HostDevice.h there), " + looked;
    throw std::runtime_error(
        "cannot find hdrlab's data folder (shaders/, scenes/, assets/): pass --data-dir DIR or "
        "set HDRLAB_DATA_DIR=DIR to the folder that holds them (the repository's root); "
        "looked in " +
        looked + " and the working folder '" + working.string() + "'");
}

}  // namespace util
