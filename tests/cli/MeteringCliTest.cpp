// MeteringCliTest.cpp: metering masks from the command line: `tonemap --view metering` with a texture
// mask writes the tone-mapped image scaled by the CPU formula (ref::meteringViewPixel); a headless
// scene run with sky exclusion tints the sky; a missing mask file and sky exclusion on a still image
// give one clear line each.
#include "cli/CliTestSupport.h"
#include "image/ImageIo.h"
#include "reference/Metering.h"
#include "shared/HostDevice.h"

#include <gtest/gtest.h>

namespace {

namespace fs = std::filesystem;
using cli_test::hdrlab;
using cli_test::lines;

TEST(MeteringCli, TonemapMeteringViewScalesTheToneMappedImageByTheMaskWeights)
{
    const fs::path dir = testing_support::scratchDir("cli-metering");
    image::ImageF input(64, 32);
    for (int y = 0; y < input.height; ++y)
        for (int x = 0; x < input.width; ++x)
            for (int c = 0; c < 3; ++c)
                input.at(x, y)[c] = std::exp2(float(x % 16) - 4.0f + 0.25f * float(c));
    image::writeExr(dir / "in.exr", input, image::ExrPixelType::Float);
    image::Image8 mask(4, 1, 1);  // four vertical stripes: weights 0, 1/3, 2/3 and 1 (value / 255)
    mask.pixels = {0, 85, 170, 255};
    image::writePng(dir / "mask.png", mask);
    const std::string common = "tonemap '" + (dir / "in.exr").string() +
                               "' --set tonemap.operator=percentile --set percentile.metering_mask=texture "
                               "--set percentile.mask_texture='" +
                               (dir / "mask.png").string() + "'";
    const auto toned = testing_support::runCommand(hdrlab(common + " -o '" + (dir / "tm.png").string() + "'"));
    ASSERT_EQ(toned.exitCode, 0) << toned.output;
    const auto view =
        testing_support::runCommand(hdrlab(common + " --view metering -o '" + (dir / "mv.png").string() + "'"));
    ASSERT_EQ(view.exitCode, 0) << view.output;
    EXPECT_NE(view.output.find("(metering weights view)"), std::string::npos) << view.output;

    const image::Image8 tm = image::loadImage8(dir / "tm.png", 4);
    const image::Image8 mv = image::loadImage8(dir / "mv.png", 4);
    int worst = 0;
    for (int x = 0; x < 64; ++x) {
        const std::uint32_t q = hd::hdQuantiseMeteringWeight(float(mask.pixels[std::size_t(x / 16)]) / 255.0f);
        const auto expected = ref::meteringViewPixel(tm.at(x, 5), q);
        for (int c = 0; c < 3; ++c)
            worst = std::max(worst, std::abs(int(expected[std::size_t(c)]) - int(mv.at(x, 5)[c])));
    }
    EXPECT_LE(worst, 1);
    EXPECT_NE(tm.pixels, mv.pixels);
}

TEST(MeteringCli, HeadlessSkyExclusionTintsTheSkyAndBadInputGivesOneLine)
{
    const fs::path dir = testing_support::scratchDir("cli-metering-sky");
    const auto run = testing_support::runCommand(
        hdrlab("--headless --scene '" + (testing_support::sourceDir() / "scenes" / "sunset-street.json").string() +
               "' --size 160x90 --frames 3 --set tonemap.operator=percentile --set percentile.exclude_sky=true "
               "--view metering --screenshot '" +
               (dir / "sky.png").string() + "'"));
    ASSERT_EQ(run.exitCode, 0) << run.output;
    const image::Image8 shot = image::loadImage8(dir / "sky.png", 3);
    int tinted = 0;
    for (int y = 0; y < shot.height; ++y)
        for (int x = 0; x < shot.width; ++x) {
            const std::uint8_t* p = shot.at(x, y);
            tinted += p[2] >= 127 && p[2] > p[0] + 60 && p[2] > p[1] + 40;  // 0.5 * (0.1, 0.3, 1.0) and up
        }
    EXPECT_GT(tinted, shot.width * shot.height / 20) << "the street's sky is excluded and tinted blue";

    const auto missing = testing_support::runCommand(
        hdrlab("--headless --frames 1 --set percentile.mask_texture=/nonexistent/weights.exr"));
    EXPECT_EQ(missing.exitCode, 2) << missing.output;
    ASSERT_FALSE(lines(missing.output).empty());
    EXPECT_NE(lines(missing.output).back().find("percentile.mask_texture: cannot read '/nonexistent/weights.exr'"),
              std::string::npos)
        << missing.output;

    image::writeExr(dir / "still.exr", image::ImageF(16, 8), image::ExrPixelType::Float);
    const auto still = testing_support::runCommand(
        hdrlab("tonemap '" + (dir / "still.exr").string() + "' -o '" + (dir / "o.png").string() +
               "' --set tonemap.operator=percentile --set percentile.exclude_sky=true"));
    EXPECT_EQ(still.exitCode, 0) << still.output;
    EXPECT_NE(still.output.find("note: metering: sky exclusion off: no scene depth"), std::string::npos)
        << still.output;
}

}  // namespace
