// The real photographs of ../shared/exr/real (Desk, MtTamWest, CandleGlass and the tiled, mip-mapped
// KernerEnvLatLong) through the hdrlab binary: `tonemap` writes a PNG at the photograph's size that is
// neither mostly black nor mostly white and has real tonal variety, and `view --headless` runs the
// live pipeline on each (histogram verified against the CPU reference) and writes a sane screenshot.
// Skipped when ../shared/exr is absent.
#include "cli/CliTestSupport.h"
#include "image/ImageIo.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace {

namespace fs = std::filesystem;
using cli_test::hdrlab;

std::vector<fs::path> realPhotos()
{
    std::vector<fs::path> photos;
    if (auto exr = testing_support::sharedData("exr"))
        for (const fs::directory_entry& entry : fs::directory_iterator(*exr / "real"))
            if (entry.is_regular_file() && entry.path().extension() == ".exr")
                photos.push_back(entry.path());
    std::sort(photos.begin(), photos.end());
    return photos;
}

// A tone-mapped photograph: most pixels neither clipped black nor clipped white, a mean away from
// both ends, and many distinct colours (a flat or posterised result has few).
void expectSanePicture(const image::Image8& picture, const std::string& what)
{
    ASSERT_GT(picture.width, 0) << what;
    std::size_t black = 0, white = 0;
    double sum = 0.0;
    const std::size_t pixels = std::size_t(picture.width) * std::size_t(picture.height);
    for (int y = 0; y < picture.height; ++y)
        for (int x = 0; x < picture.width; ++x) {
            const std::uint8_t* p = picture.at(x, y);
            int low = std::min({p[0], p[1], p[2]});
            int high = std::max({p[0], p[1], p[2]});
            black += high <= 2 ? 1 : 0;
            white += low >= 253 ? 1 : 0;
            sum += (p[0] + p[1] + p[2]) / 3.0;
        }
    const double mean = sum / double(pixels);
    EXPECT_LT(double(black), 0.5 * double(pixels)) << what << ": mostly black";
    EXPECT_LT(double(white), 0.5 * double(pixels)) << what << ": mostly white";
    EXPECT_GT(mean, 20.0) << what;
    EXPECT_LT(mean, 235.0) << what;
    EXPECT_GE(cli_test::distinctColours(picture, 1000), 1000u) << what << ": too few colours";
}

TEST(RealPhotosCliTest, TonemapWritesASanePngOfEachPhotograph)
{
    const std::vector<fs::path> photos = realPhotos();
    if (photos.empty())
        GTEST_SKIP() << "../shared/exr/real is not available";
    const fs::path dir = testing_support::scratchDir("cli-real-tonemap");
    for (const fs::path& photo : photos) {
        SCOPED_TRACE(photo.filename().string());
        const image::ImageF source = image::loadHdrImage(photo);
        const fs::path out = dir / (photo.stem().string() + ".png");
        auto result =
            cli_test::runIn(dir, hdrlab("tonemap '" + photo.string() + "' -o '" + out.string() + "' --verify"));
        ASSERT_EQ(result.exitCode, 0) << result.output;
        EXPECT_NE(
            result.output.find("tone-mapped " + std::to_string(source.width) + "x" + std::to_string(source.height)),
            std::string::npos)
            << result.output;
        const image::Image8 png = image::loadImage8(out, 3);
        EXPECT_EQ(png.width, source.width);
        EXPECT_EQ(png.height, source.height);
        expectSanePicture(png, out.string());
    }
}

TEST(RealPhotosCliTest, ViewRunsHeadlessOnEachPhotograph)
{
    const std::vector<fs::path> photos = realPhotos();
    if (photos.empty())
        GTEST_SKIP() << "../shared/exr/real is not available";
    const fs::path dir = testing_support::scratchDir("cli-real-view");
    for (const fs::path& photo : photos) {
        SCOPED_TRACE(photo.filename().string());
        const fs::path shot = dir / (photo.stem().string() + "-view.png");
        auto result =
            cli_test::runIn(dir, hdrlab("view '" + photo.string() + "' --headless --frames 4 --verify --screenshot '" +
                                        shot.string() + "'"));
        ASSERT_EQ(result.exitCode, 0) << result.output;
        EXPECT_NE(result.output.find("): ok"), std::string::npos) << "the histogram matches the CPU reference\n"
                                                                  << result.output;
        const image::ImageF source = image::loadHdrImage(photo);
        const image::Image8 png = image::loadImage8(shot, 3);
        EXPECT_EQ(png.width, source.width) << "the view shows the whole photograph at its own size";
        EXPECT_EQ(png.height, source.height);
        expectSanePicture(png, shot.string());
    }
}

}  // namespace
