// CPU reference of the RGB display transforms (AgX, PBR Neutral) at values that follow from their
// published definitions, and of the HDR10 colour conversion (reference/HdrEncode).
#include "reference/DisplayTransformRef.h"
#include "reference/HdrEncode.h"
#include "reference/ToneExposureRef.h"

#include <gtest/gtest.h>

#include <cmath>

namespace {

ref::Rgb grey(double x)
{
    return {x, x, x};
}

// Khronos PBR Neutral: grey at or above 0.08 loses the 0.04 offset and is otherwise untouched up to
// the start of compression (0.76 after the offset); below 0.08 the toe is 6.25 x^2; the compressed
// peak is 1 - d^2 / (peak + d - 0.76), d = 0.24.
TEST(DisplayTransformRef, PbrNeutralFixedPoints)
{
    EXPECT_NEAR(ref::pbrNeutral(grey(0.18))[1], 0.14, 1e-15);
    EXPECT_NEAR(ref::pbrNeutral(grey(0.5))[0], 0.46, 1e-15);
    EXPECT_NEAR(ref::pbrNeutral(grey(0.04))[2], 6.25 * 0.04 * 0.04, 1e-15);
    EXPECT_NEAR(ref::pbrNeutral(grey(0.08))[0], 0.04, 1e-15);  // the toe meets the offset
    EXPECT_NEAR(ref::pbrNeutral(grey(0.8))[0], 0.76, 1e-12);   // compression starts, continuously
    EXPECT_NEAR(ref::pbrNeutral(grey(1.04))[0], 1.0 - 0.0576 / 0.48, 1e-12);
    EXPECT_NEAR(ref::pbrNeutral(grey(1e6))[0], 1.0, 1e-6);
    EXPECT_EQ(ref::pbrNeutral(grey(0.0))[0], 0.0);
    // Saturated red at 1: peak 1, new peak 0.88, desaturated toward it by g = 1 - 1 / (0.15 x 0.12 + 1).
    const ref::Rgb red = ref::pbrNeutral({1.0, 0.0, 0.0});
    const double g = 1.0 - 1.0 / (0.15 * 0.12 + 1.0);
    EXPECT_NEAR(red[0], 0.88, 1e-12);
    EXPECT_NEAR(red[1], 0.88 * g, 1e-12);
    EXPECT_NEAR(red[2], 0.88 * g, 1e-12);
    // Hue-preserving below compression: a dim colour only loses the offset.
    const ref::Rgb dim = ref::pbrNeutral({0.3, 0.2, 0.1});
    EXPECT_NEAR(dim[0], 0.26, 1e-15);
    EXPECT_NEAR(dim[2], 0.06, 1e-15);
}

double agxSigmoidAt(double exposed)
{
    const double t = (std::log2(exposed) + 12.47393) / (4.026069 + 12.47393);
    return 15.5 * std::pow(t, 6) - 40.14 * std::pow(t, 5) + 31.96 * std::pow(t, 4) - 6.868 * std::pow(t, 3) +
           0.4298 * t * t + 0.1191 * t - 0.00232;
}

// AgX: middle grey sits at the middle of the display encoding (0.18 lies 12.47 EV above the bottom
// of the 16.5 EV range, where the sigmoid gives about 0.5), grey stays grey up to the inset
// matrix's row sums (1 +- 1.4e-4), black goes to 0 and the top of the range to about 1.
TEST(DisplayTransformRef, AgxMiddleGreyAndEnds)
{
    const ref::Rgb mid = ref::agx(grey(0.18), false);
    for (double c : mid) {
        EXPECT_NEAR(std::pow(c, 1.0 / 2.2), 0.5, 5e-3);
        EXPECT_NEAR(c, std::pow(agxSigmoidAt(0.18), 2.2), 1e-3);
    }
    EXPECT_NEAR(ref::agx(grey(0.0), false)[1], 0.0, 1e-6);
    EXPECT_NEAR(ref::agx(grey(std::exp2(4.026069)), false)[1], std::pow(agxSigmoidAt(std::exp2(4.026069)), 2.2), 2e-3);
    EXPECT_GT(ref::agx(grey(1e9), false)[1], 0.95);
    // Punchy: grey is untouched by the saturation, so only the power 1.35 acts on the encoded value.
    const ref::Rgb punchy = ref::agx(grey(0.18), true);
    EXPECT_NEAR(punchy[1], std::pow(std::pow(agxSigmoidAt(0.18), 1.35), 2.2), 1e-3);
    EXPECT_LT(punchy[1], mid[1]);
    // Saturated colours: punchy keeps them more saturated than the base look.
    const ref::Rgb base = ref::agx({4.0, 0.2, 0.05}, false);
    const ref::Rgb strong = ref::agx({4.0, 0.2, 0.05}, true);
    EXPECT_GT(strong[0] / std::max(strong[2], 1e-9), base[0] / std::max(base[2], 1e-9));
}

TEST(DisplayTransformRef, MonotonicGreyResponseAndLutEntries)
{
    for (post::DisplayCurve curve :
         {post::DisplayCurve::AgX, post::DisplayCurve::AgXPunchy, post::DisplayCurve::PbrNeutral}) {
        double previous = -1.0;
        for (double ev = -14.0; ev <= 10.0; ev += 0.125) {
            const double v = ref::displayTransformGrey(std::exp2(ev), curve);
            EXPECT_GE(v, previous) << post::toString(curve) << " at " << ev << " EV";
            EXPECT_LE(v, 1.0);
            previous = v;
        }
        const post::DisplayCurveSettings settings{curve, 0.0f};
        EXPECT_EQ(ref::displayCurve(0.18, settings), ref::displayTransformGrey(0.18, curve));
        EXPECT_GT(ref::displayCurve(std::numeric_limits<double>::infinity(), settings), 0.95);
        EXPECT_TRUE(post::isRgbTransform(curve));
        EXPECT_EQ(post::displayTransformCode(curve), std::uint32_t(curve));
    }
    EXPECT_EQ(post::displayTransformCode(post::DisplayCurve::Hable), 0u);
}

// The Rec. 709 to BT.2020 matrix derived from the primaries matches ITU-R BT.2087's published
// coefficients (the ones the apply shader uses) and keeps white.
TEST(HdrEncodeRef, Rec709ToBt2020MatchesBt2087)
{
    const ref::Matrix3 m = ref::rec709ToBt2020();
    const double bt2087[3][3] = {{0.6274, 0.3293, 0.0433}, {0.0691, 0.9195, 0.0114}, {0.0164, 0.0880, 0.8956}};
    for (int r = 0; r < 3; ++r) {
        EXPECT_NEAR(m[r][0] + m[r][1] + m[r][2], 1.0, 1e-12);
        for (int c = 0; c < 3; ++c)
            EXPECT_NEAR(m[r][c], bt2087[r][c], 6e-5) << r << "," << c;
    }
}

}  // namespace
