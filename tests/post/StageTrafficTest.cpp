// StageTrafficTest.cpp: the traffic model `bench pipeline` divides by the copy bandwidth follows the
// frame's format: an RGBA32F frame (sunny scenes, `view`) moves twice the frame bytes of RGBA16F; a
// histogram binned as the scene writes the frame (fused-lighting) reads no frame.
#include "gl/Gl.h"
#include "post/StageTraffic.h"

#include <gtest/gtest.h>

namespace {

TEST(StageTraffic, FrameFormatSetsTheFrameBytes)
{
    EXPECT_EQ(post::frameBytesPerPixelOf(GL_RGBA16F), 8u);
    EXPECT_EQ(post::frameBytesPerPixelOf(GL_RGBA32F), 16u);

    post::TrafficShape half;
    half.frame = {1920, 1080};
    half.histogramImage = {1920, 1080};
    half.bins = 256;
    post::TrafficShape full = half;
    full.frameBytesPerPixel = post::frameBytesPerPixelOf(GL_RGBA32F);

    const std::uint64_t pixels = 1920ull * 1080ull;
    EXPECT_EQ(post::histogramMinimumBytes(half), pixels * 8 + 256 * 4);
    EXPECT_EQ(post::histogramMinimumBytes(full), pixels * 16 + 256 * 4);
    EXPECT_EQ(post::applyMinimumBytes(half), pixels * (8 + 4));
    EXPECT_EQ(post::applyMinimumBytes(full), pixels * (16 + 4));
    EXPECT_EQ(post::autoRangeMinimumBytes(full), pixels * 16);
}

TEST(StageTraffic, AHistogramBinnedInTheSceneReadsNoFrame)
{
    post::TrafficShape fused;
    fused.frame = {1920, 1080};
    fused.histogramImage = {1920, 1080};
    fused.bins = 256;
    fused.histogramInScene = true;
    EXPECT_EQ(post::histogramMinimumBytes(fused), 256u * 4u * 2u);
    EXPECT_EQ(post::autoRangeMinimumBytes(fused), 16u);
    EXPECT_EQ(post::applyMinimumBytes(fused), 1920ull * 1080ull * (8 + 4)) << "apply still reads the frame";
}

}  // namespace
