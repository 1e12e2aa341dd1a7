// ClaheCliTest.cpp: `hdrlab clahe` through the binary: 8-bit and 16-bit grey round trips equal to the
// CPU reference (gl and cpu backends, --verify), RGB refused with the reason, --per-channel (alpha
// untouched), bad flags, the cuda backend's availability, and --help.
#include "cli/CliTestSupport.h"
#include "image/HdrPng.h"
#include "image/ImageIo.h"
#include "reference/Clahe.h"
#include "support/ClaheCases.h"

#include <gtest/gtest.h>

namespace {

namespace fs = std::filesystem;
namespace ts = testing_support;
using cli_test::hdrlab;

class ClaheCliTest : public ::testing::Test
{
protected:
    void SetUp() override { dir = ts::scratchDir("clahe-cli"); }

    /// A photo-like grey 8-bit image written as a PNG; its samples.
    ref::ClaheImage<std::uint8_t> writeGrey8(const std::string& name, int w, int h)
    {
        const auto image = ts::claheImage8({w, h, 8, 8, 40.0, false, ts::ClaheContent::PhotoLike, 11});
        image::Image8 png(w, h, 1);
        png.pixels = image.samples;
        image::writePng(dir / name, png);
        return image;
    }

    ts::CommandResult run(const std::string& arguments) { return cli_test::runIn(dir, hdrlab("clahe " + arguments)); }

    fs::path dir;
};

TEST_F(ClaheCliTest, EightBitGreyEqualsTheReferenceOnEveryBackendItRuns)
{
    const auto input = writeGrey8("grey.png", 203, 117);
    const auto expected = ref::clahe(input, 3.5, 5, 7);
    for (const char* backend : {"gl", "cpu"}) {
        const auto result = run("grey.png -o out.png --clip-limit 3.5 --tile-grid 5x7 --runs 2 --verify --backend " +
                                std::string(backend));
        ASSERT_EQ(result.exitCode, 0) << result.output;
        EXPECT_NE(result.output.find("verify: 0 of 23751 samples differ"), std::string::npos) << result.output;
        EXPECT_NE(result.output.find("| blend |"), std::string::npos) << result.output;
        const image::Image8 output = image::loadImage8(dir / "out.png");
        EXPECT_EQ(output.channels, 1);
        EXPECT_EQ(output.pixels, expected.samples) << backend;
    }
}

TEST_F(ClaheCliTest, SixteenBitGreyStaysSixteenBitAndEqualsTheReference)
{
    const auto input = ts::claheImage16({150, 90, 8, 8, 40.0, true, ts::ClaheContent::PhotoLike, 12});
    image::writePng16(dir / "grey16.png", {150, 90, 1, input.samples});
    // The 16-bit PNG reader and writer round-trip the samples.
    EXPECT_TRUE(image::isPng16(dir / "grey16.png"));
    EXPECT_EQ(image::loadPng16Samples(dir / "grey16.png").samples, input.samples);
    const auto result = run("grey16.png -o out16.png --verify --runs 1");
    ASSERT_EQ(result.exitCode, 0) << result.output;
    EXPECT_NE(result.output.find("16-bit grey"), std::string::npos) << result.output;
    ASSERT_TRUE(image::isPng16(dir / "out16.png"));
    const image::Png16 output = image::loadPng16Samples(dir / "out16.png");
    EXPECT_EQ(output.channels, 1);
    EXPECT_EQ(output.samples, ref::clahe(input, 40.0, 8, 8).samples);
}

TEST_F(ClaheCliTest, ColourIsRefusedWithTheReasonOrProcessedPerChannel)
{
    const auto grey = writeGrey8("grey.png", 64, 48);
    image::Image8 rgba(64, 48, 4);
    for (std::size_t i = 0; i < grey.samples.size(); ++i)
        for (std::size_t c = 0; c < 4; ++c)
            rgba.pixels[i * 4 + c] = std::uint8_t(grey.samples[i] * (c + 1) / 4 + (c == 3 ? 7 : 0));
    image::writePng(dir / "rgba.png", rgba);

    const auto refused = run("rgba.png -o out.png --backend cpu");
    EXPECT_EQ(refused.exitCode, 1) << refused.output;
    EXPECT_NE(refused.output.find("has 4 channels (RGBA)"), std::string::npos) << refused.output;
    EXPECT_NE(refused.output.find("--per-channel"), std::string::npos) << refused.output;
    EXPECT_FALSE(fs::exists(dir / "out.png"));

    const auto result = run("rgba.png -o out.png --per-channel --verify --runs 1");
    ASSERT_EQ(result.exitCode, 0) << result.output;
    const image::Image8 output = image::loadImage8(dir / "out.png");
    ASSERT_EQ(output.channels, 4);
    for (std::size_t c = 0; c < 4; ++c) {
        ref::ClaheImage<std::uint8_t> plane{64, 48, std::vector<std::uint8_t>(64 * 48)};
        for (std::size_t i = 0; i < plane.samples.size(); ++i)
            plane.samples[i] = rgba.pixels[i * 4 + c];
        const auto expected = c == 3 ? plane : ref::clahe(plane, 40.0, 8, 8);  // alpha untouched
        for (std::size_t i = 0; i < plane.samples.size(); ++i)
            ASSERT_EQ(output.pixels[i * 4 + c], expected.samples[i]) << "channel " << c << " sample " << i;
    }
}

TEST_F(ClaheCliTest, BadFlagsAreRefusedOnOneLine)
{
    writeGrey8("grey.png", 16, 16);
    const std::pair<const char*, const char*> cases[] = {
        {"grey.png -o o.png --tile-grid 0x8", "--tile-grid '0x8' is outside 1..64"},
        {"grey.png -o o.png --tile-grid 65x8", "outside 1..64"},
        {"grey.png -o o.png --tile-grid 8by8", "is not WxH"},
        {"grey.png -o o.png --clip-limit -1", "--clip-limit -1 is outside"},
        {"grey.png -o o.png --clip-limit nan", "--clip-limit"},
        {"grey.png -o o.png --clip-limit abc", "is not a number"},
        {"grey.png -o o.png --backend vulkan", "--backend"},
        {"grey.png -o o.png --runs 0", "--runs 0"},
        {"grey.png", "--output"},
    };
    for (const auto& [arguments, part] : cases) {
        const auto result = run(arguments);
        EXPECT_EQ(result.exitCode, 2) << arguments << "\n" << result.output;
        const auto out = cli_test::lines(result.output);
        ASSERT_EQ(out.size(), 1u) << arguments << "\n" << result.output;
        EXPECT_NE(out[0].find(part), std::string::npos) << arguments << ": " << out[0];
    }
    const auto missing = run("no-such.png -o o.png");
    EXPECT_EQ(missing.exitCode, 1) << missing.output;
    EXPECT_NE(missing.output.find("hdrlab: error: "), std::string::npos) << missing.output;
}

TEST_F(ClaheCliTest, CudaBackendRunsOrSaysWhyNot)
{
    const auto input = writeGrey8("grey.png", 40, 30);
    const auto result = run("grey.png -o out.png --backend cuda --verify --runs 1");
    if (result.exitCode == 1) {
        EXPECT_NE(result.output.find("the cuda backend is unavailable: "), std::string::npos) << result.output;
        return;
    }
    ASSERT_EQ(result.exitCode, 0) << result.output;
    EXPECT_EQ(image::loadImage8(dir / "out.png").pixels, ref::clahe(input, 40.0, 8, 8).samples);
}

TEST_F(ClaheCliTest, HelpListsTheFlags)
{
    const auto result = ts::runCommand(hdrlab("clahe --help"));
    ASSERT_EQ(result.exitCode, 0) << result.output;
    for (const char* flag : {"--clip-limit", "--tile-grid", "--backend", "--per-channel", "--verify", "--runs", "-o"})
        EXPECT_NE(result.output.find(flag), std::string::npos) << flag;
}

}  // namespace
