// ViewCommandTest.cpp: `hdrlab view IMAGE` end to end: headless it runs the live pipeline on an EXR
// written here, at the image's own size and the right way up, verifies the histogram against the
// CPU reference and writes the screenshot and the capture naming the image; missing and damaged
// files and misuse give one error line; in a window (Xvfb) it shows the image.
#include "cli/CliTestSupport.h"
#include "image/ImageIo.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <set>

namespace {

namespace fs = std::filesystem;
using cli_test::hdrlab;

/// 48x32: the top half bright (2^10 cd/m2), the bottom half dark (2^-4), a ramp across the columns.
void writeTestExr(const fs::path& path)
{
    image::ImageF image(48, 32);
    for (int y = 0; y < 32; ++y)
        for (int x = 0; x < 48; ++x) {
            const float value = std::exp2((y < 16 ? 10.0f : -4.0f) + float(x) / 16.0f);
            float* p = image.at(x, y);
            p[0] = p[1] = p[2] = value;
            p[3] = 1.0f;
        }
    image::writeExr(path, image, image::ExrPixelType::Float);
}

double meanRows(const image::Image8& image, int first, int last)
{
    double sum = 0.0;
    for (int y = first; y < last; ++y)
        for (int x = 0; x < image.width; ++x)
            sum += image.at(x, y)[1];
    return sum / double((last - first) * image.width);
}

void expectOneErrorLine(const testing_support::CommandResult& result, int exitCode, const std::string& part)
{
    EXPECT_EQ(result.exitCode, exitCode) << result.output;
    auto out = cli_test::lines(result.output);
    ASSERT_FALSE(out.empty());
    EXPECT_EQ(out.back().rfind("hdrlab: error: ", 0), 0u) << result.output;
    EXPECT_NE(out.back().find(part), std::string::npos) << "expected '" << part << "' in: " << out.back();
    for (std::size_t i = 0; i + 1 < out.size(); ++i)
        EXPECT_EQ(out[i].find("error"), std::string::npos) << "more than one error line:\n" << result.output;
}

// A Radiance picture's units: logged at start, in the capture, and --set input.units=plain undoes them.
TEST(ViewCommandTest, RadiancePictureUnitsAreLoggedAndRecorded)
{
    fs::path dir = testing_support::scratchDir("cli-view-units");
    {
        std::ofstream file(dir / "p.hdr", std::ios::binary);
        file << "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\nEXPOSURE=2\n\n-Y 2 +X 3\n";
        for (int i = 0; i < 6; ++i)
            file << char(100 + 20 * i) << char(90) << char(60) << char(129);
    }
    auto result = cli_test::runIn(dir, hdrlab("view p.hdr --headless --frames 2 --capture p.json --verify"));
    ASSERT_EQ(result.exitCode, 0) << result.output;
    const std::string units =
        "p.hdr: Radiance picture: 1 unit = 179/EXPOSURE(=2) = 89.5 cd/m^2, weights "
        "0.2651/0.6701/0.0648 (Radiance's default primaries)";
    EXPECT_NE(result.output.find(units), std::string::npos) << result.output;
    std::ifstream file(dir / "p.json");
    ASSERT_TRUE(file) << "no capture";
    nlohmann::json root = nlohmann::json::parse(file);
    EXPECT_EQ(root["otherData"]["units"], units.substr(7));
    EXPECT_EQ(root["otherData"]["setting.input.units"], "auto");

    auto plain = cli_test::runIn(dir, hdrlab("view p.hdr --headless --frames 1 --set input.units=plain"));
    ASSERT_EQ(plain.exitCode, 0) << plain.output;
    EXPECT_NE(plain.output.find("p.hdr: input.units=plain: 1 unit = 1 cd/m^2, Rec. 709 weights"), std::string::npos)
        << plain.output;
}

TEST(ViewCommandTest, HeadlessWritesScreenshotAndCaptureOfTheImage)
{
    fs::path dir = testing_support::scratchDir("cli-view");
    writeTestExr(dir / "v.exr");
    auto result = cli_test::runIn(
        dir, hdrlab("view v.exr --headless --frames 12 --screenshot v.png --capture v.json --verify --range -8:16"));
    ASSERT_EQ(result.exitCode, 0) << result.output;
    EXPECT_NE(result.output.find("): ok"), std::string::npos) << result.output;
    EXPECT_NE(result.output.find("bins: exact"), std::string::npos) << result.output;
    EXPECT_NE(result.output.find("48x32 input"), std::string::npos) << result.output;

    image::Image8 shot = image::loadImage8(dir / "v.png", 3);
    ASSERT_EQ(shot.width, 48);  // the whole image at its own size, whatever --size says
    ASSERT_EQ(shot.height, 32);
    EXPECT_GT(meanRows(shot, 0, 16), meanRows(shot, 16, 32) + 20.0) << "the image is upside down or flat";

    std::ifstream file(dir / "v.json");
    ASSERT_TRUE(file) << "no capture";
    nlohmann::json root = nlohmann::json::parse(file);
    EXPECT_EQ(root["otherData"]["scene"], "v.exr");
    EXPECT_EQ(root["otherData"]["resolution"], "48x32");
    std::set<std::string> names;
    for (const auto& event : root["traceEvents"])
        if (event["ph"] == "X")
            names.insert(event["name"].get<std::string>());
    EXPECT_FALSE(names.count("scene")) << "an image view renders no scene";
    EXPECT_TRUE(names.count("histogram/" + root["otherData"]["histogram_method"].get<std::string>()));
}

TEST(ViewCommandTest, HeadlessPanelsSurroundTheImage)
{
    fs::path dir = testing_support::scratchDir("cli-view-ui");
    image::ImageF large(400, 300);
    for (std::size_t i = 0; i < large.pixels.size(); ++i)
        large.pixels[i] = float(i % 97) + 0.5f;
    image::writeExr(dir / "large.exr", large, image::ExrPixelType::Half);
    // --ui lays the panels out as a window of --size does; the image is fitted into the viewport.
    auto result =
        cli_test::runIn(dir, hdrlab("view large.exr --headless --ui --size 1280x720 --frames 3 --screenshot ui.png"));
    ASSERT_EQ(result.exitCode, 0) << result.output;
    EXPECT_EQ(result.output.find("--size is ignored"), std::string::npos) << result.output;
    image::Image8 shot = image::loadImage8(dir / "ui.png", 3);
    EXPECT_EQ(shot.width, 1280);
    EXPECT_EQ(shot.height, 720);
    EXPECT_GT(cli_test::countColour(shot, 41, 74, 122), 50u) << "no panel headers around the image";
    const auto viewport = cli_test::reportedViewport(result.output);
    ASSERT_TRUE(viewport) << result.output;
    image::Image8 picture(viewport->width, viewport->height, 3);
    for (int y = 0; y < picture.height; ++y)
        for (int x = 0; x < picture.width; ++x)
            std::copy_n(shot.at(viewport->x + x, viewport->y + y), 3, picture.at(x, y));
    EXPECT_GT(cli_test::distinctColours(picture), 20u) << "the image is not in the viewport";
}

TEST(ViewCommandTest, MissingDamagedAndMisusedGiveOneErrorLine)
{
    fs::path dir = testing_support::scratchDir("cli-view-bad");
    std::ofstream(dir / "damaged.exr", std::ios::binary) << "v/1\x01" << std::string(64, 'x');
    expectOneErrorLine(cli_test::runIn(dir, hdrlab("view missing.exr --headless --frames 2")), 1, "missing.exr");
    expectOneErrorLine(cli_test::runIn(dir, hdrlab("view damaged.exr --headless --frames 2")), 1, "damaged.exr");
    expectOneErrorLine(cli_test::runIn(dir, hdrlab("view --headless")), 2, "image is required");
    expectOneErrorLine(cli_test::runIn(dir, hdrlab("view damaged.exr --scene s.json")), 2, "--scene does not apply");
    expectOneErrorLine(cli_test::runIn(dir, hdrlab("view damaged.exr --part 3 --headless")), 1, "damaged.exr");
    EXPECT_FALSE(fs::exists(dir / "hdrlab-screenshot.png"));
}

TEST(ViewCommandTest, WindowShowsTheImage)
{
    if (testing_support::runCommand("command -v xvfb-run").exitCode != 0)
        GTEST_SKIP() << "xvfb-run is not installed";
    fs::path dir = testing_support::scratchDir("cli-view-window");
    writeTestExr(dir / "v.exr");
    auto result = cli_test::runIn(dir, "xvfb-run -a -s '-screen 0 1280x720x24' " +
                                           hdrlab("view v.exr --frames 4 --size 480x320 --vsync off --hide-ui "
                                                  "--window-screenshot w.png"));
    ASSERT_EQ(result.exitCode, 0) << result.output;
    EXPECT_NE(result.output.find("GLFW window"), std::string::npos) << "did not run in a window:\n" << result.output;
    image::Image8 shot = image::loadImage8(dir / "w.png", 3);
    ASSERT_EQ(shot.width, 480);
    ASSERT_EQ(shot.height, 320);
    // Fit: 48x32 magnified 10x fills the window; the bright half is on top.
    EXPECT_GT(meanRows(shot, 10, 150), meanRows(shot, 170, 310) + 20.0);
}

}  // namespace
