// CPU reference of histogram equalization: the cdf_min formula on small known histograms (H1, the
// 8x8 example of Bugetti / Wikipedia), the uniform and empty cases, the encoded-output option.
#include "reference/ToneEqualizeRef.h"
#include "support/Equalize8Example.h"

#include <gtest/gtest.h>

#include <cmath>

namespace {

int roundHalfUp(double v)
{
    return int(std::floor(v + 0.5));
}

TEST(ToneEqualizeRef, CdfMinFormulaOnTheStackExchangeExample)
{
    // H1: counts [2, 6, 12, 13, 6, 11, 7, 7], L = 8 -> [0, 1, 2, 4, 4, 5, 6, 7] (3.5 rounds up).
    const std::vector<std::uint32_t> bins = {2, 6, 12, 13, 6, 11, 7, 7};
    const std::vector<float> curve = ref::equalizeCurve(bins);
    const std::vector<int> expected = {0, 1, 2, 4, 4, 5, 6, 7};
    const std::vector<double> cdf = {2, 8, 20, 33, 39, 50, 57, 64};
    for (std::size_t i = 0; i < bins.size(); ++i) {
        EXPECT_NEAR(curve[i], (cdf[i] - 2.0) / 62.0, 1e-7);
        EXPECT_EQ(roundHalfUp(curve[i] * 7.0), expected[i]) << i;
    }
}

TEST(ToneEqualizeRef, ReproducesTheEightByEightExample)
{
    std::vector<std::uint32_t> bins(256, 0u);
    for (std::uint8_t v : testing_support::kEqualizeExampleInput)
        ++bins[v];
    const std::vector<float> curve = ref::equalizeCurve(bins);
    for (std::size_t p = 0; p < 64; ++p) {
        const std::uint8_t in = testing_support::kEqualizeExampleInput[p];
        EXPECT_EQ(roundHalfUp(curve[in] * 255.0), testing_support::kEqualizeExampleOutput[p]) << "pixel " << p;
    }
    EXPECT_EQ(curve[0], 0.0f);    // below the first occupied bin
    EXPECT_EQ(curve[52], 0.0f);   // the first occupied bin
    EXPECT_EQ(curve[154], 1.0f);  // the last
    EXPECT_EQ(curve[255], 1.0f);
}

TEST(ToneEqualizeRef, UniformAndEmptyHistogramsGiveMidRange)
{
    std::vector<std::uint32_t> bins(64, 0u);
    EXPECT_EQ(ref::equalizeCurve(bins), std::vector<float>(64, post::kEqualizeDegenerateValue));
    bins[17] = 1000;
    EXPECT_EQ(ref::equalizeCurve(bins), std::vector<float>(64, post::kEqualizeDegenerateValue));
    bins[18] = 1;
    const auto two = ref::equalizeCurve(bins);
    EXPECT_EQ(two[17], 0.0f);
    EXPECT_EQ(two[18], 1.0f);
}

TEST(ToneEqualizeRef, EncodedOutputDecodesTheLevel)
{
    const std::vector<std::uint32_t> bins = {1, 1, 1, 1, 1};
    const auto linear = ref::equalizeCurve(bins, false);
    const auto encoded = ref::equalizeCurve(bins, true);
    EXPECT_NEAR(linear[2], 0.5, 1e-7);
    EXPECT_NEAR(encoded[2], std::pow((0.5 + 0.055) / 1.055, 2.4), 1e-7);
    EXPECT_EQ(encoded[0], 0.0f);
    EXPECT_EQ(encoded[4], 1.0f);
}

}  // namespace
