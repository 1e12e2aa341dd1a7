// ViewProbeCliTest.cpp: --view false-colour and --probe end to end: the tonemap command's
// false-colour PNG against the CPU ramp byte for byte (legend strip apart) and its probe lines
// against the CPU binning; a headless app run whose false-colour screenshot differs from the
// tone-mapped one and follows the ramp of its HDR frame, with the probe in stdout and the capture;
// and the one-line errors of out-of-range and malformed probes.
#include "cli/CliTestSupport.h"
#include "image/ImageIo.h"
#include "reference/FalseColourRef.h"
#include "shared/HostDevice.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <regex>

namespace {

namespace fs = std::filesystem;
using cli_test::hdrlab;
using cli_test::lines;
using cli_test::lineStarting;

/// A 200x100 float EXR: a left-to-right ramp over -12..22 EV, hue varying by row, and NaN, +Inf,
/// negative and zero pixels in the first row.
image::ImageF rampImage()
{
    image::ImageF image(200, 100);
    for (int y = 0; y < image.height; ++y)
        for (int x = 0; x < image.width; ++x) {
            const float L = std::exp2(-12.0f + 34.0f * float(x) / float(image.width - 1));
            float* p = image.at(x, y);
            p[0] = L * (0.6f + 0.4f * float(y) / float(image.height));
            p[1] = L;
            p[2] = L * 0.8f;
            p[3] = 1.0f;
        }
    const float specials[] = {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(), -2.0f,
                              0.0f};
    for (int i = 0; i < 4; ++i)
        for (int c = 0; c < 3; ++c)
            image.at(10 + i, 0)[c] = specials[i];
    return image;
}

/// The bin a probe line names: "bin N of M" -> N, or the kBin* code of "no bin (...)".
int binOfLine(const std::string& line)
{
    std::smatch match;
    if (std::regex_search(line, match, std::regex("bin (\\d+) of")))
        return std::stoi(match[1]);
    if (line.find("no bin (NaN)") != std::string::npos)
        return hd::kBinNaN;
    if (line.find("no bin (Inf)") != std::string::npos)
        return hd::kBinInf;
    if (line.find("no bin (L <= 0)") != std::string::npos)
        return hd::kBinNonPositive;
    return 1000000;
}

TEST(ViewProbeCli, TonemapFalseColourIsTheCpuRampAboveItsLegendStrip)
{
    const fs::path dir = testing_support::scratchDir("cli-view-tonemap");
    const image::ImageF input = rampImage();
    image::writeExr(dir / "ramp.exr", input, image::ExrPixelType::Float);
    auto falseColour =
        testing_support::runCommand(hdrlab("tonemap '" + (dir / "ramp.exr").string() + "' -o '" +
                                           (dir / "fc.png").string() + "' --view false-colour --range -10:20"));
    ASSERT_EQ(falseColour.exitCode, 0) << falseColour.output;
    EXPECT_NE(falseColour.output.find("(false-colour EV view)"), std::string::npos) << falseColour.output;
    auto toneMapped = testing_support::runCommand(
        hdrlab("tonemap '" + (dir / "ramp.exr").string() + "' -o '" + (dir / "tm.png").string() + "' --range -10:20"));
    ASSERT_EQ(toneMapped.exitCode, 0) << toneMapped.output;

    const image::Image8 png = image::loadImage8(dir / "fc.png", 3);
    const image::Image8 tm = image::loadImage8(dir / "tm.png", 3);
    EXPECT_NE(png.pixels, tm.pixels);
    const std::vector<std::uint8_t> expected = ref::falseColour(input.pixels.data(), 200, 100, -10.0f, 20.0f);
    const int legendRows = hd::hdFalseColourLegendRows(100);
    std::size_t differing = 0, stripDiffering = 0;
    for (int y = 0; y < 100; ++y)
        for (int x = 0; x < 200; ++x) {
            const std::size_t i = std::size_t(y) * 200 + std::size_t(x);
            bool same = true;
            for (int c = 0; c < 3; ++c)
                same = same && png.pixels[i * 3 + std::size_t(c)] == expected[i * 4 + std::size_t(c)];
            (y >= 100 - legendRows ? stripDiffering : differing) += !same;
        }
    EXPECT_EQ(differing, 0u);
    EXPECT_GT(stripDiffering, 0u) << "the legend strip is drawn at the bottom";
    // NaN, +Inf and negative are magenta, zero black.
    for (int i = 0; i < 4; ++i) {
        const std::uint8_t* p = png.at(10 + i, 0);
        const bool magenta = p[0] == 255 && p[1] == 0 && p[2] == 255;
        EXPECT_EQ(magenta, i < 3) << "special pixel " << i;
    }
}

TEST(ViewProbeCli, TonemapProbeBinsExactlyAsTheCpuReference)
{
    const fs::path dir = testing_support::scratchDir("cli-probe-tonemap");
    const image::ImageF input = rampImage();
    image::writeExr(dir / "ramp.exr", input, image::ExrPixelType::Float);
    const std::vector<std::pair<int, int>> points = {{0, 0},    {199, 99}, {199, 0}, {0, 99},
                                                     {101, 37}, {10, 0},   {12, 0},  {13, 0}};
    std::string arguments = "tonemap '" + (dir / "ramp.exr").string() + "' -o '" + (dir / "out.png").string() +
                            "' --range -6:15 --bins 100";
    for (auto [x, y] : points)
        arguments += " --probe " + std::to_string(x) + "," + std::to_string(y);
    auto result = testing_support::runCommand(hdrlab(arguments));
    ASSERT_EQ(result.exitCode, 0) << result.output;
    for (std::size_t i = 0; i < points.size(); ++i) {
        const auto [x, y] = points[i];
        const std::string line = lineStarting(result.output, "probe " + std::to_string(i + 1) + " at " +
                                                                 std::to_string(x) + "," + std::to_string(y) + ":");
        ASSERT_FALSE(line.empty()) << result.output;
        const float* p = input.at(x, y);
        const float L = hd::hdLuminance(p[0], p[1], p[2]);
        EXPECT_EQ(binOfLine(line), hd::hdBinOf(L, -6.0f, 15.0f, 100, hd::kOutOfRangeClamp)) << line;
        if (std::isfinite(L) && L >= hd::kMinLuminance) {
            char ev[32];
            std::snprintf(ev, sizeof ev, "EV %.3f", hd::hdLog2(L));
            EXPECT_NE(line.find(ev), std::string::npos) << ev << " in " << line;
        }
    }
}

TEST(ViewProbeCli, HeadlessFalseColourScreenshotFollowsTheRampAndTheProbeIsReported)
{
    const fs::path dir = testing_support::scratchDir("cli-view-headless");
    const std::string common = "--headless --size 160x90 --frames 4 --range -10:20 ";
    auto falseColour = cli_test::runIn(dir, hdrlab(common + "--view false-colour --screenshot fc.png --screenshot-exr "
                                                            "frame.exr --probe 5,7 --probe 159,89 --capture c.json"));
    ASSERT_EQ(falseColour.exitCode, 0) << falseColour.output;
    auto toneMapped = cli_test::runIn(dir, hdrlab(common + "--screenshot tm.png"));
    ASSERT_EQ(toneMapped.exitCode, 0) << toneMapped.output;

    const image::Image8 fc = image::loadImage8(dir / "fc.png", 3);
    const image::Image8 tm = image::loadImage8(dir / "tm.png", 3);
    EXPECT_NE(fc.pixels, tm.pixels);
    // The EXR holds the frame in half floats: a pixel within a rounding of a whole EV may change band.
    const image::ImageF frame = image::loadHdrImage(dir / "frame.exr");
    const std::vector<std::uint8_t> expected = ref::falseColour(frame.pixels.data(), 160, 90, -10.0f, 20.0f);
    const int rows = 90 - hd::hdFalseColourLegendRows(90);
    std::size_t same = 0;
    for (std::size_t i = 0; i < std::size_t(rows) * 160; ++i)
        same += fc.pixels[i * 3] == expected[i * 4] && fc.pixels[i * 3 + 1] == expected[i * 4 + 1] &&
                fc.pixels[i * 3 + 2] == expected[i * 4 + 2];
    EXPECT_GE(double(same), 0.99 * rows * 160) << same << " of " << rows * 160;

    const std::string probe = lineStarting(falseColour.output, "probe 1 at 5,7: rgb ");
    EXPECT_FALSE(probe.empty()) << falseColour.output;
    EXPECT_FALSE(lineStarting(falseColour.output, "probe 2 at 159,89: rgb ").empty()) << falseColour.output;
    std::ifstream capture(dir / "c.json");
    const nlohmann::json root = nlohmann::json::parse(capture);
    EXPECT_EQ(root["otherData"]["view"], "false-colour");
    EXPECT_EQ("probe 1 at " + root["otherData"]["probe_1"].get<std::string>(), probe);
}

TEST(ViewProbeCli, BadProbesAndViewsGiveOneClearLine)
{
    auto expectLast = [](const testing_support::CommandResult& result, int exitCode, const std::string& part) {
        EXPECT_EQ(result.exitCode, exitCode) << result.output;
        const auto out = lines(result.output);
        ASSERT_FALSE(out.empty());
        EXPECT_NE(out.back().find(part), std::string::npos) << "expected '" << part << "' in: " << out.back();
    };
    auto run = [](const std::string& arguments) { return testing_support::runCommand(hdrlab(arguments)); };
    expectLast(run("--headless --size 64x32 --frames 1 --probe 64,0"), 1,
               "--probe 64,0 is outside the 64x32 frame (X 0..63, Y 0..31)");
    expectLast(run("--headless --size 64x32 --frames 1 --probe 3,32"), 1, "outside the 64x32 frame");
    expectLast(run("--headless --probe '12;4'"), 2, "--probe '12;4' is not X,Y");
    expectLast(run("--headless --probe 12"), 2, "--probe '12' is not X,Y");
    expectLast(run("--headless --probe 1,2,3"), 2, "is not X,Y");
    expectLast(run("--headless --probe=-1,2"), 2, "--probe -1,2 is outside 0..16383");
    std::string nine;
    for (int i = 0; i < 9; ++i)
        nine += " --probe 1,1";
    expectLast(run("--headless" + nine), 2, "--probe is given 9 times; at most 8 probes");
    expectLast(run("--headless --view sepia"), 2, "--view");

    const fs::path dir = testing_support::scratchDir("cli-probe-errors");
    image::writeExr(dir / "small.exr", image::ImageF(20, 10), image::ExrPixelType::Float);
    expectLast(run("tonemap '" + (dir / "small.exr").string() + "' -o '" + (dir / "o.png").string() + "' --probe 20,3"),
               1, "--probe 20,3 is outside the 20x10 image (X 0..19, Y 0..9)");
    expectLast(run("tonemap '" + (dir / "small.exr").string() + "' -o '" + (dir / "o.png").string() + "' --probe x,y"),
               2, "--probe 'x,y' is not X,Y");
    EXPECT_FALSE(fs::exists(dir / "o.png"));
}

}  // namespace
