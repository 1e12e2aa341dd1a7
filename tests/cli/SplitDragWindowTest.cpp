// SplitDragWindowTest.cpp: the split view's divider is dragged with the mouse in a real window (Xvfb,
// input from xdotool): a left drag that starts on the divider at the middle of a 400-pixel frame and
// ends at x = 300 moves the divider columns there (white at 299, black at 300 in the last frame's back
// buffer). The scene at 400x200 on llvmpipe renders 200 frames in several seconds, time enough for
// the drag (it starts as soon as the window is mapped). Each step of the drag is held for a second
// or more: the app polls the button once a frame, and on a loaded machine (ctest -j2 beside other
// window tests) a frame can take most of a second. Skipped where xvfb-run or xdotool is missing.
#include "cli/CliTestSupport.h"
#include "image/ImageIo.h"

#include <gtest/gtest.h>

#include <fstream>

namespace {

namespace fs = std::filesystem;

bool have(const std::string& program)
{
    return testing_support::runCommand("command -v " + program).exitCode == 0;
}

TEST(SplitDragWindowTest, DraggingTheDividerMovesIt)
{
    if (!have("xvfb-run") || !have("xdotool"))
        GTEST_SKIP() << "needs xvfb-run and xdotool";
    const fs::path dir = testing_support::scratchDir("cli-split-drag");
    {
        std::ofstream script(dir / "drag.sh");
        script << cli_test::hdrlab(
                      "--frames 200 --size 400x200 --hide-ui --vsync off --split side-by-side "
                      "--set-b tonemap.operator=equalize --window-screenshot drag.png")
               << " &\n"
               << "app=$!\n"
                  "xdotool search --sync --onlyvisible --name hdrlab >/dev/null\n"
                  "sleep 0.5\n"
                  "xdotool mousemove 200 100 sleep 1 mousedown 1 sleep 1.5 mousemove 250 100 sleep 1 "
                  "mousemove 300 100 sleep 1.5 mouseup 1\n"
                  "wait $app\n";
    }
    auto result = cli_test::runIn(dir, "xvfb-run -a -s '-screen 0 1024x768x24' bash drag.sh");
    ASSERT_EQ(result.exitCode, 0) << result.output;
    const image::Image8 shot = image::loadImage8(dir / "drag.png", 3);
    ASSERT_EQ(shot.width, 400);
    const auto value = [&](int x, int y) { return int(shot.at(x, y)[0]) + shot.at(x, y)[1] + shot.at(x, y)[2]; };
    for (int y : {40, 100, 160}) {
        EXPECT_EQ(value(299, y), 3 * 255) << "row " << y << ": no white divider column at x = 299";
        EXPECT_EQ(value(300, y), 0) << "row " << y << ": no black divider column at x = 300";
        EXPECT_FALSE(value(199, y) == 3 * 255 && value(200, y) == 0) << "row " << y << ": the divider stayed";
    }
}

}  // namespace
