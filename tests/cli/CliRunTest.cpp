// CliRunTest.cpp: the hdrlab binary end to end, headless (EGL): a run of the default scene writing
// every output, --help, --list, --verify, and clear one-line errors for bad input.
#include "cli/CliTestSupport.h"
#include "image/ImageIo.h"
#include "profiling/Capture.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <set>

namespace {

namespace fs = std::filesystem;
using cli_test::hdrlab;
using cli_test::lines;

/// ImGui's dark-style title bar of the focused window, (0.16, 0.29, 0.48) in 8 bits.
constexpr int kActiveTitleBar[3] = {41, 74, 122};

void expectOneLineError(const testing_support::CommandResult& result, const std::string& part)
{
    EXPECT_NE(result.exitCode, 0) << result.output;
    auto out = lines(result.output);
    ASSERT_EQ(out.size(), 1u) << result.output;
    EXPECT_EQ(out[0].rfind("hdrlab: error: ", 0), 0u) << out[0];
    EXPECT_NE(out[0].find(part), std::string::npos) << out[0];
}

class HeadlessRunTest : public ::testing::Test
{
protected:
    static void SetUpTestSuite()
    {
        sDir = new fs::path(testing_support::scratchDir("cli-headless"));
        sResult = new testing_support::CommandResult(cli_test::runIn(
            *sDir, hdrlab("--headless --frames 30 --size 320x180 --screenshot s.png --screenshot-exr s.exr "
                          "--capture c.json --capture-csv c.csv --ui")));
    }
    static void TearDownTestSuite()
    {
        delete sResult;
        delete sDir;
    }
    static fs::path* sDir;
    static testing_support::CommandResult* sResult;
};
fs::path* HeadlessRunTest::sDir = nullptr;
testing_support::CommandResult* HeadlessRunTest::sResult = nullptr;

TEST_F(HeadlessRunTest, ExitsCleanlyAndPrintsTheGpuAndASummary)
{
    ASSERT_EQ(sResult->exitCode, 0) << sResult->output;
    EXPECT_NE(sResult->output.find("OpenGL"), std::string::npos) << sResult->output;
    EXPECT_NE(sResult->output.find("median ms"), std::string::npos) << sResult->output;
    for (const char* pass : {"scene", "histogram/", "tonemap/", "ui"})
        EXPECT_NE(sResult->output.find(pass), std::string::npos) << pass;
    // The default scan (in-curve) runs inside the operator's curve dispatch: no scan/ pass of its own.
    EXPECT_EQ(sResult->output.find("scan/"), std::string::npos);
}

TEST_F(HeadlessRunTest, ScreenshotIsANonUniformImageWithThePanels)
{
    image::Image8 png = image::loadImage8(*sDir / "s.png", 3);
    EXPECT_EQ(png.width, 320);
    EXPECT_EQ(png.height, 180);
    EXPECT_GT(cli_test::distinctColours(png), 50u) << "the screenshot looks uniform";
    EXPECT_GT(cli_test::countColour(png, kActiveTitleBar[0], kActiveTitleBar[1], kActiveTitleBar[2]), 100u)
        << "no ImGui title bar in the --ui screenshot";
}

TEST_F(HeadlessRunTest, ExrHoldsTheHdrFrame)
{
    // With --ui the panels are laid out as in a window, and the frame is the viewport they leave.
    const std::optional<cli_test::ReportedViewport> viewport = cli_test::reportedViewport(sResult->output);
    ASSERT_TRUE(viewport) << sResult->output;
    image::ImageF exr = image::loadHdrImage(*sDir / "s.exr");
    ASSERT_EQ(exr.width, viewport->width);
    ASSERT_EQ(exr.height, viewport->height);
    float maxValue = 0.0f;
    for (std::size_t i = 0; i < exr.pixels.size(); i += 4)
        maxValue = std::max(maxValue, exr.pixels[i + 1]);
    EXPECT_GT(maxValue, 1.0f) << "a daylight scene has luminances above 1";
}

TEST_F(HeadlessRunTest, CaptureIsTraceEventJsonWithEveryPassAndTheMetadata)
{
    std::ifstream file(*sDir / "c.json");
    ASSERT_TRUE(file) << "no capture";
    nlohmann::json root = nlohmann::json::parse(file);
    ASSERT_TRUE(root["traceEvents"].is_array());
    EXPECT_EQ(root["displayTimeUnit"], "ms");
    for (const char* key : profiling::kCaptureMetadataKeys)
        EXPECT_TRUE(root["otherData"].contains(key)) << key;
    const std::optional<cli_test::ReportedViewport> viewport = cli_test::reportedViewport(sResult->output);
    ASSERT_TRUE(viewport) << sResult->output;
    EXPECT_EQ(root["otherData"]["resolution"],
              std::to_string(viewport->width) + "x" + std::to_string(viewport->height));
    std::set<std::string> names;
    for (const auto& event : root["traceEvents"])
        if (event["ph"] == "X")
            names.insert(event["name"].get<std::string>());
    auto hasPrefix = [&](const std::string& prefix) {
        for (const std::string& name : names)
            if (name.rfind(prefix, 0) == 0)
                return true;
        return false;
    };
    EXPECT_TRUE(names.count("scene"));
    EXPECT_TRUE(names.count("ui"));
    EXPECT_TRUE(hasPrefix("histogram/" + root["otherData"]["histogram_method"].get<std::string>()));
    EXPECT_TRUE(hasPrefix("tonemap/" + root["otherData"]["tone_operator"].get<std::string>()));
    EXPECT_FALSE(hasPrefix("scan/"));  // the default scan is in the curve dispatch
}

TEST_F(HeadlessRunTest, CsvHasOneRowPerFrameAndPass)
{
    std::ifstream file(*sDir / "c.csv");
    std::string line;
    ASSERT_TRUE(std::getline(file, line));
    EXPECT_EQ(line, "frame,pass,cpu_ms,gpu_ms,gpu_source");
    std::set<std::string> frames;
    std::size_t rows = 0;
    while (std::getline(file, line)) {
        ++rows;
        frames.insert(line.substr(0, line.find(',')));
    }
    EXPECT_GE(frames.size(), 10u);
    EXPECT_GE(rows, frames.size() * 5);
}

TEST(CliRunTest, HelpDocumentsEveryFlag)
{
    auto result = testing_support::runCommand(hdrlab("--help"));
    ASSERT_EQ(result.exitCode, 0) << result.output;
    for (const char* flag :
         {"--scene",    "--size",        "--headless", "--frames", "--screenshot", "--screenshot-exr",
          "--capture",  "--capture-csv", "--ui",       "--list",   "--verify",     "--histogram-method",
          "--scan",     "--operator",    "--bins",     "--range",  "--downsample", "--vsync",
          "--data-dir", "--log-level",   "tonemap",    "compare",  "equalize8",    "clahe",
          "bench"})
        EXPECT_NE(result.output.find(flag), std::string::npos) << flag;
}

TEST(CliRunTest, BadArgumentsGiveOneLineErrors)
{
    expectOneLineError(testing_support::runCommand(hdrlab("--size 0x0")), "size");
    expectOneLineError(testing_support::runCommand(hdrlab("--bins 5000")), "bins");
    expectOneLineError(testing_support::runCommand(hdrlab("--range 3:1")), "range");
    expectOneLineError(testing_support::runCommand(hdrlab("--frames -5")), "--frames");
    expectOneLineError(testing_support::runCommand(hdrlab("--no-such-flag")), "--no-such-flag");
}

TEST(CliRunTest, UnknownMethodAndUnwritableOutputFailCleanly)
{
    fs::path dir = testing_support::scratchDir("cli-errors");
    auto unknown = cli_test::runIn(dir, hdrlab("--headless --frames 2 --size 32x32 --histogram-method no-such-method"));
    EXPECT_NE(unknown.exitCode, 0);
    EXPECT_NE(unknown.output.find("hdrlab: error: "), std::string::npos) << unknown.output;
    EXPECT_NE(unknown.output.find("no-such-method"), std::string::npos) << unknown.output;

    auto unwritable = cli_test::runIn(dir, hdrlab("--headless --frames 2 --size 32x32 --screenshot missing/s.png"));
    EXPECT_NE(unwritable.exitCode, 0);
    auto out = lines(unwritable.output);
    ASSERT_FALSE(out.empty());
    EXPECT_EQ(out.back().rfind("hdrlab: error: ", 0), 0u) << unwritable.output;
    EXPECT_FALSE(fs::exists(dir / "missing"));
    for (const auto& entry : fs::directory_iterator(dir))
        ADD_FAILURE() << "left behind: " << entry.path();
}

TEST(CliRunTest, WithoutADisplayItSaysWhyAndRunsHeadless)
{
    fs::path dir = testing_support::scratchDir("cli-no-display");
    auto result = cli_test::runIn(
        dir, "env -u DISPLAY -u WAYLAND_DISPLAY " + hdrlab("--frames 3 --size 48x32 --screenshot s.png"));
    ASSERT_EQ(result.exitCode, 0) << result.output;
    EXPECT_NE(result.output.find("no display"), std::string::npos) << result.output;
    EXPECT_NE(result.output.find("running headless"), std::string::npos) << result.output;
    EXPECT_TRUE(fs::exists(dir / "s.png"));
}

TEST(CliRunTest, ListPrintsTheMethods)
{
    auto result = testing_support::runCommand(hdrlab("--list"));
    ASSERT_EQ(result.exitCode, 0) << result.output;
    EXPECT_NE(result.output.find("compute-shared-atomic"), std::string::npos) << result.output;
}

TEST(CliRunTest, VerifyChecksTheLastFrame)
{
    auto result = testing_support::runCommand(hdrlab("--headless --frames 4 --size 64x48 --verify"));
    EXPECT_EQ(result.exitCode, 0) << result.output;
    EXPECT_NE(result.output.find("verify"), std::string::npos) << result.output;
}

}  // namespace
