// StillImageSource (`hdrlab view`) on the test context: the file reaches the texture unchanged and
// bottom-up, the pipeline's histogram of it equals the CPU reference of the file's pixels, a
// dropped file replaces the image (what the window's drop callback calls), and bad files, empty
// images and images beyond the texture limit are refused with a message while the old image stays.
#include "frames/StillImageSource.h"
#include "image/ImageIo.h"
#include "post/PostPipeline.h"
#include "reference/Histogram.h"
#include "support/GlTestEnvironment.h"
#include "support/HistogramTestSupport.h"
#include "support/TestPaths.h"

#include <cmath>
#include <fstream>

namespace ts = testing_support;
namespace fs = std::filesystem;

namespace {

/// A deterministic HDR gradient spanning about 2^-8..2^14 cd/m², different in each row and column.
image::ImageF gradient(int width, int height)
{
    image::ImageF image(width, height);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            float* p = image.at(x, y);
            const float ev = -8.0f + 22.0f * float(x + width * y) / float(width * height);
            p[0] = std::exp2(ev) * (1.0f + 0.1f * float(x % 3));
            p[1] = std::exp2(ev);
            p[2] = std::exp2(ev) * (1.0f + 0.2f * float(y % 2));
            p[3] = 1.0f;
        }
    return image;
}

class StillImageSourceTest : public ts::GlTest
{
protected:
    fs::path dir = ts::scratchDir("still-image");
};

TEST_F(StillImageSourceTest, UploadsTheFileBottomUpAtItsOwnSize)
{
    image::ImageF original = gradient(37, 21);
    image::writeExr(dir / "g.exr", original, image::ExrPixelType::Float);
    app::StillImageSource source(dir / "g.exr", "", ts::testGpuCaps().maxTextureSize);
    EXPECT_EQ(source.size(), glm::ivec2(37, 21));
    EXPECT_EQ(source.name(), "g.exr");
    EXPECT_STREQ(source.kind(), "Image");
    EXPECT_FALSE(source.followsWindowSize());
    std::vector<float> texels = source.hdr().readRgbaFloat();
    ASSERT_EQ(texels.size(), original.pixels.size());
    for (int y = 0; y < 21; ++y)  // texture row 0 is the file's bottom row
        for (int x = 0; x < 37; ++x)
            for (int c = 0; c < 4; ++c)
                ASSERT_EQ(texels[(std::size_t(20 - y) * 37 + std::size_t(x)) * 4 + std::size_t(c)],
                          original.at(x, y)[c])
                    << x << "," << y;
}

TEST_F(StillImageSourceTest, PipelineHistogramEqualsTheCpuReferenceOfTheFile)
{
    image::ImageF original = gradient(61, 43);
    image::writeExr(dir / "h.exr", original, image::ExrPixelType::Float);
    app::StillImageSource source(dir / "h.exr", "", ts::testGpuCaps().maxTextureSize);
    post::PostPipeline pipeline(ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps());
    post::PipelineSettings settings = pipeline.settings();
    settings.spec.binCount = 128;
    settings.rangeMode = post::RangeMode::Manual;
    settings.logMin = -10.0f;
    settings.logMax = 16.0f;
    ASSERT_TRUE(pipeline.applySettings(settings));
    pipeline.run(post::ImageInput{source.hdr(), source.size()}, 1.0 / 60.0, source.verticalFovDegrees());

    const ref::Histogram cpu = ref::buildHistogram(original.pixels.data(), original.width, original.height, -10.0f,
                                                   16.0f, 128, ref::OutOfRange::Clamp);
    const auto words = pipeline.histogramBuffer().readAll<std::uint32_t>(hd::kHistogramBufferWords);
    const std::vector<std::uint32_t> gpu(words.begin(), words.begin() + 128);
    EXPECT_EQ(gpu, cpu.bins);
    EXPECT_EQ(cpu.binTotal(), std::uint64_t(61 * 43));
}

TEST_F(StillImageSourceTest, ADroppedGoodFileReplacesTheImage)
{
    image::writeExr(dir / "first.exr", gradient(16, 8), image::ExrPixelType::Float);
    image::writeExr(dir / "second.exr", gradient(24, 30), image::ExrPixelType::Half);
    app::StillImageSource source(dir / "first.exr", "", ts::testGpuCaps().maxTextureSize);
    app::StillImageSource::ReplaceResult result = source.replaceWith(dir / "second.exr");
    EXPECT_TRUE(result.replaced) << result.message;
    EXPECT_NE(result.message.find("second.exr"), std::string::npos) << result.message;
    EXPECT_EQ(source.size(), glm::ivec2(24, 30));
    EXPECT_EQ(source.hdr().size(), glm::ivec2(24, 30));
    EXPECT_EQ(source.name(), "second.exr");
    EXPECT_TRUE(source.view().fitted);
}

TEST_F(StillImageSourceTest, ADroppedBadFileKeepsTheImageAndSaysWhy)
{
    image::writeExr(dir / "keep.exr", gradient(16, 8), image::ExrPixelType::Float);
    {
        std::ofstream damaged(dir / "damaged.exr", std::ios::binary);
        damaged << "v/1\x01" << std::string(40, '\0');  // the OpenEXR magic number, then nothing sensible
    }
    app::StillImageSource source(dir / "keep.exr", "", ts::testGpuCaps().maxTextureSize);
    const std::vector<float> before = source.hdr().readRgbaFloat();
    for (const fs::path& bad : {dir / "damaged.exr", dir / "missing.exr", dir}) {
        app::StillImageSource::ReplaceResult result = source.replaceWith(bad);
        EXPECT_FALSE(result.replaced) << bad;
        EXPECT_NE(result.message.find(bad.filename().string()), std::string::npos) << result.message;
        EXPECT_NE(result.message.find("still showing keep.exr"), std::string::npos) << result.message;
        EXPECT_EQ(result.message.find('\n'), std::string::npos) << result.message;
        EXPECT_EQ(source.size(), glm::ivec2(16, 8));
        EXPECT_EQ(source.name(), "keep.exr");
    }
    EXPECT_EQ(source.hdr().readRgbaFloat(), before);
}

TEST_F(StillImageSourceTest, RefusesEmptyImagesAndImagesBeyondTheTextureLimit)
{
    try {
        app::uploadStillImage(gradient(40, 10), 32, "wide.exr");
        FAIL() << "an image wider than the limit was uploaded";
    } catch (const std::runtime_error& error) {
        const std::string message = error.what();
        EXPECT_NE(message.find("wide.exr"), std::string::npos) << message;
        EXPECT_NE(message.find("40 x 10"), std::string::npos) << message;
        EXPECT_NE(message.find("32"), std::string::npos) << message;
    }
    EXPECT_THROW(app::uploadStillImage(image::ImageF(), 32, "empty.exr"), std::runtime_error);
    EXPECT_NO_THROW(app::uploadStillImage(gradient(32, 32), 32, "fits.exr"));
}

TEST_F(StillImageSourceTest, AMissingFileIsAOneLineError)
{
    try {
        app::StillImageSource source(dir / "nothing.exr", "", ts::testGpuCaps().maxTextureSize);
        FAIL() << "a missing file was opened";
    } catch (const std::exception& error) {
        const std::string message = error.what();
        EXPECT_NE(message.find("nothing.exr"), std::string::npos) << message;
        EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
}

}  // namespace
