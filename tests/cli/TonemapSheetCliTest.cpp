// `hdrlab tonemap IN --operator all|--preset all -o sheet.png` end to end: two processes write the
// same sheet bytes, the layout lines name one tile per operator with both labels, --curve-out has a
// column per operator, and bad combinations end with one error line and no file.
#include "cli/CliTestSupport.h"
#include "image/ImageIo.h"
#include "post/tonemap/ToneOperator.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iterator>
#include <regex>
#include <string>

namespace {

namespace fs = std::filesystem;
using cli_test::hdrlab;

std::string readBytes(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

void writeRamp(const fs::path& path)
{
    image::ImageF hdr(96, 64);
    for (int y = 0; y < hdr.height; ++y)
        for (int x = 0; x < hdr.width; ++x) {
            float* p = hdr.at(x, y);
            p[0] = p[1] = p[2] = std::exp2(-6.0f + 12.0f * float(x) / 95.0f + (y < 16 ? 3.0f : 0.0f));
            p[3] = 1.0f;
        }
    image::writeExr(path, hdr, image::ExrPixelType::Float);
}

TEST(TonemapSheetCliTest, TwoRunsWriteTheSameSheetWithATilePerOperator)
{
    const fs::path dir = testing_support::scratchDir("cli-tonemap-sheet");
    writeRamp(dir / "ramp.exr");
    const std::string args = "tonemap ramp.exr --operator all --curve-out curves.csv -o ";
    const auto first = cli_test::runIn(dir, hdrlab(args + "a.png"));
    const auto second = cli_test::runIn(dir, hdrlab(args + "b.png"));
    ASSERT_EQ(first.exitCode, 0) << first.output;
    ASSERT_EQ(second.exitCode, 0) << second.output;
    const std::string bytes = readBytes(dir / "a.png");
    ASSERT_FALSE(bytes.empty());
    EXPECT_EQ(bytes, readBytes(dir / "b.png")) << "the sheet of one input is the same on every run";

    static const std::regex kTile(R"re(^tile \d+ (\S+): picture .*: "(\S+)  (.+)" "(.+)"$)re");
    std::vector<std::string> names;
    for (const std::string& line : cli_test::lines(first.output)) {
        std::smatch m;
        if (!std::regex_match(line, m, kTile))
            continue;
        names.push_back(m[1]);
        EXPECT_EQ(m[2], m[1]) << line;
    }
    // Every registered operator, then the RGB display transforms after the percentile operator.
    std::vector<std::string> expected;
    for (const post::ToneOperatorEntry& entry : post::toneOperatorRegistry())
        expected.emplace_back(entry.id);
    for (const char* transform : {"percentile+agx", "percentile+agx-punchy", "percentile+pbr-neutral"})
        expected.emplace_back(transform);
    EXPECT_EQ(names, expected) << first.output;
    const image::Image8 sheet = image::loadImage8(dir / "a.png");
    EXPECT_GT(sheet.width, 2 * 96) << "two columns of 96-pixel pictures";
    std::ifstream curves(dir / "curves.csv");
    std::string header;
    std::getline(curves, header);
    std::string columns = "log2_Lw";
    for (const std::string& name : expected)
        columns += "," + name;
    EXPECT_EQ(header, columns);
    fs::remove_all(dir);
}

TEST(TonemapSheetCliTest, BadCombinationsEndWithOneLine)
{
    const fs::path dir = testing_support::scratchDir("cli-tonemap-sheet-bad");
    writeRamp(dir / "ramp.exr");
    const std::pair<const char*, const char*> cases[] = {
        {"--operator all --view false-colour", "hdrlab: error: --operator all with --view false-colour"},
        {"--preset unreal --operator ward", "hdrlab: error: --preset runs the percentile operator"},
        {"--operator all --sheet-tile-width 50", "hdrlab: error: --sheet-tile-width 50 is outside"},
        {"--preset all --range -4:4", "hdrlab: error: --preset all with --bins or --range"},
    };
    for (const auto& [flags, message] : cases) {
        const auto result = cli_test::runIn(dir, hdrlab(std::string("tonemap ramp.exr -o out.png ") + flags));
        const bool commandLine = std::string(message).rfind("hdrlab: error:", 0) == 0;  // CLI11's parse: code 2
        EXPECT_EQ(result.exitCode, commandLine ? 2 : 1) << flags << ": " << result.output;
        const auto outputLines = cli_test::lines(result.output);
        ASSERT_EQ(outputLines.size(), 1u) << flags << ": " << result.output;
        EXPECT_EQ(outputLines.front().rfind(message, 0), 0u) << outputLines.front();
        EXPECT_FALSE(fs::exists(dir / "out.png")) << flags;
    }
    fs::remove_all(dir);
}

}  // namespace
