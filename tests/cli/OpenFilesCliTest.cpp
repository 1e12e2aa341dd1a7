// OpenFilesCliTest.cpp: files open the obvious ways (app/FileArgument.h), through the binary: `hdrlab
// FILE.exr` runs as `hdrlab view FILE.exr`; a scene's name (`--scene tunnel-exit`) or a relative path
// under the data folder (`--scene scenes/tunnel-exit.json`) is found from any working directory; an
// image given as a scene is refused with the command that opens it (it was a JSON syntax error).
#include "cli/CliTestSupport.h"
#include "image/ImageIo.h"

#include <gtest/gtest.h>

#include <cmath>

namespace {

namespace fs = std::filesystem;

TEST(OpenFilesCliTest, AnImageFileNamedAloneOpensAsView)
{
    const fs::path dir = testing_support::scratchDir("cli-open-image");
    image::ImageF image(24, 16);
    for (int y = 0; y < 16; ++y)
        for (int x = 0; x < 24; ++x) {
            float* p = image.at(x, y);
            p[0] = p[1] = p[2] = std::exp2(float(x) / 4.0f);
            p[3] = 1.0f;
        }
    image::writeExr(dir / "photo.exr", image, image::ExrPixelType::Float);
    const auto result = cli_test::runIn(dir, cli_test::hdrlab("--headless --frames 2 photo.exr --screenshot o.png"));
    ASSERT_EQ(result.exitCode, 0) << result.output;
    const image::Image8 shot = image::loadImage8(dir / "o.png", 3);
    EXPECT_EQ(shot.width, 24) << "view runs on the whole image at its own size";
    EXPECT_EQ(shot.height, 16);
}

TEST(OpenFilesCliTest, SceneNamesAndRelativePathsResolveInTheDataFolder)
{
    // The scratch folder has no scenes/: both are found in the data folder beside the executable.
    const fs::path dir = testing_support::scratchDir("cli-open-scene");
    for (const char* scene : {"tunnel-exit", "scenes/tunnel-exit.json"}) {
        const auto result =
            cli_test::runIn(dir, cli_test::hdrlab(std::string("--headless --frames 1 --size 64x36 --scene ") + scene));
        EXPECT_EQ(result.exitCode, 0) << scene << "\n" << result.output;
    }
    const auto missing = cli_test::runIn(dir, cli_test::hdrlab("--headless --frames 1 --scene no-such-scene"));
    EXPECT_NE(missing.exitCode, 0);
    EXPECT_NE(missing.output.find("scene no-such-scene not found; tried"), std::string::npos) << missing.output;
}

TEST(OpenFilesCliTest, AnImageGivenAsASceneSaysHowToOpenIt)
{
    const fs::path dir = testing_support::scratchDir("cli-open-image-as-scene");
    const auto result = cli_test::runIn(dir, cli_test::hdrlab("--headless --frames 1 --scene photo.exr"));
    EXPECT_NE(result.exitCode, 0);
    EXPECT_NE(result.output.find("photo.exr is an image, not a scene: open it with `hdrlab photo.exr`"),
              std::string::npos)
        << result.output;
}

}  // namespace
