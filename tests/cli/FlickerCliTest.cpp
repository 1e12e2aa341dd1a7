// FlickerCliTest.cpp: the flicker figure of headless runs (post/ExposureHistory.h): the same on two
// runs of the camera path, above zero there (the exposure follows the moving camera), zero on a still
// image for every adaptive operator; --capture carries the per-frame key values and the figure.
#include "cli/CliTestSupport.h"
#include "image/ImageIo.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <iterator>
#include <string>

namespace {

namespace fs = std::filesystem;
using cli_test::flickerLine;
using cli_test::flickerValue;
using cli_test::hdrlab;

TEST(FlickerCliTest, CameraPathGivesTheSameNonZeroFigureOnTwoRuns)
{
    const fs::path dir = testing_support::scratchDir("cli-flicker-path");
    for (const char* op : {"percentile", "ward", "equalize"}) {
        const std::string args = std::string("--headless --frames 40 --size 160x90 --operator ") + op;
        const auto first = cli_test::runIn(dir, hdrlab(args));
        const auto second = cli_test::runIn(dir, hdrlab(args));
        ASSERT_EQ(first.exitCode, 0) << first.output;
        ASSERT_EQ(second.exitCode, 0) << second.output;
        const std::string line = flickerLine(first.output);
        ASSERT_FALSE(line.empty()) << first.output;
        EXPECT_EQ(line, flickerLine(second.output)) << op << ": headless runs are deterministic";
        EXPECT_NE(line.find("over 40 frames (operator " + std::string(op)), std::string::npos) << line;
        EXPECT_GT(flickerValue(line), 0.0) << op << " follows the moving camera: " << line;
    }
    fs::remove_all(dir);
}

TEST(FlickerCliTest, StillImageGivesZeroAndCaptureRecordsKeyValues)
{
    const fs::path dir = testing_support::scratchDir("cli-flicker-still");
    // A still frame: a ramp over 12 EV, bright top, dark bottom.
    image::ImageF still(32, 16);
    for (int y = 0; y < 16; ++y)
        for (int x = 0; x < 32; ++x) {
            float* p = still.at(x, y);
            p[0] = p[1] = p[2] = std::exp2((y < 8 ? 6.0f : -4.0f) + float(x) / 16.0f);
            p[3] = 1.0f;
        }
    image::writeExr(dir / "still.exr", still, image::ExrPixelType::Float);
    for (const char* op : {"percentile", "ward", "equalize", "exposure"}) {
        const auto result = cli_test::runIn(
            dir, hdrlab(std::string("view still.exr --headless --frames 24 --capture c.json --operator ") + op));
        ASSERT_EQ(result.exitCode, 0) << result.output;
        const std::string line = flickerLine(result.output);
        EXPECT_EQ(flickerValue(line), 0.0) << op << ": " << line;

        std::ifstream in(dir / "c.json");
        const auto root = nlohmann::json::parse(in);
        std::size_t counters = 0;
        for (const auto& event : root["traceEvents"])
            if (event["ph"] == "C" && event["name"] == "key value (EV)") {
                ++counters;
                EXPECT_TRUE(event["args"]["ev"].is_number()) << event.dump();
            }
        EXPECT_EQ(counters, root["otherData"]["recorded_frames"].get<std::size_t>()) << op;
        EXPECT_EQ(root["otherData"]["flicker_ev_per_s"], "0.000000") << op;
        EXPECT_NE(root["otherData"]["key_value"], "none") << op;
    }
    fs::remove_all(dir);
}

TEST(FlickerCliTest, BenchFlickerIsDeterministicPerOperatorAndPreset)
{
    const fs::path dir = testing_support::scratchDir("cli-flicker-bench");
    const std::string args = "bench flicker --size 160x90 --frames 24 --csv ";
    const auto first = cli_test::runIn(dir, hdrlab(args + "a.csv"));
    const auto second = cli_test::runIn(dir, hdrlab(args + "b.csv"));
    ASSERT_EQ(first.exitCode, 0) << first.output;
    ASSERT_EQ(second.exitCode, 0) << second.output;
    const auto read = [&](const char* name) {
        std::ifstream in(dir / name);
        return std::string(std::istreambuf_iterator<char>(in), {});
    };
    const std::string csv = read("a.csv");
    EXPECT_EQ(csv, read("b.csv")) << "two runs give the same figures";
    const std::vector<std::string> rows = cli_test::lines(csv);
    ASSERT_EQ(rows.front(), "operator,preset,flicker_ev_per_s,frames,key_value");
    for (const char* row : {"percentile,app,", "percentile,unreal,", "percentile,unity-hdrp,", "percentile,bevy,",
                            "ward,-,", "equalize,-,", "exposure,-,0.000000,24,exposure"})
        EXPECT_NE(csv.find(std::string("\n") + row), std::string::npos) << row << " missing in:\n" << csv;
    // The adaptive operators follow the moving camera: every figure but the fixed exposure's is above 0.
    for (std::size_t i = 1; i < rows.size(); ++i) {
        if (rows[i].rfind("exposure,", 0) == 0)
            continue;
        const std::size_t at = rows[i].find(',', rows[i].find(',') + 1) + 1;
        EXPECT_GT(std::stod(rows[i].substr(at)), 0.0) << rows[i];
    }

    const auto bad = cli_test::runIn(dir, hdrlab("bench flicker --chart c.svg"));
    EXPECT_NE(bad.exitCode, 0);
    EXPECT_NE(bad.output.find("--chart is an option of 'bench pipeline'"), std::string::npos) << bad.output;
    fs::remove_all(dir);
}

TEST(FlickerCliTest, BenchFlickerMeasuresTheLocalExposureOfBothMethods)
{
    // With local exposure on, every case gets the flicker of the frame's mean local exposure: 0 at
    // Unreal's neutral defaults (contrast scales 1, detail 1: the target is log2 L itself, so the exposure
    // is 0 at every pixel), above 0 at the template's 0.8 (the camera moves), the same on two runs;
    // "off" where a preset turns it off; no column without local exposure (the other test).
    const fs::path dir = testing_support::scratchDir("cli-flicker-local");
    const std::string args =
        "bench flicker --size 160x90 --frames 12 --operator percentile --set local_exposure.method=";
    for (const char* method : {"bilateral", "fusion"}) {
        SCOPED_TRACE(method);
        const auto neutral = cli_test::runIn(dir, hdrlab(args + method + " --csv n.csv"));
        ASSERT_EQ(neutral.exitCode, 0) << neutral.output;
        const std::string compressed = args + method +
                                       " --set local_exposure.highlight_contrast_scale=0.8"
                                       " --set local_exposure.shadow_contrast_scale=0.8 --csv ";
        const auto first = cli_test::runIn(dir, hdrlab(compressed + "a.csv"));
        const auto second = cli_test::runIn(dir, hdrlab(compressed + "b.csv"));
        ASSERT_EQ(first.exitCode, 0) << first.output;
        ASSERT_EQ(second.exitCode, 0) << second.output;
        EXPECT_NE(first.output.find("local EV/s"), std::string::npos) << first.output;
        const auto read = [&](const char* name) {
            std::ifstream in(dir / name);
            return cli_test::lines(std::string(std::istreambuf_iterator<char>(in), {}));
        };
        const std::vector<std::string> rows = read("a.csv");
        EXPECT_EQ(rows, read("b.csv")) << "two runs give the same figures";
        ASSERT_EQ(rows.front(), "operator,preset,flicker_ev_per_s,frames,key_value,local_flicker_ev_per_s");
        const auto localOf = [](const std::vector<std::string>& csv, const std::string& prefix) {
            for (const std::string& row : csv)
                if (row.rfind(prefix, 0) == 0)
                    return row.substr(row.rfind(',') + 1);
            return std::string("missing");
        };
        EXPECT_EQ(localOf(read("n.csv"), "percentile,app,"), "0.000000");
        EXPECT_GT(std::stod(localOf(rows, "percentile,app,")), 0.0);
        EXPECT_EQ(localOf(rows, "percentile,bevy,"), "") << "the bevy preset turns local exposure off";
        EXPECT_NE(first.output.find(" off "), std::string::npos) << first.output;
    }
    fs::remove_all(dir);
}

}  // namespace
