// WindowSmokeTest.cpp: the app in a real GLFW window under Xvfb (Mesa GLX): a few frames with the
// ImGui panels, then the window's back buffer after the UI pass (--window-screenshot) must show the
// panels, and differ from the same run with the panels hidden. Skipped where xvfb-run is missing.
#include "cli/CliTestSupport.h"
#include "image/ImageIo.h"

#include <gtest/gtest.h>

namespace {

namespace fs = std::filesystem;

bool haveXvfbRun()
{
    return testing_support::runCommand("command -v xvfb-run").exitCode == 0;
}

std::string underXvfb(const std::string& arguments)
{
    return "xvfb-run -a -s '-screen 0 1280x720x24' " + cli_test::hdrlab(arguments);
}

TEST(WindowSmokeTest, PanelsAreDrawnIntoTheWindow)
{
    if (!haveXvfbRun())
        GTEST_SKIP() << "xvfb-run is not installed";
    fs::path dir = testing_support::scratchDir("cli-window");
    auto withUi = cli_test::runIn(dir, underXvfb("--frames 5 --size 480x270 --vsync off --window-screenshot ui.png"));
    ASSERT_EQ(withUi.exitCode, 0) << withUi.output;
    EXPECT_NE(withUi.output.find("GLFW window"), std::string::npos) << "did not run in a window:\n" << withUi.output;
    auto without = cli_test::runIn(dir, underXvfb("--frames 5 --size 480x270 --vsync off --hide-ui "
                                                  "--window-screenshot plain.png"));
    ASSERT_EQ(without.exitCode, 0) << without.output;

    image::Image8 ui = image::loadImage8(dir / "ui.png", 3);
    image::Image8 plain = image::loadImage8(dir / "plain.png", 3);
    ASSERT_EQ(ui.width, 480);
    ASSERT_EQ(ui.height, 270);
    ASSERT_EQ(plain.width, 480);
    EXPECT_GT(cli_test::distinctColours(plain), 50u) << "the window shows no scene";
    // ImGui's dark-style title bar of the focused window, (0.16, 0.29, 0.48) in 8 bits.
    EXPECT_GT(cli_test::countColour(ui, 41, 74, 122), 100u) << "no ImGui title bar in the window";
    EXPECT_LT(cli_test::countColour(plain, 41, 74, 122), 20u) << "title-bar colour without the panels";
    EXPECT_NE(ui.pixels, plain.pixels);
}

}  // namespace
