// RadianceColourTest.cpp: the luminance weights of Radiance's colour arithmetic
// (image/RadianceColour.h) against Radiance's published numbers and an independent derivation.
#include "image/RadianceColour.h"

#include <gtest/gtest.h>

#include <array>
#include <optional>

namespace {

TEST(RadianceColour, DefaultWeightsAreRadiancesRgb2XyzRow)
{
    const auto weights = image::radianceLuminanceWeights(std::nullopt);
    ASSERT_TRUE(weights);
    // color.h's CIE_rf, CIE_gf, CIE_bf in double (for R .640 .330, G .290 .600, B .150 .060, white
    // 1/3 1/3), stored as floats in rgb2xyzmat.
    EXPECT_EQ((*weights)[0], 0.26510582f);
    EXPECT_EQ((*weights)[1], 0.67010582f);
    EXPECT_EQ((*weights)[2], 0.06478836f);
}

TEST(RadianceColour, DefaultPrimariesOnAPrimariesLineGiveTheSameWeights)
{
    // The same primaries parsed from a header line (floats, the computed path, not rgb2xyzmat).
    const std::array<float, 8> line{0.640f, 0.330f, 0.290f, 0.600f, 0.150f, 0.060f, 0.33333333f, 0.33333333f};
    const auto computed = image::radianceLuminanceWeights(line);
    const auto builtIn = image::radianceLuminanceWeights(std::nullopt);
    ASSERT_TRUE(computed && builtIn);
    for (int c = 0; c < 3; ++c)
        EXPECT_NEAR((*computed)[std::size_t(c)], (*builtIn)[std::size_t(c)], 1e-6) << c;
    // fputprims writes 4 decimals, so Radiance's own PRIMARIES line has white 0.3333 0.3333 (within
    // 1e-4 of 1/3: no white balance). That white gives the weights color.h's comment quotes:
    // "Default CIE_rf=.265074126, CIE_gf=.670114631 and CIE_bf=.064811243".
    const std::array<float, 8> written{0.640f, 0.330f, 0.290f, 0.600f, 0.150f, 0.060f, 0.3333f, 0.3333f};
    const auto fromFile = image::radianceLuminanceWeights(written);
    ASSERT_TRUE(fromFile);
    EXPECT_NEAR((*fromFile)[0], 0.265074126, 1e-7);
    EXPECT_NEAR((*fromFile)[1], 0.670114631, 1e-7);
    EXPECT_NEAR((*fromFile)[2], 0.064811243, 1e-7);
}

// Rec. 709 primaries with a D65 white: the weights, derived here independently in double.
//  1. RGB -> XYZ (the textbook construction): each primary's XYZ for Y = 1 is (x/y, 1, (1-x-y)/y);
//     scale the three columns by s solving P s = W, W = D65's XYZ for Y = 1 = (0.95046, 1, 1.08906).
//     This gives the well-known Y row 0.212639, 0.715169, 0.072192.
//  2. White balance from D65 to equal energy (Radiance balances every picture to its neutral white
//     E, x = y = 1/3): von Kries in Radiance's "Sharp" cone space, B = S^-1 diag(S E / S W) S, with
//     S = vkmat, S^-1 = ivkmat (4-digit constants of spec_rgb.c, so S^-1 S is not exactly I), E = (1, 1, 1).
//  3. Luminance weights = row Y of B M. By hand: S W = (0.92192, 1.04452, 1.08775) and S E =
//     (1.0000, 0.9999, 1.0000), so the cone gains are (1.08470, 0.95728, 0.91933), and the weights
//     come out at 0.2276, 0.7019, 0.0704 (summing to 0.99994: S^-1 S is not quite I).
TEST(RadianceColour, Rec709D65PrimariesAreWhiteBalancedToEqualEnergy)
{
    const std::array<float, 8> line{0.640f, 0.330f, 0.300f, 0.600f, 0.150f, 0.060f, 0.3127f, 0.3290f};
    const auto weights = image::radianceLuminanceWeights(line);
    ASSERT_TRUE(weights);

    using M = std::array<std::array<double, 3>, 3>;
    auto inverse = [](const M& m) {
        const double det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
                           m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
                           m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
        M r{};
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) {
                const int a = (j + 1) % 3, b = (j + 2) % 3, c = (i + 1) % 3, d = (i + 2) % 3;
                r[i][j] = (m[a][c] * m[b][d] - m[a][d] * m[b][c]) / det;
            }
        return r;
    };
    auto times = [](const M& a, const M& b) {
        M r{};
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j)
                for (int k = 0; k < 3; ++k)
                    r[i][j] += a[i][k] * b[k][j];
        return r;
    };
    auto apply = [](const M& m, std::array<double, 3> v) {
        return std::array<double, 3>{m[0][0] * v[0] + m[0][1] * v[1] + m[0][2] * v[2],
                                     m[1][0] * v[0] + m[1][1] * v[1] + m[1][2] * v[2],
                                     m[2][0] * v[0] + m[2][1] * v[1] + m[2][2] * v[2]};
    };
    // Chromaticities as the header line's floats give them.
    double x[4], y[4];
    for (int i = 0; i < 4; ++i) {
        x[i] = line[std::size_t(2 * i)];
        y[i] = line[std::size_t(2 * i + 1)];
    }
    M primaries{};
    for (int i = 0; i < 3; ++i) {
        primaries[0][i] = x[i] / y[i];
        primaries[1][i] = 1.0;
        primaries[2][i] = (1.0 - x[i] - y[i]) / y[i];
    }
    const std::array<double, 3> white{x[3] / y[3], 1.0, (1.0 - x[3] - y[3]) / y[3]};
    const std::array<double, 3> scale = apply(inverse(primaries), white);
    M rgbToXyz = primaries;
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c)
            rgbToXyz[r][c] *= scale[std::size_t(c)];
    EXPECT_NEAR(rgbToXyz[1][0], 0.212639, 2e-6);  // the textbook Rec. 709 row, before white balance
    EXPECT_NEAR(rgbToXyz[1][1], 0.715169, 2e-6);
    EXPECT_NEAR(rgbToXyz[1][2], 0.072192, 2e-6);

    const M sharp{{{1.2694, -0.0988, -0.1706}, {-0.8364, 1.8006, 0.0357}, {0.0297, -0.0315, 1.0018}}};
    const M sharpInverse{{{0.8156, 0.0472, 0.1372}, {0.3791, 0.5769, 0.0440}, {-0.0123, 0.0167, 0.9955}}};
    const std::array<double, 3> coneWhite = apply(sharp, white);
    const std::array<double, 3> coneNeutral = apply(sharp, {1.0, 1.0, 1.0});
    M gains{};
    for (int i = 0; i < 3; ++i)
        gains[i][i] = coneNeutral[std::size_t(i)] / coneWhite[std::size_t(i)];
    const M balanced = times(times(times(sharpInverse, gains), sharp), rgbToXyz);
    for (int c = 0; c < 3; ++c)
        EXPECT_NEAR((*weights)[std::size_t(c)], balanced[1][c], 1e-6) << c;
    EXPECT_NEAR((*weights)[0], 0.2276, 1e-4);
    EXPECT_NEAR((*weights)[1], 0.7019, 1e-4);
    EXPECT_NEAR((*weights)[2], 0.0704, 1e-4);
}

TEST(RadianceColour, DegeneratePrimariesGiveNoWeights)
{
    EXPECT_FALSE(image::radianceLuminanceWeights(std::array<float, 8>{0.3f, 0.3f, 0.3f, 0.3f, 0.3f, 0.3f, 0.3f, 0.3f}));
    EXPECT_FALSE(
        image::radianceLuminanceWeights(std::array<float, 8>{0.64f, 0.33f, 0.3f, 0.6f, 0.15f, 0.06f, 0.3f, 0.0f}));
}

}  // namespace
