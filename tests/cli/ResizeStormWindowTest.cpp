// ResizeStormWindowTest.cpp: the window path under a storm (--resize-storm) in a real GLFW window
// under Xvfb: hundreds of window sizes including 1x1, 4000x1 and 1x4000, iconify and restore, while
// the histogram method, scan, tone operator, bins, downsampling and range mode change. The app runs
// with a debug context and fails on the first GL error; the test wants a clean exit, the storm's
// summary, and a rendered, non-black frame read back from the window after the storm. Also the
// headless --resource-report lines and the soak script on a short run. Skipped, with the reason,
// where xvfb-run is missing or no GLFW window opens there.
#include "cli/CliTestSupport.h"
#include "image/ImageIo.h"

#include <gtest/gtest.h>

#include <regex>

namespace {

namespace fs = std::filesystem;
using cli_test::hdrlab;

constexpr int kStormSteps = 300;

TEST(ResizeStormWindowTest, SurvivesResizesIconifyAndSwitchesAndStillRenders)
{
    if (testing_support::runCommand("command -v xvfb-run").exitCode != 0)
        GTEST_SKIP() << "xvfb-run is not installed (Debian package xvfb)";
    fs::path dir = testing_support::scratchDir("cli-resize-storm");
    auto run = cli_test::runIn(dir, "xvfb-run -a -s '-screen 0 1280x720x24' " +
                                        hdrlab("--size 320x180 --vsync off --resize-storm " +
                                               std::to_string(kStormSteps) + " --window-screenshot end.png"));
    if (run.output.find("GLFW window") == std::string::npos)
        GTEST_SKIP() << "no GLFW window under Xvfb here:\n" << run.output;
    ASSERT_EQ(run.exitCode, 0) << run.output;
    EXPECT_EQ(run.output.find("GL error"), std::string::npos) << run.output;

    std::smatch summary;
    ASSERT_TRUE(
        std::regex_search(run.output, summary,
                          std::regex(R"(resize storm: (\d+) steps, (\d+) distinct window sizes requested, (\d+) )"
                                     R"(rendered \(smallest (\d+x\d+), widest (\d+x\d+), tallest (\d+x\d+)\), )"
                                     R"((\d+) iconify requests, (\d+) settings switches)")))
        << run.output;
    EXPECT_EQ(std::stoi(summary[1]), kStormSteps + 1) << "every step and the one home";
    EXPECT_GE(std::stoi(summary[3]), 200) << "hundreds of distinct framebuffer sizes really rendered";
    EXPECT_EQ(summary[4], "1x1");
    EXPECT_EQ(summary[5], "4000x1");
    EXPECT_EQ(summary[6], "1x4000");
    EXPECT_GE(std::stoi(summary[7]), 10);
    EXPECT_GE(std::stoi(summary[8]), 100);

    image::Image8 end = image::loadImage8(dir / "end.png", 3);
    EXPECT_EQ(end.width, 320) << "the window is back at its start size";
    EXPECT_EQ(end.height, 180);
    EXPECT_GT(cli_test::distinctColours(end), 50u) << "the frame after the storm shows no scene";
}

TEST(ResizeStormWindowTest, NeedsAWindow)
{
    auto result = testing_support::runCommand(hdrlab("--headless --resize-storm 10"));
    EXPECT_EQ(result.exitCode, 2) << result.output;
    EXPECT_NE(result.output.find("--resize-storm needs a window"), std::string::npos) << result.output;
}

TEST(ResourceReportTest, PrintsASampleAtTheStartEveryNFramesAndTheEnd)
{
    auto result = testing_support::runCommand(hdrlab("--headless --size 64x36 --frames 25 --resource-report 10"));
    ASSERT_EQ(result.exitCode, 0) << result.output;
    std::vector<int> frames;
    std::regex line(R"(^resources: frame=(\d+) rss_kb=(\d+) gl_total=(\d+) gl_buffer=(\d+) .* cuda_allocs=(\S+)$)");
    for (const std::string& text : cli_test::lines(result.output)) {
        std::smatch match;
        if (std::regex_match(text, match, line)) {
            frames.push_back(std::stoi(match[1]));
            EXPECT_GT(std::stoll(match[2]), 0) << text;
            EXPECT_GT(std::stoi(match[3]), 0) << text;
        }
    }
    EXPECT_EQ(frames, (std::vector<int>{0, 10, 20, 25})) << result.output;
    EXPECT_EQ(result.output.find("recorded frames"), std::string::npos) << "no timing table in a resource run";
}

TEST(ResourceReportTest, RejectsANonPositiveIntervalAndIsInTheHelp)
{
    auto help = testing_support::runCommand(hdrlab("--help"));
    EXPECT_NE(help.output.find("--resource-report"), std::string::npos) << help.output;
    for (const char* value : {"0", "-3"}) {
        auto result = testing_support::runCommand(hdrlab(std::string("--headless --resource-report ") + value));
        EXPECT_EQ(result.exitCode, 2) << result.output;
        EXPECT_NE(result.output.find("--resource-report"), std::string::npos) << result.output;
    }
}

TEST(SoakScriptTest, ShortRunPassesAndBadArgumentsFail)
{
    const std::string script = "HDRLAB_BINARY='" + testing_support::hdrlabBinary().string() + "' bash '" +
                               (testing_support::sourceDir() / "scripts/soak.sh").string() + "' ";
    auto good = testing_support::runCommand(script + "40 compute-shared-atomic");
    ASSERT_EQ(good.exitCode, 0) << good.output;
    EXPECT_NE(good.output.find("compute-shared-atomic: no growth after warm-up"), std::string::npos) << good.output;
    EXPECT_NE(good.output.find("frame=40 "), std::string::npos) << good.output;

    auto unknown = testing_support::runCommand(script + "40 no-such-method");
    EXPECT_EQ(unknown.exitCode, 1) << unknown.output;
    EXPECT_NE(unknown.output.find("unknown histogram method"), std::string::npos) << unknown.output;
    EXPECT_EQ(testing_support::runCommand(script + "5").exitCode, 2) << "fewer than 10 frames";
    EXPECT_EQ(testing_support::runCommand(script + "-7").exitCode, 2);
}

}  // namespace
