// FrameFormatCliTest.cpp: --frame-format end to end (scene/PreExposure.h): the default pre-exposed
// half-float frame says its k and what clipped on the headless "frame:" line and in the capture's
// metadata (the sun entering the view clips for the readback's few frames: counted, never silent),
// writes its HDR screenshot as 32-bit floats in cd/m^2 (the sun above 65504, not +Inf); rgba32f and
// auto say so too; the flicker figure of the camera path is the RGBA32F frame's to within the half
// rounding; a bad value or the flag on `view` is one error line.
#include "cli/CliTestSupport.h"
#include "image/ImageIo.h"
#include "support/TestPaths.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <string>

namespace {

namespace fs = std::filesystem;
using cli_test::hdrlab;
using cli_test::lineStarting;

TEST(FrameFormatCliTest, TheSunEnteringTheViewClipsForAFewFramesAndSaysSo)
{
    const fs::path dir = testing_support::scratchDir("frame-format-sun");
    const fs::path sceneFile = testing_support::sourceDir() / "scenes" / "stress-sun-disc.json";
    // The camera path brings the sun into view at frame 73 (at 96x54).
    const auto result = cli_test::runIn(dir, hdrlab("--headless --frames 80 --size 96x54 --scene \"" +
                                                    sceneFile.string() + "\" --screenshot-exr s.exr --capture c.json"));
    ASSERT_EQ(result.exitCode, 0) << result.output;
    const std::string frame = lineStarting(result.output, "frame: ");
    EXPECT_EQ(frame.rfind("frame: rgba16f (RGBA16F pre-exposed), k = -16 (", 0), 0u) << result.output;
    EXPECT_NE(frame.find("; clipped: "), std::string::npos) << frame;
    EXPECT_EQ(frame.find("clipped: none"), std::string::npos) << "the sun's first frames clip: " << frame;

    std::ifstream file(dir / "c.json");
    ASSERT_TRUE(file);
    const nlohmann::json meta = nlohmann::json::parse(file)["otherData"];
    EXPECT_EQ(meta["frame_format"], "rgba16f");
    EXPECT_EQ(meta["frame_gl_format"], "rgba16f");
    EXPECT_EQ(meta["pre_exposure"], "-16");
    EXPECT_GE(std::stoi(meta["clipped_pixels"].get<std::string>()), 1);
    EXPECT_GE(std::stoi(meta["clipped_frames"].get<std::string>()), 1);
    EXPECT_GE(std::stoi(meta["frames_read_back"].get<std::string>()), 70);

    // The HDR screenshot holds cd/m^2 (times 2^16 undone) as 32-bit floats: the sun disc itself.
    const image::ImageF exr = image::loadHdrImage(dir / "s.exr");
    float peak = 0.0f;
    for (std::size_t i = 0; i < exr.pixels.size(); ++i) {
        ASSERT_TRUE(std::isfinite(exr.pixels[i])) << i;
        if (i % 4 != 3)
            peak = std::max(peak, exr.pixels[i]);
    }
    EXPECT_GT(peak, 1e8f);
}

TEST(FrameFormatCliTest, Rgba32fAndAutoSayWhatTheyStore)
{
    const fs::path dir = testing_support::scratchDir("frame-format-32");
    auto full =
        cli_test::runIn(dir, hdrlab("--headless --frames 3 --size 64x36 --frame-format rgba32f --capture c.json"));
    ASSERT_EQ(full.exitCode, 0) << full.output;
    EXPECT_EQ(lineStarting(full.output, "frame: "),
              "frame: rgba32f (RGBA32F); clipping not measured (RGBA32F clamps at 1e12 cd/m^2)");
    std::ifstream file(dir / "c.json");
    const nlohmann::json meta = nlohmann::json::parse(file)["otherData"];
    EXPECT_EQ(meta["frame_format"], "rgba32f");
    EXPECT_EQ(meta["pre_exposure"], "none");
    EXPECT_FALSE(meta.contains("clipped_pixels"));
    const fs::path night = testing_support::sourceDir() / "scenes" / "night-street.json";
    auto automatic = cli_test::runIn(
        dir, hdrlab("--headless --frames 3 --size 64x36 --frame-format auto --scene \"" + night.string() + "\""));
    ASSERT_EQ(automatic.exitCode, 0) << automatic.output;
    EXPECT_EQ(lineStarting(automatic.output, "frame: ").rfind("frame: auto (RGBA16F, clamped at 60000); clipped: ", 0),
              0u)
        << automatic.output;
}

TEST(FrameFormatCliTest, TheFlickerFigureIsTheRgba32fFramesToWithinHalfRounding)
{
    const fs::path dir = testing_support::scratchDir("frame-format-flicker");
    double figure[2] = {0.0, 0.0};
    int i = 0;
    for (const char* format : {"rgba32f", "rgba16f"}) {
        auto result = cli_test::runIn(dir, hdrlab(std::string("--headless --frames 90 --size 96x54 --operator "
                                                              "percentile --frame-format ") +
                                                  format));
        ASSERT_EQ(result.exitCode, 0) << result.output;
        const std::string line = lineStarting(result.output, "flicker: ");
        ASSERT_FALSE(line.empty()) << result.output;
        figure[i++] = std::stod(line.substr(std::string("flicker: ").size()));
    }
    EXPECT_GT(figure[0], 0.0);
    EXPECT_NEAR(figure[1], figure[0], 0.02 * figure[0]);
}

TEST(FrameFormatCliTest, BadValuesAndViewGiveOneLineErrors)
{
    for (const char* arguments : {"--headless --frames 1 --frame-format rgb10", "view x.exr --frame-format rgba16f"}) {
        auto result = testing_support::runCommand(hdrlab(arguments));
        EXPECT_NE(result.exitCode, 0) << arguments;
        const auto out = cli_test::lines(result.output);
        ASSERT_EQ(out.size(), 1u) << arguments << "\n" << result.output;
        EXPECT_EQ(out[0].rfind("hdrlab: error: ", 0), 0u) << out[0];
    }
}

}  // namespace
