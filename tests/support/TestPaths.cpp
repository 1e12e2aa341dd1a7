#include "support/TestPaths.h"

#include <sys/wait.h>
#include <unistd.h>
#include <array>
#include <cstdio>
#include <cstdlib>

namespace testing_support {
namespace fs = std::filesystem;

// Both can be overridden at run time so the test programs also run from a copied tree (the GPU machine).
fs::path sourceDir()
{
    if (const char* dir = std::getenv("HDRLAB_SOURCE_DIR"); dir && *dir)
        return fs::path(dir);
    return fs::path(HDRLAB_SOURCE_DIR);
}

fs::path hdrlabBinary()
{
    if (const char* binary = std::getenv("HDRLAB_BINARY"); binary && *binary)
        return fs::path(binary);
    return fs::path(HDRLAB_BINARY);
}

std::optional<fs::path> sharedData(const std::string& sub)
{
    fs::path dir = sourceDir().parent_path() / "shared" / sub;
    std::error_code ec;
    if (fs::is_directory(dir, ec))
        return dir;
    return std::nullopt;
}

namespace {
/// The test process's scratch folder; removed when the process exits so runs leave nothing behind.
struct ScratchRoot
{
    fs::path path = fs::temp_directory_path() / ("hdrlab-test-" + std::to_string(::getpid()));
    ~ScratchRoot()
    {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};
}  // namespace

fs::path scratchDir(const std::string& name)
{
    static const ScratchRoot root;
    fs::path dir = root.path / name;
    std::error_code ec;
    fs::remove_all(dir, ec);
    fs::create_directories(dir);
    return dir;
}

CommandResult runCommand(const std::string& commandLine)
{
    CommandResult result;
    FILE* pipe = ::popen((commandLine + " 2>&1").c_str(), "r");
    if (!pipe)
        return result;
    std::array<char, 4096> chunk{};
    while (std::size_t n = std::fread(chunk.data(), 1, chunk.size(), pipe))
        result.output.append(chunk.data(), n);
    int status = ::pclose(pipe);
    result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    return result;
}

}  // namespace testing_support
