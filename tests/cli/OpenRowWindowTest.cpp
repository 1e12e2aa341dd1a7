// OpenRowWindowTest.cpp: the open row at the settings column's top (ui/OpenFileRow.h) under Xvfb with
// xdotool: Ctrl+O puts the cursor in its path field, a typed image path and Enter open the image in
// place of the scene (as a dropped file would: the log says "showing photo.exr"); a path that is not
// there is an error on screen: the status line above the row shows it in the error colour (red) and
// the log has it (F12's PNG of the window shows it). The Enter is a tap: where ImGui, polling keys
// once a frame, loses it, the app's own key event passes it on. Skipped where xvfb-run or xdotool is missing.
#include "cli/CliTestSupport.h"
#include "image/ImageIo.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

namespace {

namespace fs = std::filesystem;

constexpr int kErrorRed[3] = {255, 102, 102};  ///< ui::kErrorColor (1, 0.4, 0.4)

TEST(OpenRowWindowTest, CtrlOTypedPathsOpenAnImageAndShowAnErrorInRed)
{
    if (testing_support::runCommand("command -v xvfb-run").exitCode != 0 ||
        testing_support::runCommand("command -v xdotool").exitCode != 0)
        GTEST_SKIP() << "needs xvfb-run and xdotool";
    const fs::path dir = testing_support::scratchDir("cli-open-row");
    image::ImageF image(32, 20);
    for (int y = 0; y < 20; ++y)
        for (int x = 0; x < 32; ++x) {
            float* p = image.at(x, y);
            p[0] = p[1] = p[2] = std::exp2(float(x) / 4.0f);
            p[3] = 1.0f;
        }
    image::writeExr(dir / "photo.exr", image, image::ExrPixelType::Float);
    {
        std::ofstream script(dir / "open.sh");
        // The keys come after the first frames; Esc ends the run (the timeout turns a lost key into a
        // failure, not a hang).
        script << "timeout 150 " << cli_test::hdrlab("--size 800x600 --frames 100000 --vsync off") << " &\n"
               << "app=$!\n"
                  "xdotool search --sync --onlyvisible --name hdrlab >/dev/null\n"
                  "sleep 4\n"
                  "xdotool key ctrl+o\n"
                  "sleep 2\n"
                  "xdotool type --delay 50 photo.exr\n"
                  "xdotool key Return\n"
                  "sleep 4\n"
                  "xdotool key ctrl+o\n"
                  "sleep 2\n"
                  "xdotool type --delay 50 missing.exr\n"
                  "xdotool key Return\n"
                  "sleep 4\n"
                  "xdotool key F12\n"
                  "sleep 4\n"
                  "xdotool key Escape\n"
                  "sleep 1\n"
                  "xdotool key Escape\n"
                  "wait $app\n";
    }
    const auto result = cli_test::runIn(dir, "xvfb-run -a -s '-screen 0 800x600x24' bash open.sh");
    ASSERT_EQ(result.exitCode, 0) << result.output;
    EXPECT_NE(result.output.find("showing photo.exr"), std::string::npos) << result.output;
    EXPECT_NE(result.output.find("missing.exr: no such file"), std::string::npos) << result.output;
    // The error is on screen: red text in the status line at the settings column's top.
    fs::path written;  // F12's hdrlab-window-<time>.png
    for (const fs::directory_entry& entry : fs::directory_iterator(dir))
        if (entry.path().filename().string().rfind("hdrlab-window-", 0) == 0)
            written = entry.path();
    ASSERT_FALSE(written.empty()) << "F12 wrote no hdrlab-window-*.png\n" << result.output;
    const image::Image8 shot = image::loadImage8(written, 3);
    ASSERT_EQ(shot.width, 800);
    std::size_t red = 0;
    for (int y = 0; y < 60; ++y)
        for (int x = 0; x < 320; ++x) {
            const std::uint8_t* p = shot.at(x, y);
            red += p[0] == kErrorRed[0] && p[1] == kErrorRed[1] && p[2] == kErrorRed[2];
        }
    EXPECT_GT(red, 10u) << "no error-coloured text in the status line\n" << result.output;
}

}  // namespace
