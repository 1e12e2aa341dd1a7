// CPU reference self-checks of the image passes: box downsample at odd sizes, sRGB encoding, the
// curve lookup (sample positions, interpolation, clamping, linear-scale mode) and the apply pass's
// handling of NaN, Inf and non-positive pixels.
#include "reference/Image.h"
#include "shared/HostDevice.h"

#include <gtest/gtest.h>

#include <limits>

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

TEST(ReferenceImage, BoxDownsampleAveragesOnlyExistingPixelsOfPartialBlocks)
{
    // 3x1 image, factor 2: blocks {0, 1} and {2}.
    const std::vector<float> rgba{1, 2, 3, 4, 3, 4, 5, 6, 10, 10, 10, 10};
    ref::RgbaImage out = ref::boxDownsample(rgba.data(), 3, 1, 2);
    ASSERT_EQ(out.width, 2);
    ASSERT_EQ(out.height, 1);
    EXPECT_EQ(out.pixels, (std::vector<float>{2, 3, 4, 5, 10, 10, 10, 10}));
    // 1x1 by 8 keeps the pixel; 5x3 by 4 is 2x1.
    ref::RgbaImage one = ref::boxDownsample(rgba.data(), 1, 1, 8);
    EXPECT_EQ(one.width * one.height, 1);
    EXPECT_EQ(one.pixels[0], 1.0f);
    std::vector<float> image(5 * 3 * 4, 1.0f);
    ref::RgbaImage small = ref::boxDownsample(image.data(), 5, 3, 4);
    EXPECT_EQ(small.width, 2);
    EXPECT_EQ(small.height, 1);
}

TEST(ReferenceImage, SrgbEncodingFollowsIec61966)
{
    EXPECT_DOUBLE_EQ(ref::encodeSrgb(0.0), 0.0);
    EXPECT_DOUBLE_EQ(ref::encodeSrgb(1.0), 1.0);
    EXPECT_NEAR(ref::encodeSrgb(0.0031308), 0.040449936, 1e-8);  // the end of the linear segment
    EXPECT_NEAR(ref::encodeSrgb(0.5), 0.735356983, 1e-8);
    EXPECT_DOUBLE_EQ(ref::encodeSrgb(7.0), 1.0);
    EXPECT_DOUBLE_EQ(ref::encodeSrgb(-1.0), 0.0);
    EXPECT_DOUBLE_EQ(ref::encodeSrgb(std::nan("")), 0.0);
}

std::vector<float> lutCurve(float logMin, float logMax, const std::vector<float>& samples, int channels = 1)
{
    std::vector<float> curve(hd::kCurveBufferWords, 0.0f);
    curve[hd::kCurveLogMin] = logMin;
    curve[hd::kCurveLogMax] = logMax;
    curve[hd::kCurveSampleCount] = float(samples.size());
    curve[hd::kCurveChannels] = float(channels);
    curve[hd::kCurveMode] = hd::kCurveModeLut;
    for (int c = 0; c < channels; ++c)
        for (std::size_t i = 0; i < samples.size(); ++i)
            curve[hd::kCurveHeaderWords + std::size_t(c) * hd::kMaxCurveSamples + i] = samples[i] * float(c + 1);
    return curve;
}

TEST(ReferenceImage, CurveSamplesSitAtBinCentresExtendLinearlyBelowAndClampAbove)
{
    // 4 samples over [0, 4] EV sit at 0.5, 1.5, 2.5, 3.5 EV.
    const auto curve = lutCurve(0.0f, 4.0f, {0.1f, 0.2f, 0.4f, 0.8f});
    EXPECT_NEAR(ref::evaluateCurve(curve.data(), 0, std::exp2(0.5)), 0.1, 1e-6);
    EXPECT_NEAR(ref::evaluateCurve(curve.data(), 0, std::exp2(1.0)), 0.15, 1e-6);
    EXPECT_NEAR(ref::evaluateCurve(curve.data(), 0, std::exp2(3.0)), 0.6, 1e-6);
    // Below the first sample (0.5 EV) Ld/Lw stays constant: 5.5 EV darker gives 2^-5.5 of 0.1.
    EXPECT_NEAR(ref::evaluateCurve(curve.data(), 0, std::exp2(-5.0)), 0.1 * std::exp2(-5.5), 1e-9);
    EXPECT_NEAR(ref::evaluateCurve(curve.data(), 0, std::exp2(-5.0)) / std::exp2(-5.0),
                ref::evaluateCurve(curve.data(), 0, std::exp2(0.0)) / std::exp2(0.0), 1e-9);
    EXPECT_NEAR(ref::evaluateCurve(curve.data(), 0, std::exp2(9.0)), 0.8, 1e-6);
    EXPECT_NEAR(ref::evaluateCurve(curve.data(), 0, double(kInf)), 0.8, 1e-6);
}

TEST(ReferenceImage, ApplyKeepsChromaticityAndNeverGivesNaN)
{
    std::vector<float> curve(hd::kCurveBufferWords, 0.0f);
    curve[hd::kCurveSampleCount] = 1.0f;
    curve[hd::kCurveChannels] = 1.0f;
    curve[hd::kCurveMode] = hd::kCurveModeLinearScale;
    curve[hd::kCurveScale] = 0.5f;
    const std::vector<float> rgba{
        1,    1,  1,  1,  // L = 1 -> 0.5 -> sRGB 0.7354 -> 188
        2,    0,  0,  1,  // red: R * 0.5 = 1 -> 255, G = B = 0
        kNaN, 1,  1,  1,  // NaN luminance -> black
        kInf, 1,  1,  1,  // +Inf luminance -> white (scale * Inf clamps to 1)
        -1,   -1, -1, 1,  // negative -> black
        0,    0,  0,  1,  // zero -> black
    };
    const auto out = ref::applyCurve(rgba.data(), 6, 1, curve.data());
    const std::vector<std::uint8_t> expected{188, 188, 188, 255, 255, 0, 0, 255, 0, 0, 0, 255,
                                             255, 255, 255, 255, 0,   0, 0, 255, 0, 0, 0, 255};
    EXPECT_EQ(out, expected);
}

TEST(ReferenceImage, PerChannelCurvesMapEachChannelThroughItsOwnLut)
{
    // Channel c's LUT is (c + 1) * {0.1, 0.1}: constant 0.1, 0.2, 0.3.
    const auto curve = lutCurve(-4.0f, 4.0f, {0.1f, 0.1f}, 3);
    const std::vector<float> rgba{1, 5, 0.01f, 1, kNaN, -1, kInf, 1};
    const auto out = ref::applyCurve(rgba.data(), 2, 1, curve.data());
    const auto byte = [](double v) { return std::uint8_t(std::lround(ref::encodeSrgb(v) * 255.0)); };
    EXPECT_EQ(out[0], byte(0.1));
    EXPECT_EQ(out[1], byte(0.2));
    // 0.01 lies below the first sample (at -2 EV), where the curve is linear: 0.3 * 0.01 / 2^-2.
    EXPECT_EQ(out[2], byte(0.3 * 0.01 / 0.25));
    EXPECT_EQ(out[4], 0);          // NaN channel
    EXPECT_EQ(out[5], 0);          // negative channel
    EXPECT_EQ(out[6], byte(0.3));  // +Inf: the top of its curve
}

TEST(ReferenceImage, LocalMeanIsTheClippedWindowAverageOfClampedLog2Luminance)
{
    // 3x1 grey pixels of 2^0, 2^4 and NaN (counts as logMin = -2); radius 1, range [-2, 3].
    const std::vector<float> rgba{1, 1, 1, 1, 16, 16, 16, 1, kNaN, kNaN, kNaN, 1};
    const std::vector<float> mean = ref::localMeanLog2(rgba.data(), 3, 1, 1, -2.0f, 3.0f);
    ASSERT_EQ(mean.size(), 3u);
    EXPECT_NEAR(mean[0], (0.0 + 3.0) / 2.0, 1e-6);  // 16 clamps to 3 EV; the window is clipped
    EXPECT_NEAR(mean[1], (0.0 + 3.0 - 2.0) / 3.0, 1e-6);
    EXPECT_NEAR(mean[2], (3.0 - 2.0) / 2.0, 1e-6);
}

TEST(ReferenceImage, LocalAdaptationShiftsTheLookupByTheBlendedDifference)
{
    std::vector<float> curve(hd::kCurveBufferWords, 0.0f);
    curve[hd::kCurveMode] = hd::kCurveModeLinearScale;
    curve[hd::kCurveScale] = 0.25f;
    curve[hd::kCurveLocalBlend] = 0.5f;
    curve[hd::kCurveLocalReference] = 1.0f;
    const std::vector<float> rgba{0.5f, 0.5f, 0.5f, 1};
    const float darkSurround = -3.0f;  // 4 EV under the reference: exposed up by 0.5 * 4 = 2 EV
    const auto out = ref::applyCurve(rgba.data(), 1, 1, curve.data(), &darkSurround);
    const auto byte = [](double v) { return std::uint8_t(std::lround(ref::encodeSrgb(v) * 255.0)); };
    EXPECT_EQ(out[0], byte(0.5 * 0.25 * 4.0));
    const float extreme = -100.0f;  // the shift is clamped to +8 EV
    EXPECT_EQ(ref::applyCurve(rgba.data(), 1, 1, curve.data(), &extreme)[0], byte(1.0));
}

}  // namespace
