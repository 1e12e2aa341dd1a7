// KeysWindowTest.cpp: the window's keys (ui/KeyHelp.h, app/AppKeys.cpp) under Xvfb with xdotool: F12
// writes a PNG of the window into the working directory, and Esc quits a run that would otherwise go
// on for minutes (a `timeout` around it turns a missed key into a failure, not a hang). Skipped where
// xvfb-run or xdotool is missing.
#include "cli/CliTestSupport.h"
#include "image/ImageIo.h"

#include <gtest/gtest.h>

#include <fstream>

namespace {

namespace fs = std::filesystem;

TEST(KeysWindowTest, F12WritesTheWindowAndEscQuits)
{
    if (testing_support::runCommand("command -v xvfb-run").exitCode != 0 ||
        testing_support::runCommand("command -v xdotool").exitCode != 0)
        GTEST_SKIP() << "needs xvfb-run and xdotool";
    const fs::path dir = testing_support::scratchDir("cli-keys-window");
    {
        std::ofstream script(dir / "keys.sh");
        // 100000 frames: without Esc the run outlasts the timeout (exit 124).
        script << "timeout 150 " << cli_test::hdrlab("--size 640x360 --frames 100000 --vsync off") << " &\n"
               << "app=$!\n"
                  "xdotool search --sync --onlyvisible --name hdrlab >/dev/null\n"
                  "sleep 4\n"
                  "xdotool key F12\n"
                  "sleep 4\n"
                  "xdotool key Escape\n"
                  "wait $app\n";
    }
    const auto result = cli_test::runIn(dir, "xvfb-run -a -s '-screen 0 640x360x24' bash keys.sh");
    ASSERT_EQ(result.exitCode, 0) << "Esc did not end the run\n" << result.output;
    fs::path written;
    for (const fs::directory_entry& entry : fs::directory_iterator(dir))
        if (entry.path().filename().string().rfind("hdrlab-window-", 0) == 0)
            written = entry.path();
    ASSERT_FALSE(written.empty()) << "F12 wrote no hdrlab-window-*.png\n" << result.output;
    const image::Image8 shot = image::loadImage8(written, 3);
    EXPECT_EQ(shot.width, 640);
    EXPECT_EQ(shot.height, 360);
}

}  // namespace
