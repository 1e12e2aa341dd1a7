// TevFrameSource (--listen) on the test context: tiles a client streams in several channel layouts
// become the frame the pipeline reads (hdr(), bottom-up) pixel for pixel; only a changed image is
// uploaded; several images are listed and chosen; a client's grab-focus switches; closing the
// image shown falls back to another, and the last one to the waiting frame.
#include "TevTestClient.h"

#include "frames/TevFrameSource.h"
#include "post/PostPipeline.h"
#include "support/GlTestEnvironment.h"
#include "support/HistogramTestSupport.h"
#include "util/Log.h"

#include <chrono>
#include <thread>

namespace ts = testing_support;

namespace {

using namespace std::chrono_literals;

float value(int c, int x, int y)
{
    return float(1000 * c + 10 * y + x) + 0.5f;
}

std::vector<float> plane(int c, int x0, int y0, int w, int h)
{
    std::vector<float> v;
    for (int y = y0; y < y0 + h; ++y)
        for (int x = x0; x < x0 + w; ++x)
            v.push_back(value(c, x, y));
    return v;
}

class TevFrameSourceTest : public ts::GlTest
{
protected:
    app::TevFrameSource source{net::ListenAddress{"127.0.0.1", 0}, ts::testGpuCaps().maxTextureSize};

    /// Updates the source until `done()` (or five seconds), as the frame loop does once a frame.
    template <typename Done>
    bool updateUntil(Done done)
    {
        const auto deadline = std::chrono::steady_clock::now() + 5s;
        for (;;) {
            source.update(app::FrameSourceInput{});
            if (done())
                return true;
            if (std::chrono::steady_clock::now() > deadline)
                return false;
            std::this_thread::sleep_for(5ms);
        }
    }

    /// The frame the pipeline reads, compared with `sourceChannels` of value(); row 0 of the
    /// texture is the image's bottom row.
    void expectFrame(int width, int height, std::array<int, 3> sourceChannels)
    {
        ASSERT_EQ(source.size(), glm::ivec2(width, height));
        const std::vector<float> texels = source.hdr().readRgbaFloat();
        for (int y = 0; y < height; ++y)
            for (int x = 0; x < width; ++x) {
                const float* t = &texels[(std::size_t(height - 1 - y) * std::size_t(width) + std::size_t(x)) * 4];
                for (int c = 0; c < 3; ++c)
                    ASSERT_EQ(t[c], value(sourceChannels[std::size_t(c)], x, y)) << x << "," << y << " c" << c;
                ASSERT_EQ(t[3], 1.0f);
            }
    }
};

TEST_F(TevFrameSourceTest, WaitsWithABlackFrame)
{
    EXPECT_EQ(source.size(), glm::ivec2(64, 64));
    EXPECT_NE(source.name().find("waiting on 127.0.0.1:"), std::string::npos);
    EXPECT_FALSE(source.waitForFirstImage(50ms, 10ms));
    EXPECT_TRUE(source.pictureChoices().empty());
}

TEST_F(TevFrameSourceTest, TilesInEveryLayoutReachTheFramePixelForPixel)
{
    tev_test::Connection client(source.server().port());
    const int w = 45, h = 30;
    ASSERT_TRUE(client.send(tev_test::createImage("render", w, h, {"R", "G", "B", "A"})));
    // Rows 0..9: one channel a packet (UpdateImage); 10..19: planes (V2); 20..29: interleaved (V3).
    for (int c = 0; c < 3; ++c)
        ASSERT_TRUE(client.send(
            tev_test::updateImageV1("render", "RGB"[c] + std::string(), 0, 0, w, 10, plane(c, 0, 0, w, 10))));
    ASSERT_TRUE(
        client.send(tev_test::updateImageV2("render", {"B", "G", "R"}, 0, 10, w, 10,
                                            {plane(2, 0, 10, w, 10), plane(1, 0, 10, w, 10), plane(0, 0, 10, w, 10)})));
    std::vector<float> interleaved;
    for (int y = 20; y < 30; ++y)
        for (int x = 0; x < w; ++x)
            for (int c = 0; c < 3; ++c)
                interleaved.push_back(value(c, x, y));
    ASSERT_TRUE(client.send(tev_test::updateImageV3Interleaved("render", {"R", "G", "B"}, 0, 20, w, 10, interleaved)));
    ASSERT_TRUE(updateUntil([&] { return source.server().packetsApplied() == 6 && source.uploads() > 0; }));
    source.update(app::FrameSourceInput{});  // the last packet's version
    expectFrame(w, h, {0, 1, 2});
    EXPECT_EQ(source.name(), "render");
    EXPECT_NE(source.description().find("R G B"), std::string::npos) << source.description();

    // Nothing new: nothing uploaded.
    const std::uint64_t uploads = source.uploads();
    for (int i = 0; i < 5; ++i)
        source.update(app::FrameSourceInput{});
    EXPECT_EQ(source.uploads(), uploads);

    // The pipeline runs on it.
    post::PostPipeline pipeline(ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps());
    pipeline.run({source.hdr(), source.size(), 0}, 1.0 / 60.0, source.verticalFovDegrees());
    ts::expectNoGlErrors("pipeline on the tev frame");
}

TEST_F(TevFrameSourceTest, SeveralImagesAreListedAndChosen)
{
    tev_test::Connection client(source.server().port());
    ASSERT_TRUE(client.send(tev_test::createImage("first", 4, 3, {"Y"})));
    ASSERT_TRUE(client.send(tev_test::updateImageV1("first", "Y", 0, 0, 4, 3, plane(0, 0, 0, 4, 3))));
    ASSERT_TRUE(client.send(tev_test::createImage("second", 5, 2, {"R", "G", "B"}, false)));
    ASSERT_TRUE(updateUntil([&] { return source.pictureChoices().size() == 2; }));
    EXPECT_EQ(source.pictureChoices(), (std::vector<std::string>{"first", "second"}));
    EXPECT_EQ(source.size(), glm::ivec2(5, 2));  // a new image is shown
    source.choosePicture(0);
    EXPECT_EQ(source.chosenPicture(), 0);
    expectFrame(4, 3, {0, 0, 0});  // one channel: grey
    source.choosePicture(7);       // out of range: ignored
    EXPECT_EQ(source.chosenPicture(), 0);
    ASSERT_TRUE(client.send(tev_test::closeImage("first")));
    ASSERT_TRUE(updateUntil([&] { return source.pictureChoices().size() == 1; }));
    EXPECT_EQ(source.name(), "second");
    ASSERT_TRUE(client.send(tev_test::closeImage("second")));
    ASSERT_TRUE(updateUntil([&] { return source.pictureChoices().empty(); }));
    EXPECT_EQ(source.size(), glm::ivec2(64, 64));
}

TEST_F(TevFrameSourceTest, HeadlessWaitTakesTheWholeStream)
{
    std::thread sender([port = source.server().port()] {
        tev_test::Connection client(port);
        client.send(tev_test::createImage("slow", 8, 8, {"R", "G", "B"}));
        for (int c = 0; c < 3; ++c) {
            std::this_thread::sleep_for(30ms);
            client.send(tev_test::updateImageV1("slow", "RGB"[c] + std::string(), 0, 0, 8, 8, plane(c, 0, 0, 8, 8)));
        }
    });
    ASSERT_TRUE(source.waitForFirstImage(10s, 200ms));
    sender.join();
    expectFrame(8, 8, {0, 1, 2});
}

}  // namespace
