// LayoutWindowTest.cpp: the panels keep the picture whole and large (ui/PanelLayout.h). A window
// under Xvfb with every panel open runs on the headless time step and camera path (--fixed-step) and
// reports its viewport with the screenshot; that rectangle of the window's screenshot equals, pixel
// for pixel, the screenshot of a headless run of the viewport's size (same scene, frames and step): no
// panel pixel in it, and the scene rendered at the viewport's size. At 800x600, 1280x720 and
// 1920x1080, and for headless --ui, which lays the panels out as a window of its size does. The
// picture is at least 40 % of an 800x600 window, 55 % of a 1280x720 one and 65 % of a 1920x1080 one;
// the Pipeline panel's method, scan and operator combos are in sight without scrolling (as the --ui
// line reports them). Around the viewport the panels are drawn (their headers' title-bar colour).
// With the mouse (xdotool): dragging the settings column's bar widens it, clicking the strip's arrow
// collapses it to its bar, and the viewport follows; Tab hides every panel, and the picture then keeps the aspect of
// the viewport the panels leave, as large as fits the window, letterboxed (the camera's framing does not change, and
// the exposure does not jump: the key values of the run's capture move smoothly across the key).
// Skipped where xvfb-run (or xdotool) is missing.
#include "cli/CliTestSupport.h"
#include "image/ImageIo.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <regex>

namespace {

namespace fs = std::filesystem;

constexpr int kFrames = 5;
constexpr int kTitleColour[3] = {41, 74, 122};  ///< ImGui's dark-style active title bar: the panel headers

/// The picture's size and share of the window, as the --ui line reports them.
struct ReportedPicture
{
    int width = 0;
    int height = 0;
    double percent = 0.0;
};

std::optional<ReportedPicture> reportedPicture(const std::string& output)
{
    std::smatch match;
    if (!std::regex_search(output, match, std::regex(R"(picture (\d+)x(\d+), ([0-9.]+) % of the window)")))
        return std::nullopt;
    return ReportedPicture{std::stoi(match[1]), std::stoi(match[2]), std::stod(match[3])};
}

/// The share of the window the picture must have at least with every panel open (issue 26's targets;
/// below 1280x720 the column keeps the width that shows every name whole: 40 % at 800x600).
double minimumPercent(int width, int height)
{
    if (width < 1280 || height < 720)
        return 40.0;
    return width >= 1920 && height >= 1080 ? 65.0 : 55.0;
}

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
    const std::optional<cli_test::ReportedViewport> viewport = cli_test::reportedViewport(result.output);
    ASSERT_TRUE(viewport) << "no viewport line:\n" << result.output;
    EXPECT_EQ(viewport->canvasWidth, width);
    EXPECT_EQ(viewport->canvasHeight, height);
    // The panels take room beside and below the picture, and leave it most of the window.
    EXPECT_LT(viewport->width, width);
    EXPECT_LT(viewport->height, height);
    EXPECT_GT(viewport->width, width / 2);
    EXPECT_GT(viewport->height, height / 2);
    const std::optional<ReportedPicture> picture = reportedPicture(result.output);
    ASSERT_TRUE(picture) << "no picture on the viewport line:\n" << result.output;
    EXPECT_EQ(picture->width, viewport->width) << "the frame fills the viewport";
    EXPECT_EQ(picture->height, viewport->height);
    EXPECT_NEAR(picture->percent, 100.0 * viewport->width * viewport->height / (width * height), 0.06);
    EXPECT_GE(picture->percent, minimumPercent(width, height)) << result.output;
    EXPECT_NE(result.output.find("combos visible without scrolling: method, scan, operator"), std::string::npos)
        << result.output;
    EXPECT_EQ(result.output.find("not visible without scrolling"), std::string::npos) << result.output;
    // Every text item the panels draw fits (ui/TextFit.h), and every combo's names (PanelColumns).
    EXPECT_NE(result.output.find("no text cut short"), std::string::npos) << result.output;
    EXPECT_NE(result.output.find("no name cut short"), std::string::npos) << result.output;
    // The measurements show without scrolling, down as well as across (ui/InView.h): the Timings header
    // and rows, the Histogram's plot with its numbers and counters, both Exposure plots.
    EXPECT_NE(result.output.find("measurements in view"), std::string::npos) << result.output;

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

TEST(LayoutWindowTest, TheViewportOfA1920x1080WindowIsTheHeadlessFrame)
{
    if (!haveXvfbRun())
        GTEST_SKIP() << "xvfb-run is not installed";
    const fs::path dir = testing_support::scratchDir("cli-layout-1920");
    expectViewportIsTheHeadlessFrame(dir, windowRun(1920, 1080, "w.png"), "w.png", 1920, 1080);
}

TEST(LayoutWindowTest, TheViewportOfAn800x600WindowIsTheHeadlessFrame)
{
    // A small window (issue 35): every combo in sight, the measurements in view, nothing cut short.
    if (!haveXvfbRun())
        GTEST_SKIP() << "xvfb-run is not installed";
    const fs::path dir = testing_support::scratchDir("cli-layout-800");
    expectViewportIsTheHeadlessFrame(dir, windowRun(800, 600, "w.png"), "w.png", 800, 600);
}

TEST(LayoutWindowTest, HeadlessPanelsLeaveTheSameViewport)
{
    for (const auto& [width, height] : {std::pair(800, 600), std::pair(1280, 720), std::pair(1920, 1080)}) {
        const std::string size = std::to_string(width) + "x" + std::to_string(height);
        const fs::path dir = testing_support::scratchDir("cli-layout-headless-ui-" + size);
        expectViewportIsTheHeadlessFrame(dir,
                                         cli_test::hdrlab("--headless --ui --size " + size + " --frames " +
                                                          std::to_string(kFrames) + " --screenshot u.png"),
                                         "u.png", width, height);
    }
}

TEST(LayoutWindowTest, AtUiScaleOneAndAHalfNoTextIsCutShort)
{
    // The picture's share is a target at scale 1 only; the text must fit at both scales and both sizes,
    // under the default operator and the percentile one (the longest settings).
    for (const auto& [width, height] : {std::pair(1280, 720), std::pair(1920, 1080)})
        for (const char* op : {"ward", "percentile"}) {
            const std::string size = std::to_string(width) + "x" + std::to_string(height);
            const fs::path dir = testing_support::scratchDir("cli-layout-scale-" + size + "-" + op);
            const auto result =
                cli_test::runIn(dir, cli_test::hdrlab("--headless --ui --ui-scale 1.5 --size " + size +
                                                      " --frames 4 --operator " + op + " --screenshot u.png"));
            ASSERT_EQ(result.exitCode, 0) << result.output;
            EXPECT_NE(result.output.find("no text cut short"), std::string::npos) << size << " " << op << "\n"
                                                                                  << result.output;
            EXPECT_NE(result.output.find("no name cut short"), std::string::npos) << size << " " << op << "\n"
                                                                                  << result.output;
        }
}

TEST(LayoutWindowTest, ASettingsFileSetsTheLayout)
{
    // The layout's keys in a settings file (as the Pipeline panel's Save writes them): the column 400
    // units wide, the strip collapsed to its bar; an unknown layout key is a warning, not an error.
    const fs::path dir = testing_support::scratchDir("cli-layout-settings");
    std::ofstream(dir / "s.json") << "{\"histogram.bins\": 128, \"layout.settings_width\": 400, "
                                     "\"layout.strip_open\": false, \"layout.no_such_key\": 1}\n";
    const auto result = cli_test::runIn(
        dir, cli_test::hdrlab("--headless --ui --size 1280x720 --frames 2 --settings s.json --screenshot u.png"));
    ASSERT_EQ(result.exitCode, 0) << result.output;
    EXPECT_NE(result.output.find("layout.no_such_key"), std::string::npos) << result.output;
    const std::optional<cli_test::ReportedViewport> viewport = cli_test::reportedViewport(result.output);
    ASSERT_TRUE(viewport) << result.output;
    EXPECT_EQ(viewport->x, 408) << result.output;
    EXPECT_EQ(viewport->width, 1280 - 408) << result.output;
    EXPECT_EQ(viewport->y, 0) << result.output;
    EXPECT_EQ(viewport->height, 720 - 8) << "the strip is collapsed to its bar\n" << result.output;
}

TEST(LayoutWindowTest, DraggingABarResizesItsColumnAndClickingItsArrowCollapsesIt)
{
    if (!haveXvfbRun() || testing_support::runCommand("command -v xdotool").exitCode != 0)
        GTEST_SKIP() << "needs xvfb-run and xdotool";
    const fs::path dir = testing_support::scratchDir("cli-layout-drag");
    // 1000x600: the settings column is 320 wide (its widest labelled name), its bar 320..328 from the
    // top to the strip's bar; the strip is 178 high, its bar 414..422 across the window with the
    // arrow about x = 500. The column's bar is dragged from x = 324 to 450, then the strip's arrow
    // clicked. The script waits 10 s for the first frames (shaders compile after the window is mapped;
    // a press before the panels exist belongs to no panel: with 3 s the drag was lost on the loaded
    // 2-core machine, frames at 0.7 s) and holds each step long enough for a frame on a loaded machine
    // (about 0.1 s alone); 250 frames outlast it.
    {
        std::ofstream script(dir / "drag.sh");
        script << cli_test::hdrlab("--size 1000x600 --frames 250 --vsync off --fixed-step --window-screenshot d.png")
               << " &\n"
               << "app=$!\n"
                  "xdotool search --sync --onlyvisible --name hdrlab >/dev/null\n"
                  "sleep 10\n"
                  "xdotool mousemove 324 100 sleep 1 mousedown 1 sleep 1 mousemove 380 100 sleep 1 "
                  "mousemove 450 100 sleep 1 mouseup 1 sleep 1 mousemove 500 418 sleep 1 mousedown 1 sleep 0.5 "
                  "mouseup 1\n"
                  "wait $app\n";
    }
    const auto result = cli_test::runIn(dir, "xvfb-run -a -s '-screen 0 1000x600x24' bash drag.sh");
    ASSERT_EQ(result.exitCode, 0) << result.output;
    const std::optional<cli_test::ReportedViewport> viewport = cli_test::reportedViewport(result.output);
    ASSERT_TRUE(viewport) << result.output;
    // The column's bar followed the mouse to x = 450 (grabbed 4 units into it): the column is 446
    // wide, the viewport starts after its bar; the strip is collapsed to its bar at the window's
    // bottom edge (592..600), and the picture reaches down to it.
    EXPECT_NEAR(viewport->x, 454, 4) << result.output;
    EXPECT_EQ(viewport->x + viewport->width, 1000) << result.output;
    EXPECT_EQ(viewport->y, 0) << result.output;
    EXPECT_EQ(viewport->height, 592) << result.output;
}

TEST(LayoutWindowTest, TabHidesEveryPanelAndThePictureKeepsItsAspect)
{
    if (!haveXvfbRun() || testing_support::runCommand("command -v xdotool").exitCode != 0)
        GTEST_SKIP() << "needs xvfb-run and xdotool";
    const fs::path dir = testing_support::scratchDir("cli-layout-tab");
    // The viewport the panels leave in a 640x400 window (headless --ui lays them out as the window):
    // 312 x 214, narrower than the window's aspect, so hidden panels leave bars at the sides.
    const auto shown =
        cli_test::runIn(dir, cli_test::hdrlab("--headless --ui --size 640x400 --frames 2 --screenshot s.png"));
    ASSERT_EQ(shown.exitCode, 0) << shown.output;
    const std::optional<cli_test::ReportedViewport> withPanels = cli_test::reportedViewport(shown.output);
    ASSERT_TRUE(withPanels) << shown.output;
    {
        std::ofstream script(dir / "tab.sh");
        // The key comes 3 s after the window shows, after the first frames; 180 frames outlast that even
        // at llvmpipe's 35 ms per frame under load.
        script << cli_test::hdrlab(
                      "--size 640x400 --frames 180 --vsync off --fixed-step --operator ward --capture c.json "
                      "--window-screenshot t.png")
               << " &\n"
               << "app=$!\n"
                  "xdotool search --sync --onlyvisible --name hdrlab >/dev/null\n"
                  "sleep 3\n"
                  "xdotool key Tab\n"
                  "wait $app\n";
    }
    const auto result = cli_test::runIn(dir, "xvfb-run -a -s '-screen 0 640x400x24' bash tab.sh");
    ASSERT_EQ(result.exitCode, 0) << result.output;
    const std::optional<cli_test::ReportedViewport> viewport = cli_test::reportedViewport(result.output);
    ASSERT_TRUE(viewport) << result.output;
    EXPECT_EQ(viewport->x, 0) << result.output;
    EXPECT_EQ(viewport->y, 0) << result.output;
    EXPECT_EQ(viewport->width, 640) << result.output;
    EXPECT_EQ(viewport->height, 400) << result.output;
    // The picture: the shown viewport's aspect, the window's full height, letterboxed at the sides.
    const std::optional<ReportedPicture> picture = reportedPicture(result.output);
    ASSERT_TRUE(picture) << result.output;
    EXPECT_EQ(picture->height, 400) << result.output;
    const double aspect = double(withPanels->width) / withPanels->height;
    EXPECT_NEAR(double(picture->width) / picture->height, aspect, 1.0 / 400.0) << result.output << shown.output;
    EXPECT_LT(picture->width, 640);
    const image::Image8 shot = image::loadImage8(dir / "t.png", 3);
    EXPECT_LT(cli_test::countColour(shot, kTitleColour[0], kTitleColour[1], kTitleColour[2]), 20u)
        << "panel headers after Tab";
    // The camera sees the same picture, so the exposure does not jump when the panels go: Ward's key
    // value (the frame's log-average) moves by 0.025 EV at most per frame on this path, across the
    // key too (it jumped by 1.03 EV when the picture took the window's aspect).
    std::ifstream capture(dir / "c.json");
    const nlohmann::json root = nlohmann::json::parse(capture);
    std::vector<double> keyEv;
    for (const auto& event : root["traceEvents"])
        if (event["ph"] == "C" && event["name"] == "key value (EV)")
            keyEv.push_back(event["args"]["ev"].get<double>());
    ASSERT_GT(keyEv.size(), 60u) << "key values of the run";
    double largestStep = 0.0;
    for (std::size_t i = 1; i < keyEv.size(); ++i)
        largestStep = std::max(largestStep, std::abs(keyEv[i] - keyEv[i - 1]));
    EXPECT_LT(largestStep, 0.15) << "the exposure jumped when the panels were hidden";
    // The bars beside the picture are the clear colour.
    const std::uint8_t* corner = shot.at(1, 200);
    for (int y = 0; y < shot.height; y += 7)
        EXPECT_TRUE(std::equal(corner, corner + 3, shot.at(1, y))) << "a letterbox bar at the left, row " << y;
}

}  // namespace
