// The bilateral local exposure's shared arithmetic and CPU reference (shared/LocalExposure.h,
// reference/LocalExposureRef): cell codes at the range's ends and bin edges, the mirrored index, the
// tile count, a uniform frame's grid, blur and terms, neutral settings giving no exposure, and the
// formula's contrast about middle grey.
#include "reference/LocalExposureRef.h"
#include "shared/LocalExposure.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace {

TEST(LocalExposureRef, CellCodes)
{
    const float logMin = -10.0f, logMax = 22.0f;  // 1 EV per bin
    const float scale = hd::hdBinScale(logMin, logMax, hd::kLocalExposureBins);
    EXPECT_EQ(scale, 1.0f);
    EXPECT_EQ(hd::hdLocalExposureCode(std::numeric_limits<float>::quiet_NaN(), logMin, scale), -1);
    EXPECT_EQ(hd::hdLocalExposureCode(std::numeric_limits<float>::infinity(), logMin, scale), -1);
    EXPECT_EQ(hd::hdLocalExposureCode(0.0f, logMin, scale), -1);
    EXPECT_EQ(hd::hdLocalExposureCode(-1.0f, logMin, scale), -1);
    EXPECT_EQ(hd::hdLocalExposureCode(std::exp2(-20.0f), logMin, scale), 0);             // below: bin 0, q 0
    EXPECT_EQ(hd::hdLocalExposureCode(std::exp2(30.0f), logMin, scale), 32 * 2048 - 1);  // above: the top
    EXPECT_EQ(hd::hdLocalExposureCode(1.0f, logMin, scale), 10 * 2048);                  // log2 L 0: bin 10 exactly
    EXPECT_EQ(hd::hdLocalExposureCode(std::exp2(0.5f), logMin, scale) >> 11, 10);
    EXPECT_NEAR(double(hd::hdLocalExposureCode(std::exp2(0.5f), logMin, scale) & 2047), 1024.0, 1.0);
    // Degenerate range: every counted pixel at bin 0.
    EXPECT_EQ(hd::hdLocalExposureCode(5.0f, 1.0f, 0.0f), 0);
}

TEST(LocalExposureRef, MirrorAndTiles)
{
    const int expected[] = {2, 1, 0, 0, 1, 2, 2, 1, 0, 0};  // i = -3..6 for n = 3: ..2 1 0 | 0 1 2 | 2 1 0 | 0..
    for (int i = -3; i <= 6; ++i)
        EXPECT_EQ(hd::hdLocalExposureMirror(i, 3), expected[i + 3]) << i;
    EXPECT_EQ(hd::hdLocalExposureMirror(-7, 1), 0);
    EXPECT_EQ(hd::hdLocalExposureTiles(1), 1);
    EXPECT_EQ(hd::hdLocalExposureTiles(64), 1);
    EXPECT_EQ(hd::hdLocalExposureTiles(65), 2);
    EXPECT_EQ(hd::hdLocalExposureTiles(3840), 60);
    EXPECT_EQ(hd::hdLocalExposureTilePosition(0), -0.4921875f);
    EXPECT_EQ(hd::hdLocalExposureTilePosition(95), 1.0f - 0.0078125f);
}

std::vector<float> uniformFrame(int width, int height, float grey)
{
    std::vector<float> rgba(std::size_t(width) * std::size_t(height) * 4, grey);
    return rgba;
}

TEST(LocalExposureRef, UniformFrameHasNoDetailAndItsOwnBase)
{
    const int w = 130, h = 70;
    const std::vector<float> frame = uniformFrame(w, h, 4.0f);  // log2 L = 2
    const ref::LocalExposureGrid grid = ref::localExposureGrid(frame.data(), w, h, -10.0f, 22.0f);
    ASSERT_EQ(grid.tilesX, 3);
    ASSERT_EQ(grid.tilesY, 2);
    std::uint64_t counted = 0;
    for (std::size_t i = 0; i < grid.words.size(); i += 2)
        counted += grid.words[i];
    EXPECT_EQ(counted, std::uint64_t(w) * std::uint64_t(h));
    const ref::LocalExposureBlur blur = ref::localExposureBlur(grid, w, 50.0f, -10.0f, 22.0f);
    EXPECT_NEAR(blur.frameMean, 2.0, 1e-3);  // the position is quantized to 1/2048 bin
    for (double b : blur.blurred)
        EXPECT_NEAR(b, 2.0, 1e-3);
    post::LocalExposureSettings s;
    s.highlightContrastScale = 0.5f;
    s.shadowContrastScale = 0.5f;
    for (const auto& [x, y] : {std::pair{0, 0}, std::pair{129, 69}, std::pair{64, 33}}) {
        const ref::LocalExposureTerms t = ref::localExposureTerms(grid, blur, s, {}, -10.0f, 22.0f, x, y, 4.0);
        ASSERT_TRUE(t.valid);
        EXPECT_NEAR(t.bilateral, 2.0, 1e-3);
        EXPECT_NEAR(t.base, 2.0, 1e-3);
        EXPECT_NEAR(t.mid, 2.0, 1e-3);  // the frame's mean: nothing to compress
        EXPECT_NEAR(t.ev, 0.0, 1e-3);
    }
}

TEST(LocalExposureRef, FormulaCompressesTheBaseAboutMiddleGrey)
{
    // Unreal's formula: target = mid + (base - mid) c + (log2 L - base) d, exposure = target - log2 L.
    EXPECT_FLOAT_EQ(hd::hdLocalExposureEv(3.0f, 2.0f, 0.0f, 0.5f, 0.8f, 1.0f), -1.0f);   // above: highlight
    EXPECT_FLOAT_EQ(hd::hdLocalExposureEv(-3.0f, -2.0f, 0.0f, 0.5f, 0.8f, 1.0f), 0.4f);  // below: shadow
    EXPECT_FLOAT_EQ(hd::hdLocalExposureEv(3.0f, 2.0f, 0.0f, 1.0f, 1.0f, 2.0f), 1.0f);    // detail doubled
    EXPECT_FLOAT_EQ(hd::hdLocalExposureEv(5.0f, 5.0f, 5.0f, 0.1f, 0.1f, 0.1f), 0.0f);    // at middle grey
    // Mid from the curve's exposure: 0.18 / 2^E.
    const int w = 64, h = 64;
    const std::vector<float> frame = uniformFrame(w, h, 1.0f);
    const ref::LocalExposureGrid grid = ref::localExposureGrid(frame.data(), w, h, -10.0f, 22.0f);
    const ref::LocalExposureBlur blur = ref::localExposureBlur(grid, w, 50.0f, -10.0f, 22.0f);
    post::LocalExposureSettings s;
    s.middleGreyBias = 1.0f;
    const ref::LocalExposureTerms t = ref::localExposureTerms(grid, blur, s, {true, 0.25}, -10.0f, 22.0f, 3, 3, 1.0);
    EXPECT_NEAR(t.mid, std::log2(0.18 / 0.25) + 1.0, 1e-6);  // 0.18 is the float 0.18f
}

}  // namespace
