// The shared binning of shared/HostDevice.h on the CPU: hdLog2's accuracy, hdBinScale's correct
// rounding, the special codes, and the edges found by search (tests/support/BinEdges) against the
// real-number edges. Bit-exactness against the GPUs is tested in tests/post/BinningExactnessTest
// (GLSL) and tests/cuda/HistogramCudaTest (CUDA).
#include "shared/HostDevice.h"
#include "support/BinEdges.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <random>

namespace {

TEST(Binning, Log2IsWithinTwoTenthsOfAMicroEvAndExactAtPowersOfTwo)
{
    std::mt19937 random(7);
    double worst = 0.0;
    for (int i = 0; i < 1000000; ++i) {
        const std::uint32_t bits = 0x00800000u + random() % (0x7f800000u - 0x00800000u);  // positive normal floats
        const float value = std::bit_cast<float>(bits);
        const double exact = std::log2(double(value));
        worst = std::max(worst, std::abs(double(hd::hdLog2(value)) - exact) / std::max(1.0, std::abs(exact)));
    }
    EXPECT_LT(worst, 2e-7);
    for (int exponent = -126; exponent <= 127; ++exponent)
        EXPECT_EQ(hd::hdLog2(std::ldexp(1.0f, exponent)), float(exponent)) << exponent;
}

TEST(Binning, Log2IsMonotoneOverFourOctaves)
{
    // Every float in [0.25, 4): all mantissas on both sides of the reduction at 1.5.
    float previous = -std::numeric_limits<float>::infinity();
    for (std::uint32_t bits = 0x3e800000u; bits < 0x40800000u; ++bits) {
        const float value = hd::hdLog2(std::bit_cast<float>(bits));
        ASSERT_GE(value, previous) << std::bit_cast<float>(bits);
        previous = value;
    }
}

TEST(Binning, ScaleIsTheCorrectlyRoundedQuotient)
{
    std::mt19937 random(11);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    int checked = 0;
    for (int i = 0; i < 300000; ++i) {
        const float logMin = std::ldexp(unit(random), int(random() % 40) - 20);
        const float logMax = logMin + std::ldexp(std::abs(unit(random)) + 1e-3f, int(random() % 40) - 20);
        const std::uint32_t bins = 1u + random() % hd::kMaxHistogramBins;
        if (!(logMax > logMin))
            continue;
        ASSERT_EQ(hd::hdBinScale(logMin, logMax, bins), float(bins) / (logMax - logMin))
            << logMin << " " << logMax << " " << bins;
        ++checked;
    }
    EXPECT_GT(checked, 250000);
    EXPECT_EQ(hd::hdBinScale(-4.0f, 4.0f, 8u), 1.0f);
    EXPECT_EQ(hd::hdBinScale(-10.0f, 20.0f, 30u), 1.0f);
}

TEST(Binning, DegenerateRangesPutEveryValidPixelInBinZero)
{
    const float nan = std::numeric_limits<float>::quiet_NaN();
    for (auto [logMin, logMax] :
         {std::pair{1.0f, 1.0f}, {2.0f, 1.0f}, {nan, 1.0f}, {0.0f, nan}, {0.0f, 1e-30f}, {-1e30f, 1e30f}}) {
        EXPECT_EQ(hd::hdBinScale(logMin, logMax, 256u), 0.0f) << logMin << " " << logMax;
        EXPECT_EQ(hd::hdBinOf(1000.0f, logMin, logMax, 256u, hd::kOutOfRangeSeparate), 0);
    }
}

TEST(Binning, SpecialValuesGetTheirCodes)
{
    const float inf = std::numeric_limits<float>::infinity();
    EXPECT_EQ(hd::hdBinOf(std::numeric_limits<float>::quiet_NaN(), -8, 8, 16, 0), hd::kBinNaN);
    EXPECT_EQ(hd::hdBinOf(inf, -8, 8, 16, 0), hd::kBinInf);
    EXPECT_EQ(hd::hdBinOf(-inf, -8, 8, 16, 0), hd::kBinInf);
    EXPECT_EQ(hd::hdBinOf(0.0f, -8, 8, 16, 0), hd::kBinNonPositive);
    EXPECT_EQ(hd::hdBinOf(-1.0f, -8, 8, 16, 0), hd::kBinNonPositive);
    // Denormal luminance counts as non-positive: GPUs flush it to zero.
    EXPECT_EQ(hd::hdBinOf(1e-39f, -200, 8, 16, 0), hd::kBinNonPositive);
    EXPECT_EQ(hd::hdBinOf(hd::kMinLuminance, -200, 8, 16, hd::kOutOfRangeSeparate), 5);  // floor(74 / 13)
    // Channels below 2^-100 are zero, so no product is ever a denormal.
    EXPECT_EQ(hd::hdLuminance(1e-31f, 1e-31f, 1e-31f), 0.0f);
    EXPECT_GT(hd::hdLuminance(1e-30f, 0.0f, 0.0f), 0.0f);
    EXPECT_EQ(hd::hdBinOf(0.5f, -8, 8, 16, hd::kOutOfRangeSeparate), 7);
    EXPECT_EQ(hd::hdBinOf(1e-10f, -8, 8, 16, hd::kOutOfRangeSeparate), hd::kBinBelow);
    EXPECT_EQ(hd::hdBinOf(1e-10f, -8, 8, 16, hd::kOutOfRangeClamp), 0);
    EXPECT_EQ(hd::hdBinOf(1e10f, -8, 8, 16, hd::kOutOfRangeSeparate), hd::kBinAbove);
    EXPECT_EQ(hd::hdBinOf(1e10f, -8, 8, 16, hd::kOutOfRangeClamp), 15);
    EXPECT_EQ(hd::hdBinOf(256.0f, -8, 8, 16, hd::kOutOfRangeSeparate), 15);  // log2 L == logMax: last bin
}

struct RangeCase
{
    float logMin, logMax;
    std::uint32_t bins;
};

TEST(Binning, EdgesFoundBySearchSplitBinsWhereTheRealNumbersSay)
{
    for (RangeCase c : {RangeCase{-10.0f, 20.0f, 256},
                        {-3.3f, 7.77f, 100},
                        {0.1f, 0.35f, 7},
                        {-6.0f, 9.0f, 1},
                        {-6.0f, 9.0f, 3},
                        {-12.0f, 13.0f, 4096},
                        {-90.5f, 120.25f, 1000}}) {
        // (Grey values below 2^-100 EV are zero luminance: kTinyChannel.)
        const std::vector<float> edges = testing_support::greyBinEdges(c.logMin, c.logMax, c.bins);
        ASSERT_EQ(edges.size(), c.bins + 1u);
        const double width = (double(c.logMax) - double(c.logMin)) / c.bins;
        for (std::uint32_t i = 0; i <= c.bins; ++i) {
            const float L = hd::hdLuminance(edges[i], edges[i], edges[i]);
            const float below = std::nextafter(edges[i], 0.0f);
            const int code = hd::hdBinOf(L, c.logMin, c.logMax, c.bins, hd::kOutOfRangeSeparate);
            const int codeBelow =
                hd::hdBinOf(hd::hdLuminance(below, below, below), c.logMin, c.logMax, c.bins, hd::kOutOfRangeSeparate);
            const int wanted = i == c.bins ? hd::kBinAbove : int(i);
            const int wantedBelow = i == 0 ? hd::kBinBelow : int(i) - 1;
            ASSERT_EQ(code, wanted) << "edge " << i << " of " << c.bins;
            ASSERT_EQ(codeBelow, wantedBelow) << "below edge " << i << " of " << c.bins;
            // The edge sits where the real-number edge is, up to float rounding of L, of log2 L and of
            // log2 L - logMin (half an ulp of numbers as large as the range's ends).
            const double realEdge = double(c.logMin) + (i == c.bins ? double(c.logMax) - c.logMin : i * width);
            const double tolerance =
                3e-7 * (1.0 + std::abs(realEdge)) + 2.5e-7 * (std::abs(c.logMin) + std::abs(c.logMax));
            EXPECT_NEAR(std::log2(double(L)), realEdge, tolerance)
                << "edge " << i << " of " << c.bins << " in [" << c.logMin << ", " << c.logMax << "]";
        }
    }
}

// hdBinOfFast must be hdBinOf wherever it answers: a few ulps on both sides of every edge (where
// the fast log2 and the polynomial disagree most often), random luminances over 250 EV, and both
// out-of-range policies; its margin is small for real ranges and "never fast" for degenerate ones.
TEST(Binning, FastBinningGivesTheExactBinAroundEveryEdgeAndElsewhere)
{
    std::mt19937 random(77);
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    std::size_t checked = 0;
    for (RangeCase c : {RangeCase{-10.0f, 20.0f, 256},
                        {-6.49f, 15.51f, 256},
                        {-3.3f, 7.77f, 100},
                        {0.1f, 0.35f, 7},
                        {-6.0f, 9.0f, 1},
                        {-12.0f, 13.0f, 4096},
                        {-90.5f, 120.25f, 1000}}) {
        const float scale = hd::hdBinScale(c.logMin, c.logMax, c.bins);
        const float margin = hd::hdBinFastMargin(c.logMin, c.logMax, scale, c.bins);
        EXPECT_LT(margin, 0.01f) << "[" << c.logMin << ", " << c.logMax << "] " << c.bins << " bins";
        std::vector<float> values;
        for (float edge : testing_support::greyBinEdges(c.logMin, c.logMax, c.bins)) {
            float below = edge, above = edge;
            for (int step = 0; step < 8; ++step) {
                values.push_back(hd::hdLuminance(below, below, below));
                values.push_back(hd::hdLuminance(above, above, above));
                below = std::nextafter(below, 0.0f);
                above = std::nextafter(above, std::numeric_limits<float>::infinity());
            }
        }
        for (int i = 0; i < 20000; ++i)
            values.push_back(std::ldexp(unit(random) + 0.5f, int(random() % 250) - 125));
        for (float special : {0.0f, -1.0f, std::numeric_limits<float>::quiet_NaN(),
                              std::numeric_limits<float>::infinity(), std::numeric_limits<float>::denorm_min()})
            values.push_back(special);
        for (std::uint32_t policy : {hd::kOutOfRangeClamp, hd::kOutOfRangeSeparate})
            for (float L : values) {
                ASSERT_EQ(hd::hdBinOfFast(L, c.logMin, c.logMax, scale, c.bins, policy, margin),
                          hd::hdBinOfScaled(L, c.logMin, c.logMax, scale, c.bins, policy))
                    << "L " << L << " in [" << c.logMin << ", " << c.logMax << "] " << c.bins << " bins";
                ++checked;
            }
    }
    EXPECT_GT(checked, 100000u);
    EXPECT_EQ(hd::hdBinFastMargin(1.0f, 1.0f, 0.0f, 256), 2.0f);  // degenerate range
    // 4096 bins over 1/8 EV far from 0 EV: a bin is narrower than the two log2s' possible difference.
    EXPECT_EQ(hd::hdBinFastMargin(100.0f, 100.125f, hd::hdBinScale(100.0f, 100.125f, 4096), 4096), 2.0f);
}

}  // namespace
