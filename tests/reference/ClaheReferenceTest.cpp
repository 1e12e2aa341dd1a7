// The CLAHE reference's steps on known answers (the oracle test checks the whole against OpenCV):
// the geometry's padding rule, the clip limit, the residual step, the LUT rounding and the blend.
#include "reference/Clahe.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

namespace {

TEST(ClaheGeometry, PadsBothSidesWhenOnlyOneDoesNotDivide)
{
    // 1920 divides by 16, 1081 does not: both get tiles - size % tiles, so tw = (1920 + 16) / 16.
    const hd::ClaheGeometry g = hd::claheGeometry(1920, 1081, 16, 16, 40.0, 256);
    EXPECT_EQ(g.paddedWidth, 1936);
    EXPECT_EQ(g.paddedHeight, 1088);
    EXPECT_EQ(g.tileWidth, 121);
    EXPECT_EQ(g.tileHeight, 68);
    const hd::ClaheGeometry even = hd::claheGeometry(1920, 1080, 8, 8, 40.0, 256);
    EXPECT_EQ(even.paddedWidth, 1920);
    EXPECT_EQ(even.tileWidth, 240);
    EXPECT_EQ(even.tileHeight, 135);
}

TEST(ClaheGeometry, ClipLimitIsTruncatedAndAtLeastOne)
{
    EXPECT_EQ(hd::claheGeometry(1920, 1080, 8, 8, 40.0, 256).clipLimit, int(40.0 * 240 * 135 / 256));
    EXPECT_EQ(hd::claheGeometry(16, 16, 8, 8, 0.5, 256).clipLimit, 1);          // 0.5 * 4 / 256 truncates to 0
    EXPECT_EQ(hd::claheGeometry(16, 16, 8, 8, 0.0, 256).clipLimit, 0);          // no clipping
    EXPECT_EQ(hd::claheGeometry(64, 64, 1, 1, 1e300, 256).clipLimit, 64 * 64);  // clips nothing
    EXPECT_FLOAT_EQ(hd::claheGeometry(64, 64, 1, 1, 40.0, 256).lutScale, 255.0f / 4096.0f);
}

TEST(ClaheSteps, Reflect101)
{
    EXPECT_EQ(hd::hdClaheReflect101(-1, 5), 1);
    EXPECT_EQ(hd::hdClaheReflect101(5, 5), 3);
    EXPECT_EQ(hd::hdClaheReflect101(9, 5), 1);
    EXPECT_EQ(hd::hdClaheReflect101(12, 5), 4);  // twice reflected: 12 -> -4 -> 4
    EXPECT_EQ(hd::hdClaheReflect101(63, 1), 0);
    EXPECT_EQ(hd::hdClaheReflect101(3, 2), 1);
}

TEST(ClaheSteps, ResidualGoesToEveryStepthBinWhileAnyIsLeft)
{
    // 256 bins, 3 residual counts: step 85, bins 0, 85 and 170 get one more.
    constexpr int kBins = 256, kLimit = 10;
    const int clipped = 256 * 2 + 3;
    int total = 0;
    for (int bin = 0; bin < kBins; ++bin) {
        const int expected = 0 + 2 + (bin == 0 || bin == 85 || bin == 170 ? 1 : 0);
        EXPECT_EQ(hd::hdClaheRedistributed(0, bin, kBins, kLimit, clipped), expected) << bin;
        total += hd::hdClaheRedistributed(0, bin, kBins, kLimit, clipped);
    }
    EXPECT_EQ(total, clipped);
    EXPECT_EQ(hd::hdClaheRedistributed(50, 3, kBins, kLimit, 0), kLimit);
}

TEST(ClaheSteps, LutRoundsHalfToEvenAndSaturates)
{
    EXPECT_EQ(hd::hdClaheLutValue(1, 2.5f, 255), 2);  // 2.5 -> 2
    EXPECT_EQ(hd::hdClaheLutValue(1, 3.5f, 255), 4);  // 3.5 -> 4
    EXPECT_EQ(hd::hdClaheLutValue(1000, 1.0f, 255), 255);
    EXPECT_EQ(hd::hdClaheSaturate(-0.4f, 255), 0);
    EXPECT_EQ(hd::hdClaheSaturate(254.5f, 255), 254);
}

// The GPU blends' conversion-free forms (shared/Clahe.h) against the plain ones: every float within
// 16 ulps of each integer and half-integer of [-2, 65537] (the rounding's edges), and every 509th
// float of [0, 65540].
TEST(ClaheSteps, ConversionFreeFormsEqualThePlainOnes)
{
    for (unsigned v = 0; v < 65536u; ++v)
        ASSERT_EQ(hd::hdClaheSmallFloat(v), float(v)) << v;
    for (unsigned v : {65536u, 1000000u, 8388607u})
        ASSERT_EQ(hd::hdClaheSmallFloat(v), float(v)) << v;
    std::size_t checked = 0;
    const auto check = [&checked](float value) {
        for (int maxValue : {255, 65535}) {
            ++checked;
            ASSERT_EQ(hd::hdClaheSaturateBits(value, maxValue), hd::hdClaheSaturate(value, maxValue))
                << value << " (bits " << std::hex << ::hdHostFloatBits(value) << std::dec << "), max " << maxValue;
        }
    };
    for (int twice = -4; twice <= 2 * 65537; ++twice) {
        const float centre = 0.5f * float(twice);
        float below = centre, above = centre;
        for (int step = 0; step < 16; ++step) {
            ASSERT_NO_FATAL_FAILURE(check(below));
            ASSERT_NO_FATAL_FAILURE(check(above));
            below = std::nextafter(below, -1e9f);
            above = std::nextafter(above, 1e9f);
        }
    }
    for (std::uint32_t bits = 0; bits <= ::hdHostFloatBits(65540.0f); bits += 509)
        ASSERT_NO_FATAL_FAILURE(check(::hdHostBitsFloat(bits)));
    ASSERT_NO_FATAL_FAILURE(check(-0.0f));
    EXPECT_GT(checked, std::size_t(12000000));
}

TEST(ClaheReference, ConstantImageMapsToOneLevelAndOneTileToItsLut)
{
    ref::ClaheImage<std::uint8_t> flat{10, 6, std::vector<std::uint8_t>(60, 100)};
    const auto out = ref::clahe(flat, 0.0, 1, 1);
    // No clip: the CDF reaches 60 of 60 at 100, so every pixel maps to 255.
    for (std::uint8_t v : out.samples)
        EXPECT_EQ(v, 255);
}

}  // namespace
