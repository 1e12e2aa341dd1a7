// SplitViewCliTest.cpp: the split view end to end on a still image (headless `view`, deterministic):
// the side-by-side screenshot is A's own screenshot left of the divider and B's right of it, pixel
// for pixel, with the divider columns between; the difference screenshot is the CPU |A-B| x gain of
// the two; the same settings on both sides give black and a zero histogram difference; each side's
// passes are timed apart ("B/..." in the summary and the capture) and the capture records the split
// and B's settings; bad B settings and split flags without --split fail with one line.
#include "cli/CliTestSupport.h"
#include "image/ImageIo.h"
#include "post/SplitCompose.h"
#include "reference/SplitComposeRef.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <set>

namespace {

namespace fs = std::filesystem;
using cli_test::hdrlab;

constexpr int kWidth = 96;
constexpr int kHeight = 40;

/// A ramp over -6..14 EV left to right, tinted by row: operators disagree on most of it.
void writeRampExr(const fs::path& path)
{
    image::ImageF image(kWidth, kHeight);
    for (int y = 0; y < kHeight; ++y)
        for (int x = 0; x < kWidth; ++x) {
            const float L = std::exp2(-6.0f + 20.0f * float(x) / float(kWidth - 1));
            float* p = image.at(x, y);
            p[0] = L * (0.5f + 0.5f * float(y) / float(kHeight));
            p[1] = L;
            p[2] = L * 0.7f;
            p[3] = 1.0f;
        }
    image::writeExr(path, image, image::ExrPixelType::Float);
}

class SplitViewCli : public testing::Test
{
protected:
    void SetUp() override
    {
        mDir = testing_support::scratchDir("cli-split");
        writeRampExr(mDir / "ramp.exr");
    }

    /// Runs `view ramp.exr` headless for 6 frames with `flags`; returns its output (and checks it ran).
    std::string run(const std::string& flags)
    {
        auto result = cli_test::runIn(mDir, hdrlab("view ramp.exr --headless --frames 6 " + flags));
        EXPECT_EQ(result.exitCode, 0) << flags << "\n" << result.output;
        return result.output;
    }

    /// RGBA bytes of a screenshot (alpha 255), top-down.
    std::vector<std::uint8_t> rgba(const std::string& png)
    {
        const image::Image8 shot = image::loadImage8(mDir / png, 3);
        EXPECT_EQ(shot.width, kWidth);
        EXPECT_EQ(shot.height, kHeight);
        std::vector<std::uint8_t> out;
        for (std::size_t i = 0; i + 2 < shot.pixels.size(); i += 3)
            out.insert(out.end(), {shot.pixels[i], shot.pixels[i + 1], shot.pixels[i + 2], 255});
        return out;
    }

    fs::path mDir;
};

TEST_F(SplitViewCli, SideBySideIsAsOwnPictureLeftAndBsRight)
{
    run("--set tonemap.operator=ward --screenshot a.png");
    run("--set tonemap.operator=equalize --screenshot b.png");
    run("--set tonemap.operator=ward --split side-by-side --split-at 0.4 --set-b tonemap.operator=equalize "
        "--screenshot split.png");
    const auto a = rgba("a.png"), b = rgba("b.png"), split = rgba("split.png");
    ASSERT_EQ(a.size(), split.size());
    ASSERT_NE(a, b) << "the two operators give the same picture: the test would prove nothing";
    const int divider = post::splitDividerX(kWidth, 0.4f);
    EXPECT_EQ(split, ref::splitSideBySide(a, b, kWidth, kHeight, divider));
    // And literally: A's columns, the white and black divider columns, B's columns.
    const auto at = [&](const std::vector<std::uint8_t>& image, int x, int y) {
        return image[(std::size_t(y) * kWidth + std::size_t(x)) * 4u + 1u];
    };
    for (int y = 0; y < kHeight; y += 13) {
        EXPECT_EQ(at(split, divider - 2, y), at(a, divider - 2, y));
        EXPECT_EQ(at(split, divider - 1, y), 255);
        EXPECT_EQ(at(split, divider, y), 0);
        EXPECT_EQ(at(split, divider + 1, y), at(b, divider + 1, y));
    }
}

TEST_F(SplitViewCli, DifferenceIsTheAmplifiedAbsoluteDifference)
{
    run("--set tonemap.operator=ward --screenshot a.png");
    run("--set tonemap.operator=equalize --screenshot b.png");
    run("--set tonemap.operator=ward --split difference --split-gain 3 --set-b tonemap.operator=equalize "
        "--screenshot diff.png");
    const auto a = rgba("a.png"), b = rgba("b.png");
    EXPECT_EQ(rgba("diff.png"), ref::splitDifference(a, b, 3.0f));
}

TEST_F(SplitViewCli, SameSettingsGiveABlackDifferenceAndZeroHistogramDifference)
{
    const std::string output = run("--split difference --split-gain 255 --screenshot same.png");
    for (std::size_t i = 0; const std::uint8_t value : rgba("same.png"))
        ASSERT_EQ(value, i++ % 4 == 3 ? 255 : 0) << "byte " << i - 1;
    EXPECT_NE(output.find("max |bin diff| 0, L1 0"), std::string::npos) << output;
}

TEST_F(SplitViewCli, HistogramDifferenceOfMethodsAndOfBinCounts)
{
    // Two exact methods on one frame: the same histogram.
    std::string output = run("--split side-by-side --set-b histogram.method=compute-global-atomic");
    EXPECT_NE(output.find("max |bin diff| 0, L1 0"), std::string::npos) << output;
    // A smaller histogram input counts fewer pixels: a difference.
    output = run("--split side-by-side --set-b histogram.downsample=2");
    EXPECT_NE(output.find("A-B (frame"), std::string::npos) << output;
    EXPECT_EQ(output.find("L1 0\n"), std::string::npos) << output;
    // Bins of another width do not compare.
    output = run("--split side-by-side --set-b histogram.bins=128");
    EXPECT_NE(output.find("not comparable, different bins: 256 vs 128"), std::string::npos) << output;
}

TEST_F(SplitViewCli, EachSideIsTimedApartAndTheCaptureRecordsTheSplit)
{
    const std::string output =
        run("--set tonemap.operator=ward --split side-by-side --split-at 0.25 "
            "--set-b tonemap.operator=exposure --capture c.json");
    for (const char* pass : {"\nhistogram/", "\ntonemap/ward ", "\nB/histogram/", "\nB/tonemap/exposure ",
                             "\nB/tonemap/exposure/apply", "\nview/split "})
        EXPECT_NE(output.find(pass), std::string::npos) << pass << "\n" << output;
    std::ifstream file(mDir / "c.json");
    ASSERT_TRUE(file);
    const nlohmann::json root = nlohmann::json::parse(file);
    const nlohmann::json& data = root["otherData"];
    EXPECT_EQ(data["split"], "side-by-side");
    EXPECT_EQ(data["setting.tonemap.operator"], "ward");
    EXPECT_EQ(data["b.setting.tonemap.operator"], "exposure");
    EXPECT_NEAR(std::stod(data["split_position"].get<std::string>()), 0.25, 1e-6);
    std::set<std::string> names;
    for (const auto& event : root["traceEvents"])
        if (event["ph"] == "X")
            names.insert(event["name"].get<std::string>());
    EXPECT_TRUE(names.count("tonemap/ward"));
    EXPECT_TRUE(names.count("B/tonemap/exposure"));
    EXPECT_FALSE(names.count("tonemap/exposure")) << "B's pass was counted as A's";
}

TEST_F(SplitViewCli, OffByDefaultAndInTheCapture)
{
    const std::string output = run("--capture c.json");
    EXPECT_EQ(output.find("B/"), std::string::npos) << output;
    std::ifstream file(mDir / "c.json");
    ASSERT_TRUE(file);
    EXPECT_EQ(nlohmann::json::parse(file)["otherData"]["split"], "off");
}

void expectOneLineError(const testing_support::CommandResult& result, const std::string& part)
{
    EXPECT_NE(result.exitCode, 0) << result.output;
    const auto out = cli_test::lines(result.output);
    ASSERT_FALSE(out.empty());
    EXPECT_EQ(out.back().rfind("hdrlab: error: ", 0), 0u) << result.output;
    EXPECT_NE(out.back().find(part), std::string::npos) << "expected '" << part << "' in: " << out.back();
    for (std::size_t i = 0; i + 1 < out.size(); ++i)
        EXPECT_EQ(out[i].find("error"), std::string::npos) << "more than one error line:\n" << result.output;
}

TEST_F(SplitViewCli, BadFlagsFailWithOneLine)
{
    const auto inDir = [&](const std::string& flags) {
        return cli_test::runIn(mDir, hdrlab("view ramp.exr --headless --frames 2 " + flags));
    };
    expectOneLineError(inDir("--split side-by-side --set-b bad.key=1"), "--set-b: unknown key 'bad.key'");
    expectOneLineError(inDir("--split side-by-side --set-b histogram.bins=0"), "histogram.bins");
    expectOneLineError(inDir("--set-b tonemap.operator=ward"), "need --split side-by-side|difference");
    expectOneLineError(inDir("--split sideways"), "--split");
    expectOneLineError(inDir("--split side-by-side --split-at 1.5"), "--split-at 1.5 is outside 0..1");
    expectOneLineError(inDir("--split difference --split-gain x"), "--split-gain 'x' is not a number");
    expectOneLineError(inDir("--split side-by-side --settings-b missing.json"), "missing.json");
}

}  // namespace
