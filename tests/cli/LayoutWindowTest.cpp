// LayoutWindowTest.cpp: the panels keep the picture whole (ui/PanelLayout.h). A window under Xvfb
// with every panel open runs on the headless time step and camera path (--fixed-step) and reports
// its viewport with the screenshot; that rectangle of the window's screenshot equals, pixel for pixel,
// the screenshot of a headless run of the viewport's size (same scene, frames and step): no panel
// pixel in it, and the scene rendered at the viewport's size. At 1280x720 and 1600x900, and for
// headless --ui, which lays the panels out as a window of its size does. Around the viewport the
// panels are drawn (their headers' title-bar colour), and the panels report no name cut short.
// With the mouse (xdotool): dragging the left column's bar widens it, clicking the right column's
// arrow collapses it to its bar, and the viewport follows; Tab hides every panel, and the whole
// window is then the headless frame of its size. Skipped where xvfb-run (or xdotool) is missing.
#include "cli/CliTestSupport.h"
#include "image/ImageIo.h"

#include <gtest/gtest.h>

#include <fstream>

namespace {

namespace fs = std::filesystem;

constexpr int kFrames = 5;
constexpr int kTitleColour[3] = {41, 74, 122};  ///< ImGui's dark-style active title bar: the panel headers

/// Runs `run` (which writes `shot` and reports its viewport), then a headless run of the viewport's
/// size, and compares the two pictures.
void expectViewportIsTheHeadlessFrame(const fs::path& dir,
                                      const std::string& run,
                                      const fs::path& shot,
                                      int width,
                                      int height)
{
    const auto result = cli_test::runIn(dir, run);
    ASSERT_EQ(result.exitCode, 0) << result.output;
    EXPECT_NE(result.output.find("no name cut short"), std::string::npos) << result.output;
    const std::optional<cli_test::ReportedViewport> viewport = cli_test::reportedViewport(result.output);
    ASSERT_TRUE(viewport) << "no viewport line:\n" << result.output;
    EXPECT_EQ(viewport->canvasWidth, width);
    EXPECT_EQ(viewport->canvasHeight, height);
    // The panels take room beside and below the picture, and leave it a useful part of the window.
    EXPECT_LT(viewport->width, width * 3 / 4);
    EXPECT_LT(viewport->height, height);
    EXPECT_GT(viewport->width, width / 3);
    EXPECT_GT(viewport->height, height / 2);

    const image::Image8 window = image::loadImage8(dir / shot, 3);
    ASSERT_EQ(window.width, width);
    ASSERT_EQ(window.height, height);
    EXPECT_GT(cli_test::countColour(window, kTitleColour[0], kTitleColour[1], kTitleColour[2]), 2000u)
        << "no panel headers around the viewport";

    const std::string frameName = "frame-" + std::to_string(viewport->width) + "x" + std::to_string(viewport->height);
    const auto headless =
        cli_test::runIn(dir, cli_test::hdrlab("--headless --frames " + std::to_string(kFrames) + " --size " +
                                              std::to_string(viewport->width) + "x" + std::to_string(viewport->height) +
                                              " --screenshot " + frameName + ".png"));
    ASSERT_EQ(headless.exitCode, 0) << headless.output;
    const image::Image8 frame = image::loadImage8(dir / (frameName + ".png"), 3);
    ASSERT_EQ(frame.width, viewport->width);
    ASSERT_EQ(frame.height, viewport->height);
    std::size_t different = 0;
    int firstX = -1, firstY = -1;
    for (int y = 0; y < frame.height; ++y)
        for (int x = 0; x < frame.width; ++x) {
            const std::uint8_t* a = frame.at(x, y);
            const std::uint8_t* b = window.at(viewport->x + x, viewport->y + y);
            if (a[0] != b[0] || a[1] != b[1] || a[2] != b[2]) {
                if (different++ == 0) {
                    firstX = x;
                    firstY = y;
                }
            }
        }
    EXPECT_EQ(different, 0u) << "the viewport differs from the headless frame in " << different << " pixels, first at "
                             << firstX << "," << firstY << " (" << shot << ")";
}

bool haveXvfbRun()
{
    return testing_support::runCommand("command -v xvfb-run").exitCode == 0;
}

/// The window as large as the screen, so Xvfb's pointer (at the screen's centre) rests on the picture.
std::string windowRun(int width, int height, const std::string& shot)
{
    const std::string size = std::to_string(width) + "x" + std::to_string(height);
    return "xvfb-run -a -s '-screen 0 " + size + "x24' " +
           cli_test::hdrlab("--size " + size + " --frames " + std::to_string(kFrames) +
                            " --vsync off --fixed-step --window-screenshot " + shot);
}

TEST(LayoutWindowTest, TheViewportOfA1280x720WindowIsTheHeadlessFrame)
{
    if (!haveXvfbRun())
        GTEST_SKIP() << "xvfb-run is not installed";
    const fs::path dir = testing_support::scratchDir("cli-layout-1280");
    expectViewportIsTheHeadlessFrame(dir, windowRun(1280, 720, "w.png"), "w.png", 1280, 720);
}

TEST(LayoutWindowTest, TheViewportOfA1600x900WindowIsTheHeadlessFrame)
{
    if (!haveXvfbRun())
        GTEST_SKIP() << "xvfb-run is not installed";
    const fs::path dir = testing_support::scratchDir("cli-layout-1600");
    expectViewportIsTheHeadlessFrame(dir, windowRun(1600, 900, "w.png"), "w.png", 1600, 900);
}

TEST(LayoutWindowTest, HeadlessPanelsLeaveTheSameViewport)
{
    const fs::path dir = testing_support::scratchDir("cli-layout-headless-ui");
    expectViewportIsTheHeadlessFrame(
        dir,
        cli_test::hdrlab("--headless --ui --size 1280x720 --frames " + std::to_string(kFrames) + " --screenshot u.png"),
        "u.png", 1280, 720);
}

TEST(LayoutWindowTest, DraggingABarResizesItsColumnAndClickingItsArrowCollapsesIt)
{
    if (!haveXvfbRun() || testing_support::runCommand("command -v xdotool").exitCode != 0)
        GTEST_SKIP() << "needs xvfb-run and xdotool";
    const fs::path dir = testing_support::scratchDir("cli-layout-drag");
    // 1000x600: the left column is 478 wide (its names), its bar 478..486; the right column 312, its
    // bar 680..688 with the arrow about y = 300. The left bar is dragged to x = 600, then the right
    // bar's arrow clicked. The script waits for the first frames (shaders compile after the window
    // is mapped; a press before the panels exist belongs to no panel) and holds each step long enough
    // for a frame on a loaded machine (about 0.1 s alone); 250 frames outlast it (150 frames took
    // 7.4 s on an idle machine, less than the script's 9.5 s: the app had closed before the click).
    {
        std::ofstream script(dir / "drag.sh");
        script << cli_test::hdrlab("--size 1000x600 --frames 250 --vsync off --fixed-step --window-screenshot d.png")
               << " &\n"
               << "app=$!\n"
                  "xdotool search --sync --onlyvisible --name hdrlab >/dev/null\n"
                  "sleep 3\n"
                  "xdotool mousemove 482 100 sleep 1 mousedown 1 sleep 1 mousemove 550 100 sleep 1 "
                  "mousemove 600 100 sleep 1 mouseup 1 sleep 1 mousemove 684 300 sleep 1 mousedown 1 sleep 0.5 "
                  "mouseup 1\n"
                  "wait $app\n";
    }
    const auto result = cli_test::runIn(dir, "xvfb-run -a -s '-screen 0 1000x600x24' bash drag.sh");
    ASSERT_EQ(result.exitCode, 0) << result.output;
    const std::optional<cli_test::ReportedViewport> viewport = cli_test::reportedViewport(result.output);
    ASSERT_TRUE(viewport) << result.output;
    // The left bar's centre followed the mouse to x = 600: the column is 596 wide, the viewport starts
    // after its bar; the right column is collapsed to its bar at the window's edge (992..1000).
    EXPECT_NEAR(viewport->x, 604, 4) << result.output;
    EXPECT_EQ(viewport->x + viewport->width, 992) << result.output;
}

TEST(LayoutWindowTest, TabHidesEveryPanelAndThePictureFillsTheWindow)
{
    if (!haveXvfbRun() || testing_support::runCommand("command -v xdotool").exitCode != 0)
        GTEST_SKIP() << "needs xvfb-run and xdotool";
    const fs::path dir = testing_support::scratchDir("cli-layout-tab");
    {
        std::ofstream script(dir / "tab.sh");
        // The key comes 3 s after the window shows, after the first frames; 90 frames outlast that.
        script << cli_test::hdrlab("--size 640x360 --frames 90 --vsync off --fixed-step --window-screenshot t.png")
               << " &\n"
               << "app=$!\n"
                  "xdotool search --sync --onlyvisible --name hdrlab >/dev/null\n"
                  "sleep 3\n"
                  "xdotool key Tab\n"
                  "wait $app\n";
    }
    const auto result = cli_test::runIn(dir, "xvfb-run -a -s '-screen 0 640x360x24' bash tab.sh");
    ASSERT_EQ(result.exitCode, 0) << result.output;
    const std::optional<cli_test::ReportedViewport> viewport = cli_test::reportedViewport(result.output);
    ASSERT_TRUE(viewport) << result.output;
    EXPECT_EQ(viewport->x, 0) << result.output;
    EXPECT_EQ(viewport->y, 0) << result.output;
    EXPECT_EQ(viewport->width, 640) << result.output;
    EXPECT_EQ(viewport->height, 360) << result.output;
    const image::Image8 shot = image::loadImage8(dir / "t.png", 3);
    EXPECT_LT(cli_test::countColour(shot, kTitleColour[0], kTitleColour[1], kTitleColour[2]), 20u)
        << "panel headers after Tab";
}

}  // namespace
