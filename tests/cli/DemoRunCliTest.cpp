// DemoRunCliTest.cpp: the README's first command, `hdrlab` with no argument and no display: the demo
// run. On a software renderer (llvmpipe, as in CI) it renders fewer, smaller frames than on a GPU so
// that a first run ends within a minute of its first frame (issue 26), and still writes the
// screenshot and the timing capture into the current folder.
#include "app/AppOptions.h"
#include "cli/CliTestSupport.h"
#include "image/ImageIo.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <fstream>

namespace {

namespace fs = std::filesystem;

TEST(DemoRun, SoftwareRenderersGetFewerSmallerFramesGpusTheFullRun)
{
    constexpr app::DemoRun gpu = app::demoRunFor(false);
    constexpr app::DemoRun software = app::demoRunFor(true);
    EXPECT_EQ(gpu.frames, app::kDefaultHeadlessFrames);
    EXPECT_EQ(gpu.width, 1280);
    EXPECT_EQ(gpu.height, 720);
    EXPECT_LT(software.frames, gpu.frames);
    EXPECT_LT(software.width * software.height, gpu.width * gpu.height);
    // Same picture shape, so the demo's screenshot frames the room as the window does.
    EXPECT_EQ(software.width * gpu.height, software.height * gpu.width);
}

TEST(DemoRun, WithoutArgumentsItRendersTheDemoAndWritesItsOutputsHere)
{
    const fs::path dir = testing_support::scratchDir("cli-demo-run");
    const auto start = std::chrono::steady_clock::now();
    const auto result = cli_test::runIn(dir, "env -u DISPLAY -u WAYLAND_DISPLAY " + cli_test::hdrlab(""));
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_EQ(result.exitCode, 0) << result.output;
    const std::string demoLine = cli_test::lineStarting(result.output, "demo run: ");
    ASSERT_FALSE(demoLine.empty()) << result.output;
    const bool software = result.output.find("llvmpipe") != std::string::npos;
    const app::DemoRun expected = app::demoRunFor(software);
    EXPECT_NE(demoLine.find(std::to_string(expected.frames) + " frames of " + std::to_string(expected.width) + "x" +
                            std::to_string(expected.height)),
              std::string::npos)
        << demoLine;

    const image::Image8 screenshot = image::loadImage8(dir / app::kDemoScreenshot, 3);
    EXPECT_EQ(screenshot.width, expected.width);
    EXPECT_EQ(screenshot.height, expected.height);
    std::ifstream capture(dir / app::kDemoCapture);
    ASSERT_TRUE(capture.good());
    const nlohmann::json trace = nlohmann::json::parse(capture, nullptr, false);
    ASSERT_FALSE(trace.is_discarded());
    EXPECT_TRUE(trace.contains("traceEvents"));
    // Not a speed test (ctest runs tests side by side): a bound that only a run of the old 300 frames
    // of 1280x720 on a software renderer (several minutes) exceeds.
    if (software)
        EXPECT_LT(seconds, 240.0) << "the demo run took " << seconds << " s";
}

}  // namespace
