// HistogramDifferenceTest.cpp: the split view's histogram difference (post/HistogramDifference):
// zero for identical histograms, max and L1 of a known difference, and "not comparable" (with the
// reason) for snapshots of different frames, bin counts or ranges.
#include "post/HistogramDifference.h"

#include <gtest/gtest.h>

namespace {

post::HistogramSnapshot snapshot(std::vector<std::uint32_t> bins, std::uint64_t frame = 7)
{
    post::HistogramSnapshot s;
    s.frame = frame;
    s.binCount = std::uint32_t(bins.size());
    s.logMin = -10.0f;
    s.logMax = 20.0f;
    s.bins = std::move(bins);
    return s;
}

TEST(HistogramDifference, IdenticalHistogramsGiveZero)
{
    const auto a = snapshot({5, 0, 9, 1});
    const post::HistogramDifference d = post::histogramDifference(a, a);
    ASSERT_TRUE(d.comparable) << d.reason;
    EXPECT_EQ(d.maxAbs, 0u);
    EXPECT_EQ(d.l1, 0u);
    EXPECT_EQ(d.diff, (std::vector<std::int64_t>{0, 0, 0, 0}));
    EXPECT_EQ(post::describeHistogramDifference(d), "A-B (frame 7): max |bin diff| 0, L1 0");
}

TEST(HistogramDifference, KnownDifference)
{
    const post::HistogramDifference d = post::histogramDifference(snapshot({5, 0, 9, 1}), snapshot({2, 4, 9, 0}));
    ASSERT_TRUE(d.comparable);
    EXPECT_EQ(d.diff, (std::vector<std::int64_t>{3, -4, 0, 1}));
    EXPECT_EQ(d.maxAbs, 4u);
    EXPECT_EQ(d.l1, 8u);
}

TEST(HistogramDifference, DifferentFramesBinsOrRangesAreNotComparable)
{
    const auto a = snapshot({5, 0, 9, 1});
    post::HistogramDifference d = post::histogramDifference(a, snapshot({5, 0, 9, 1}, 8));
    EXPECT_FALSE(d.comparable);
    EXPECT_EQ(d.reason, "different frames: 7 vs 8");
    d = post::histogramDifference(a, snapshot({5, 0, 9}));
    EXPECT_FALSE(d.comparable);
    EXPECT_EQ(post::describeHistogramDifference(d), "A-B: not comparable, different bins: 4 vs 3");
    auto shifted = a;
    shifted.logMax = 16.0f;
    d = post::histogramDifference(a, shifted);
    EXPECT_FALSE(d.comparable);
    EXPECT_NE(d.reason.find("different ranges"), std::string::npos) << d.reason;
    EXPECT_TRUE(d.diff.empty());
}

}  // namespace
