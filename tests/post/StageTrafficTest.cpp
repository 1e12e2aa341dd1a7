// StageTrafficTest.cpp: the traffic model `bench pipeline` prices at the measured read and write rates
// follows the frame's format (an RGBA32F frame (sunny scenes, `view`) moves twice the frame bytes of
// RGBA16F) and splits every stage's bytes into what it reads and what it writes; a histogram binned as the
// scene writes the frame (fused-lighting) reads no frame.
#include "gl/Gl.h"
#include "post/StageTraffic.h"

#include <gtest/gtest.h>

namespace {

post::TrafficShape shape1080(unsigned format)
{
    post::TrafficShape shape;
    shape.frame = {1920, 1080};
    shape.histogramImage = {1920, 1080};
    shape.bins = 256;
    shape.frameBytesPerPixel = post::frameBytesPerPixelOf(format);
    return shape;
}

TEST(StageTraffic, FrameFormatSetsTheFrameBytes)
{
    EXPECT_EQ(post::frameBytesPerPixelOf(GL_RGBA16F), 8u);
    EXPECT_EQ(post::frameBytesPerPixelOf(GL_RGBA32F), 16u);

    const post::TrafficShape half = shape1080(GL_RGBA16F);
    const post::TrafficShape full = shape1080(GL_RGBA32F);
    const std::uint64_t pixels = 1920ull * 1080ull;
    EXPECT_EQ(post::histogramMinimumTraffic(half).total(), pixels * 8 + 256 * 4);
    EXPECT_EQ(post::histogramMinimumTraffic(full).total(), pixels * 16 + 256 * 4);
    EXPECT_EQ(post::applyMinimumTraffic(half).total(), pixels * (8 + 4));
    EXPECT_EQ(post::applyMinimumTraffic(full).total(), pixels * (16 + 4));
    EXPECT_EQ(post::autoRangeMinimumTraffic(full).total(), pixels * 16);
    EXPECT_EQ(post::sceneMinimumTraffic(full).total(), pixels * 16);
}

TEST(StageTraffic, EachStageSplitsItsBytesIntoReadAndWritten)
{
    const post::TrafficShape shape = shape1080(GL_RGBA32F);
    const std::uint64_t pixels = 1920ull * 1080ull;
    EXPECT_EQ(post::sceneMinimumTraffic(shape), (post::Traffic{0, pixels * 16}));  // the frame written
    EXPECT_EQ(post::autoRangeMinimumTraffic(shape), (post::Traffic{pixels * 16, 0}));
    EXPECT_EQ(post::histogramMinimumTraffic(shape), (post::Traffic{pixels * 16, 256 * 4}));
    EXPECT_EQ(post::scanMinimumTraffic(shape), (post::Traffic{256 * 4, 256 * 4}));
    EXPECT_EQ(post::applyMinimumTraffic(shape), (post::Traffic{pixels * 16, pixels * 4}));

    // A downsampled histogram image reads fewer pixels; apply still reads the whole frame.
    post::TrafficShape small = shape;
    small.histogramImage = {480, 270};
    EXPECT_EQ(post::histogramMinimumTraffic(small).readBytes, 480ull * 270ull * 16);
    EXPECT_EQ(post::applyMinimumTraffic(small).readBytes, pixels * 16);
}

TEST(StageTraffic, TrafficAddsAndScalesPerDirection)
{
    post::Traffic sum = post::Traffic{10, 1} + post::Traffic{5, 7};
    EXPECT_EQ(sum, (post::Traffic{15, 8}));
    EXPECT_EQ(3 * sum, (post::Traffic{45, 24}));
    EXPECT_EQ(sum.total(), 23u);
    EXPECT_TRUE(post::Traffic{}.empty());
    EXPECT_FALSE(sum.empty());
}

TEST(StageTraffic, AHistogramBinnedInTheSceneReadsNoFrame)
{
    post::TrafficShape fused;
    fused.frame = {1920, 1080};
    fused.histogramImage = {1920, 1080};
    fused.bins = 256;
    fused.histogramInScene = true;
    const post::Traffic histogram = post::histogramMinimumTraffic(fused);
    EXPECT_EQ(histogram.readBytes, 256u * 4u) << "the scene's bins";
    EXPECT_EQ(histogram.writeBytes, 256u * 4u);
    const post::Traffic range = post::autoRangeMinimumTraffic(fused);
    EXPECT_EQ(range.readBytes, 8u) << "the scene's min and max";
    EXPECT_EQ(range.writeBytes, 8u);
    const post::Traffic apply = post::applyMinimumTraffic(fused);
    EXPECT_EQ(apply.readBytes, 1920ull * 1080ull * 8) << "apply still reads the frame";
    EXPECT_EQ(apply.writeBytes, 1920ull * 1080ull * 4);
}

}  // namespace
