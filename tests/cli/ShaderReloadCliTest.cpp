// ShaderReloadCliTest.cpp: --watch-shaders in a running app: hdrlab runs (headless, --watch-shaders
// on, on shaders copied into a temporary data folder) while the test edits a shader its apply pass
// includes: the app rebuilds the programs that include it and goes on; then a broken edit keeps the
// last good program, names the file and line, and the frames go on. (The new picture itself is
// checked pixel for pixel by ShaderReload.ThePipelineShowsAnEditOfItsApplyPass, in the GL tests.)
#include "cli/CliTestSupport.h"
#include "image/ImageIo.h"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <fstream>
#include <sstream>
#include <thread>

namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

std::string read(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

/// Waits until `path` holds `text` after position `from` (60 s at most); returns where, or npos.
std::size_t waitFor(const fs::path& path, const std::string& text, std::size_t from = 0)
{
    const auto deadline = std::chrono::steady_clock::now() + 60s;
    while (std::chrono::steady_clock::now() < deadline) {
        const std::string log = read(path);
        if (const std::size_t at = log.find(text, std::min(from, log.size())); at != std::string::npos)
            return at;
        std::this_thread::sleep_for(100ms);
    }
    return std::string::npos;
}

TEST(ShaderReloadCli, ARunningAppRebuildsAndKeepsTheLastGoodProgram)
{
    const fs::path dir = testing_support::scratchDir("shader-reload-cli");
    fs::create_directories(dir / "data");
    fs::copy(testing_support::sourceDir() / "shaders", dir / "data" / "shaders", fs::copy_options::recursive);
    image::ImageF picture(32, 16);
    for (std::size_t i = 0; i < picture.pixels.size(); ++i)
        picture.pixels[i] = 0.01f * float(i % 97) + 0.1f;
    image::writeExr(dir / "picture.exr", picture, image::ExrPixelType::Float);
    const fs::path log = dir / "run.log";
    const std::string start = "cd '" + dir.string() + "' && (" +
                              cli_test::hdrlab(
                                  "view picture.exr --headless --frames 10000000 --watch-shaders on "
                                  "--data-dir data --resource-report 20") +
                              " > run.log 2>&1 & echo $! > run.pid)";
    ASSERT_EQ(std::system(start.c_str()), 0);
    const pid_t pid = pid_t(std::stol(read(dir / "run.pid")));
    struct Stop
    {
        pid_t pid;
        ~Stop() { kill(pid, SIGTERM); }  // the run this test started
    } stop{pid};

    ASSERT_NE(waitFor(log, "resources:"), std::string::npos) << read(log);
    const fs::path pixel = dir / "data" / "shaders" / "tonemap" / "ApplyPixel.glsl";
    const std::string source = read(pixel);
    std::ofstream(pixel, std::ios::binary) << source << "// edited while running\n";
    const std::size_t rebuilt = waitFor(log, "shaders: tonemap/ApplyPixel.glsl changed: rebuilt ");
    ASSERT_NE(rebuilt, std::string::npos) << read(log);
    EXPECT_EQ(read(log).find("kept their last good version"), std::string::npos) << read(log);

    std::ofstream(pixel, std::ios::binary) << "not GLSL at all;\n" << source;
    const std::size_t kept = waitFor(log, "kept their last good version", rebuilt);
    ASSERT_NE(kept, std::string::npos) << read(log);
    EXPECT_NE(waitFor(log, "tonemap/ApplyPixel.glsl:1", rebuilt), std::string::npos) << read(log);
    // The frames go on with the last good program.
    EXPECT_NE(waitFor(log, "resources:", kept), std::string::npos) << read(log);
}

}  // namespace
