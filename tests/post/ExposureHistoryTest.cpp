#include "post/ExposureHistory.h"
#include "post/tonemap/ToneEqualize.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

namespace {

constexpr double kDt = 1.0 / 60.0;

post::ExposureHistory series(const std::vector<float>& evs, double windowSeconds = 100.0)
{
    post::ExposureHistory history(windowSeconds);
    for (std::size_t i = 0; i < evs.size(); ++i)
        history.addFrame(100 + i, double(i) * kDt, kDt * 1000.0);
    for (std::size_t i = 0; i < evs.size(); ++i)
        history.setKeyValue(100 + i, evs[i]);
    return history;
}

TEST(ExposureHistory, ConstantSeriesHasZeroFlicker)
{
    const post::ExposureHistory history = series(std::vector<float>(30, 2.5f));
    ASSERT_TRUE(history.flickerEvPerSecond());
    EXPECT_EQ(*history.flickerEvPerSecond(), 0.0);
    EXPECT_EQ(history.flickerPairs(), 29u);
}

TEST(ExposureHistory, SteadyRampReadsItsRate)
{
    std::vector<float> evs;
    for (int i = 0; i < 61; ++i)
        evs.push_back(float(i * kDt * 3.0));  // 3 EV/s
    const auto flicker = series(evs).flickerEvPerSecond();
    ASSERT_TRUE(flicker);
    EXPECT_NEAR(*flicker, 3.0, 1e-4);
}

TEST(ExposureHistory, AlternatingSeriesGivesKnownRms)
{
    // +-0.1 EV every frame at 60 Hz: every step is 0.2 EV, rate 12 EV/s, RMS 12.
    std::vector<float> evs;
    for (int i = 0; i < 20; ++i)
        evs.push_back(i % 2 == 0 ? 0.1f : -0.1f);
    const auto flicker = series(evs).flickerEvPerSecond();
    ASSERT_TRUE(flicker);
    EXPECT_NEAR(*flicker, 12.0, 1e-4);
    // One step of 0.6 EV among 9 zero steps: sqrt(36^2 / 9) = 12 EV/s.
    std::vector<float> step(10, 0.0f);
    for (std::size_t i = 5; i < step.size(); ++i)
        step[i] = 0.6f;
    EXPECT_NEAR(*series(step).flickerEvPerSecond(), 12.0, 1e-4);
}

TEST(ExposureHistory, MissingKeyValuesBreakPairsAndNoPairGivesNothing)
{
    post::ExposureHistory history(100.0);
    for (std::uint64_t i = 0; i < 4; ++i)
        history.addFrame(i, double(i) * kDt, 16.0);
    EXPECT_FALSE(history.flickerEvPerSecond());
    history.setKeyValue(0, 0.0f);
    history.setKeyValue(1, 1.0f);  // pair 0-1: 60 EV/s
    history.setKeyValue(3, 9.0f);  // frame 2 missing: no pair with 3
    history.setKeyValue(7, 5.0f);  // never added: ignored
    EXPECT_EQ(history.flickerPairs(), 1u);
    EXPECT_NEAR(*history.flickerEvPerSecond(), 60.0, 1e-9);
}

TEST(ExposureHistory, KeepsOnlyTheWindowAndRestartsOnRewind)
{
    post::ExposureHistory history(1.0);
    for (std::uint64_t i = 0; i < 180; ++i)
        history.addFrame(i, double(i) * kDt, 16.0);
    EXPECT_LE(history.frames().size(), 62u);
    EXPECT_GE(history.frames().size(), 60u);
    EXPECT_EQ(history.frames().back().frameIndex, 179u);
    history.addFrame(3, 0.0, 16.0);  // rewound
    ASSERT_EQ(history.frames().size(), 1u);
    EXPECT_EQ(history.frames().front().frameIndex, 3u);
}

TEST(ExposureHistory, FlickerIsTakenWithinShots)
{
    // Two shots, steady within each (0 EV/s), a 5 EV jump at frame 10: only the pair across the cut
    // would flicker, and it is left out once the frame is marked a cut.
    post::ExposureHistory history;
    for (std::uint64_t i = 0; i < 20; ++i) {
        history.addFrame(i, double(i) * kDt, 16.0);
        history.setKeyValue(i, i < 10 ? 1.0f : -4.0f);
    }
    ASSERT_EQ(history.flickerPairs(), 19u);
    EXPECT_GT(*history.flickerEvPerSecond(), 60.0);
    history.markCut(10);
    history.markCut(500);  // not kept: ignored
    EXPECT_EQ(history.cutCount(), 1u);
    EXPECT_EQ(history.flickerPairs(), 18u);
    EXPECT_EQ(*history.flickerEvPerSecond(), 0.0);
}

TEST(CdfMedian, InterpolatesInsideTheBin)
{
    // 4 bins over [-2, 2]: counts 0, 4, 4, 0 -> the median is the edge between bins 1 and 2, log2 0.
    const std::vector<std::uint32_t> cdf{0, 4, 8, 8};
    ASSERT_TRUE(post::cdfMedianLog2(cdf, -2.0f, 2.0f));
    EXPECT_NEAR(*post::cdfMedianLog2(cdf, -2.0f, 2.0f), 0.0f, 1e-6f);
    // All 10 pixels in bin 2 ([0, 1)): half way through it.
    const std::vector<std::uint32_t> one{0, 0, 10, 10};
    EXPECT_NEAR(*post::cdfMedianLog2(one, -2.0f, 2.0f), 0.5f, 1e-6f);
    EXPECT_FALSE(post::cdfMedianLog2(std::vector<std::uint32_t>{0, 0, 0}, -2.0f, 2.0f));
}

}  // namespace
