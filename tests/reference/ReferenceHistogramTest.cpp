// CPU reference self-checks on hand-computed inputs: binning (edges, ends, NaN/Inf/<=0, both
// out-of-range policies), the automatic range, the inclusive scan and the histogram comparison.
#include "reference/Histogram.h"
#include "reference/Scan.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

/// RGBA pixels whose channels are all `values[i]` / (weight sum), so L == values[i] (up to rounding).
std::vector<float> greyPixels(const std::vector<float>& luminances)
{
    std::vector<float> rgba;
    for (float L : luminances) {
        // R = G = B = L gives luminance L * (0.2126 + 0.7152 + 0.0722) = L (weights sum to 1).
        rgba.insert(rgba.end(), {L, L, L, 1.0f});
    }
    return rgba;
}

TEST(ReferenceHistogram, BinsLog2LuminanceWithHalfOpenBinsAndClosedLastBin)
{
    // Range [0, 4] EV, 4 bins of 1 EV: L = 1 -> bin 0 (left edge), 1.9 -> 0, 2 -> 1, 7.9 -> 2, 8 -> 3,
    // 16 -> 3 (right end, closed).
    const auto rgba = greyPixels({1.0f, 1.9f, 2.0f, 7.9f, 8.0f, 16.0f});
    ref::Histogram h = ref::buildHistogram(rgba.data(), 6, 1, 0.0f, 4.0f, 4, ref::OutOfRange::Clamp);
    EXPECT_EQ(h.bins, (std::vector<std::uint32_t>{2, 1, 1, 2}));
    EXPECT_EQ(h.total(), 6u);
}

TEST(ReferenceHistogram, CountsNaNInfAndNonPositiveSeparately)
{
    const auto rgba = greyPixels({kNaN, kInf, -kInf, -1.0f, 0.0f, -0.0f, 4.0f});
    ref::Histogram h = ref::buildHistogram(rgba.data(), 7, 1, 0.0f, 4.0f, 4, ref::OutOfRange::Clamp);
    EXPECT_EQ(h.counters[hd::kCounterNaN], 1u);
    EXPECT_EQ(h.counters[hd::kCounterInf], 2u);
    EXPECT_EQ(h.counters[hd::kCounterNonPositive], 3u);
    EXPECT_EQ(h.bins, (std::vector<std::uint32_t>{0, 0, 1, 0}));
    EXPECT_EQ(h.total(), 7u);
}

TEST(ReferenceHistogram, OutOfRangePoliciesClampOrCountSeparately)
{
    // 0.25 (-2 EV) and 64 (6 EV) lie outside [0, 4].
    const auto rgba = greyPixels({0.25f, 64.0f, 64.0f, 3.0f});
    ref::Histogram clamped = ref::buildHistogram(rgba.data(), 4, 1, 0.0f, 4.0f, 4, ref::OutOfRange::Clamp);
    EXPECT_EQ(clamped.bins, (std::vector<std::uint32_t>{1, 1, 0, 2}));
    EXPECT_EQ(clamped.counters[hd::kCounterBelow] + clamped.counters[hd::kCounterAbove], 0u);
    ref::Histogram separate = ref::buildHistogram(rgba.data(), 4, 1, 0.0f, 4.0f, 4, ref::OutOfRange::Separate);
    EXPECT_EQ(separate.bins, (std::vector<std::uint32_t>{0, 1, 0, 0}));
    EXPECT_EQ(separate.counters[hd::kCounterBelow], 1u);
    EXPECT_EQ(separate.counters[hd::kCounterAbove], 2u);
    EXPECT_EQ(separate.total(), 4u);
}

TEST(ReferenceHistogram, OneBinHoldsEveryValidPixel)
{
    const auto rgba = greyPixels({0.001f, 1.0f, 1e6f, kNaN});
    ref::Histogram h = ref::buildHistogram(rgba.data(), 4, 1, -10.0f, 20.0f, 1, ref::OutOfRange::Clamp);
    EXPECT_EQ(h.bins, (std::vector<std::uint32_t>{3}));
    EXPECT_EQ(h.counters[hd::kCounterNaN], 1u);
}

TEST(ReferenceHistogram, DegenerateRangeIsDefined)
{
    const auto rgba = greyPixels({1.0f, 2.0f});
    ref::Histogram h = ref::buildHistogram(rgba.data(), 2, 1, 1.0f, 1.0f, 8, ref::OutOfRange::Clamp);
    EXPECT_EQ(h.bins[0], 2u);
}

TEST(ReferenceHistogram, AutoRangeIgnoresNaNInfAndNonPositive)
{
    const auto rgba = greyPixels({kNaN, 0.5f, kInf, 0.0f, -3.0f, 8.0f, 2.0f});
    auto range = ref::autoRange(rgba.data(), 7, 1);
    ASSERT_TRUE(range);
    EXPECT_FLOAT_EQ(range->logMin, -1.0f);
    EXPECT_FLOAT_EQ(range->logMax, 3.0f);
    const auto empty = greyPixels({kNaN, 0.0f, -kInf});
    EXPECT_FALSE(ref::autoRange(empty.data(), 3, 1));
}

TEST(ReferenceScan, InclusiveScanOfTheGpuGemsExample)
{
    // GPU Gems 3 ch. 39: exclusive scan of [3 1 7 0 4 1 6 3] is [0 3 4 11 11 15 16 22].
    EXPECT_EQ(ref::inclusiveScan({3, 1, 7, 0, 4, 1, 6, 3}), (std::vector<std::uint32_t>{3, 4, 11, 11, 15, 16, 22, 25}));
    EXPECT_EQ(ref::inclusiveScan({}), std::vector<std::uint32_t>{});
    EXPECT_EQ(ref::inclusiveScan({7}), std::vector<std::uint32_t>{7});
}

TEST(ReferenceHistogram, ComparisonAcceptsOnlyMovesExplainedByPixelsNearEdges)
{
    ref::Histogram cpu;
    cpu.bins = {4, 4, 4, 4};
    const std::uint32_t counters[hd::kCounterCount] = {};
    // One pixel moved from bin 1 to bin 2 across edge 2 (between bins 1 and 2).
    std::vector<std::uint32_t> nearEdges{0, 0, 1, 0, 0};
    auto moved = ref::compareHistograms({4, 3, 5, 4}, counters, cpu, nearEdges);
    EXPECT_TRUE(moved.onlyNeighbourMoves);
    EXPECT_EQ(moved.l1Difference, 2u);
    EXPECT_EQ(moved.maxBinDifference, 1u);
    // The same move without a pixel near that edge, and a jump over a bin, are not explained.
    EXPECT_FALSE(ref::compareHistograms({4, 3, 5, 4}, counters, cpu, {0, 0, 0, 0, 0}).onlyNeighbourMoves);
    EXPECT_FALSE(ref::compareHistograms({3, 4, 5, 4}, counters, cpu, {0, 0, 1, 0, 0}).onlyNeighbourMoves);
    EXPECT_TRUE(ref::compareHistograms({4, 4, 4, 4}, counters, cpu, nearEdges).exact());
}

TEST(ReferenceHistogram, NearEdgeCountFindsPixelsOnBinEdges)
{
    // Range [0, 4], 4 bins: L = 2 sits on edge 1, L = 3 in the middle of bin 1.
    const auto rgba = greyPixels({2.0f, 3.0f});
    auto near = ref::countNearEdges(rgba.data(), 2, 1, 0.0f, 4.0f, 4, 1e-3);
    EXPECT_EQ(near, (std::vector<std::uint32_t>{0, 1, 0, 0, 0}));
}

}  // namespace
