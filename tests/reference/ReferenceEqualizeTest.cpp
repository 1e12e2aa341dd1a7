// Known answers of 8-bit histogram equalization on the CPU reference: Bugetti's / Wikipedia's 8x8
// example (research/algorithms.md 3.1, exact), H1 (a rounding tie, round half up), H3, and H2, which
// only the Gonzalez-Woods variant reproduces.
#include "reference/Equalize8.h"
#include "support/Equalize8Example.h"

#include <gtest/gtest.h>

namespace {

TEST(ReferenceEqualize8, ReproducesTheEightByEightExampleExactly)
{
    const auto& input = testing_support::kEqualizeExampleInput;
    const auto& expected = testing_support::kEqualizeExampleOutput;
    std::vector<std::uint8_t> out = ref::equalize8(input.data(), input.size());
    EXPECT_EQ(out, std::vector<std::uint8_t>(expected.begin(), expected.end()));
}

TEST(ReferenceEqualize8, UniformImageIsUnchanged)
{
    std::vector<std::uint8_t> flat(37, 91);
    EXPECT_EQ(ref::equalize8(flat.data(), flat.size()), flat);
    EXPECT_TRUE(ref::equalize8(nullptr, 0).empty());
}

TEST(ReferenceEqualize8, H1RoundsTheTieHalfUp)
{
    // stats.stackexchange q/19922, L = 8: v = 3 gives (33 - 2) * 7 / 62 = 3.5 -> 4.
    auto levels = ref::equalizationLevels({2, 6, 12, 13, 6, 11, 7, 7}, 8);
    EXPECT_EQ(levels, (std::vector<std::uint32_t>{0, 1, 2, 4, 4, 5, 6, 7}));
}

TEST(ReferenceEqualize8, H3WithEmptyEndLevels)
{
    // ques10 example, N = 1000; levels 0 and 7 hold no pixel, the occupied ones map to 0 1 2 5 7 7.
    auto levels = ref::equalizationLevels({0, 50, 100, 200, 400, 200, 50, 0}, 8);
    const std::vector<std::uint32_t> expected{0, 0, 1, 2, 5, 7, 7};
    EXPECT_EQ(std::vector<std::uint32_t>(levels.begin(), levels.begin() + 7), expected);
}

TEST(ReferenceEqualize8, H2NeedsTheGonzalezWoodsVariant)
{
    // The classic 64x64 3-bit example: round(7 * cdf / N).
    const std::vector<std::uint32_t> counts{790, 1023, 850, 656, 329, 245, 122, 81};
    EXPECT_EQ(ref::equalizationLevels(counts, 8, ref::EqualizeFormula::GonzalezWoods),
              (std::vector<std::uint32_t>{1, 3, 5, 6, 6, 7, 7, 7}));
    // The cdf_min formula gives a different mapping (its first occupied level always maps to 0).
    EXPECT_EQ(ref::equalizationLevels(counts, 8), (std::vector<std::uint32_t>{0, 2, 4, 5, 6, 7, 7, 7}));
}

TEST(ReferenceEqualize8, GonzalezWoodsDiffersOnTheEightByEightExample)
{
    // research/algorithms.md: round(255 * cdf / 64) maps 52 -> 4 and 154 -> 255.
    std::vector<std::uint32_t> counts(256, 0);
    for (std::uint8_t v : testing_support::kEqualizeExampleInput)
        ++counts[v];
    auto levels = ref::equalizationLevels(counts, 256, ref::EqualizeFormula::GonzalezWoods);
    EXPECT_EQ(levels[52], 4u);
    EXPECT_EQ(levels[55], 16u);
    EXPECT_EQ(levels[154], 255u);
}

}  // namespace
