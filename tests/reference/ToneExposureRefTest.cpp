// CPU reference of the display curves and of the reference-curve entry point (curve buffer layout).
#include "reference/Image.h"
#include "reference/ToneExposureRef.h"
#include "reference/ToneReference.h"
#include "shared/HostDevice.h"

#include <gtest/gtest.h>

#include <cmath>

namespace {

TEST(ToneExposureRef, DisplayCurveKnownValues)
{
    post::DisplayCurveSettings reinhard{post::DisplayCurve::Reinhard, 0.0f};
    // E4: a = 0.18, Lavg = 1: Lw = 1 -> 0.152542, Lw = 10 -> 0.642857; with white 1: 0.18.
    EXPECT_NEAR(ref::displayCurve(0.18, reinhard), 0.152542, 1e-6);
    EXPECT_NEAR(ref::displayCurve(1.8, reinhard), 0.642857, 1e-6);
    reinhard.reinhardWhite = 1.0f;
    EXPECT_NEAR(ref::displayCurve(0.18, reinhard), 0.18, 1e-12);
    EXPECT_EQ(ref::displayCurve(1.0, reinhard), 1.0);
    const post::DisplayCurveSettings clampCurve{post::DisplayCurve::Clamp, 0.0f};
    EXPECT_EQ(ref::displayCurve(0.25, clampCurve), 0.25);
    EXPECT_EQ(ref::displayCurve(7.0, clampCurve), 1.0);
    const post::DisplayCurveSettings hable{post::DisplayCurve::Hable, 0.0f};
    EXPECT_NEAR(ref::displayCurve(11.2, hable), 1.0, 1e-12);
    EXPECT_NEAR(ref::displayCurve(0.18, hable), ref::hableRaw(0.18) / ref::hableRaw(11.2), 1e-12);
    EXPECT_NEAR(ref::hableRaw(0.0), 0.0, 1e-12);
    const post::DisplayCurveSettings aces{post::DisplayCurve::AcesFit, 0.0f};
    EXPECT_NEAR(ref::displayCurve(0.18, aces), 0.086724 / 0.324932, 1e-6);
    for (const auto& curve : {clampCurve, reinhard, hable, aces}) {
        EXPECT_EQ(ref::displayCurve(0.0, curve), 0.0);
        EXPECT_EQ(ref::displayCurve(std::nan(""), curve), 0.0);
        EXPECT_EQ(ref::displayCurve(INFINITY, curve), 1.0);
        double previous = 0.0;
        for (double x = 1e-4; x < 1e3; x *= 1.1) {  // monotone
            const double y = ref::displayCurve(x, curve);
            EXPECT_GE(y, previous - 1e-12);
            previous = y;
        }
    }
}

TEST(ToneExposureRef, ExposureCurveBufferEvaluatesTheCurve)
{
    post::ExposureSettings s;
    s.exposureEv = 2.5f;
    ref::CurveInputs in;
    in.settings = s;
    const std::vector<float> words = ref::referenceCurve("exposure", in);
    ASSERT_EQ(words.size(), hd::kCurveBufferWords);
    EXPECT_EQ(words[hd::kCurveMode], hd::kCurveModeLut);
    for (double log2Lw : {-15.0, -6.0, -2.5, 0.0, 3.0, 8.0}) {
        const double expected = ref::displayCurve(std::exp2(log2Lw + 2.5), s.display);
        EXPECT_NEAR(ref::evaluateCurve(words.data(), 0, std::exp2(log2Lw)), expected, 2e-4) << log2Lw;
    }
    s.display.curve = post::DisplayCurve::Clamp;
    in.settings = s;
    const std::vector<float> linear = ref::referenceCurve("exposure", in);
    EXPECT_EQ(linear[hd::kCurveMode], hd::kCurveModeLinearScale);
    EXPECT_NEAR(linear[hd::kCurveScale], std::exp2(2.5), 1e-5);
    EXPECT_EQ(ref::curveMaxDifference(words, words, 0, -20.0, 20.0), 0.0);
    EXPECT_GT(ref::curveMaxDifference(words, linear, 0, -20.0, 20.0), 0.01);
    EXPECT_TRUE(ref::referenceCurve("no-such-operator", in).empty());
}

}  // namespace
