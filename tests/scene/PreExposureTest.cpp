// The pre-exposure rule without GL (scene/PreExposure.h): the target k for a peak (exact floors at
// powers of two, the clamp, black and non-finite peaks), the controller's moves (down at once, up only
// after a run of samples, a band in which k never moves, unexplained clips, the first sample), a peak
// wandering for thousands of frames that never flips k, the CPU undo of a frame, the format names;
// and the claim the consumers rely on (post/LuminanceUnits.h): the luminance of a stored half-float
// value under the weights times 2^-k is, bit for bit, the luminance of the value times 2^-k under the
// plain weights, for every k in range.
#include "post/LuminanceUnits.h"
#include "scene/PreExposure.h"
#include "scene/Scene.h"
#include "shared/HostDevice.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace {

using scene::FrameStats;
using scene::PreExposureControl;
using scene::preExposureFor;

constexpr int kTargetHeadroom = PreExposureControl::kTargetHeadroomEv;

/// A sample of a frame stored with `k` whose peak is `peak` cd/m^2.
FrameStats sample(double peak, int k, std::uint32_t clipped = 0)
{
    return FrameStats{clipped, float(peak), k};
}

TEST(PreExposure, FormatNamesRoundTrip)
{
    for (scene::FrameFormat format :
         {scene::FrameFormat::Auto, scene::FrameFormat::Rgba32f, scene::FrameFormat::Rgba16f})
        EXPECT_EQ(scene::parseFrameFormat(scene::frameFormatName(format)), format);
    EXPECT_FALSE(scene::parseFrameFormat("RGBA16F"));
    EXPECT_FALSE(scene::parseFrameFormat(""));
}

TEST(PreExposure, TargetIsTheFloorOfTheHeadroomExactlyAtPowersOfTwo)
{
    // peak 65504 x 2^-j: the ratio is exactly 2^j, floor j, target j - headroom.
    for (int j = -20; j <= 20; ++j)
        EXPECT_EQ(preExposureFor(std::ldexp(double(hd::kHalfFloatMax), -j)), j - kTargetHeadroom) << j;
    // Just above: the ratio is just below 2^j.
    EXPECT_EQ(preExposureFor(std::nextafter(double(hd::kHalfFloatMax), 1e300)), -1 - kTargetHeadroom);
    EXPECT_EQ(preExposureFor(std::nextafter(double(hd::kHalfFloatMax), 0.0)), 0 - kTargetHeadroom);
    // The physical sun: 1.6e9 cd/m^2 sits 2 to 3 EV below 65504 at the target.
    const int sunK = *preExposureFor(1.6e9);
    EXPECT_LE(1.6e9 * std::ldexp(1.0, sunK), double(hd::kHalfFloatMax) / 4.0);
    EXPECT_GT(1.6e9 * std::ldexp(1.0, sunK), double(hd::kHalfFloatMax) / 8.0);
}

TEST(PreExposure, TargetIsClampedAndBlackOrNanHasNone)
{
    EXPECT_EQ(preExposureFor(1e-30), hd::kMaxPreExposure);
    EXPECT_EQ(preExposureFor(1e30), hd::kMinPreExposure);
    EXPECT_EQ(preExposureFor(std::numeric_limits<double>::infinity()), hd::kMinPreExposure);
    EXPECT_FALSE(preExposureFor(0.0));
    EXPECT_FALSE(preExposureFor(-5.0));
    EXPECT_FALSE(preExposureFor(std::numeric_limits<double>::quiet_NaN()));
}

TEST(PreExposure, FirstSampleSetsTheTargetThenDownAtOnceUpOnlyAfterARun)
{
    PreExposureControl control(-16);
    EXPECT_EQ(control.k(), -16);
    control.observe(sample(1000.0, -16));  // the first measurement replaces the guess, upwards too
    const int k0 = *preExposureFor(1000.0);
    EXPECT_EQ(control.k(), k0);
    // The peak doubles: headroom 1 to 2 EV, inside the band: no move.
    EXPECT_FALSE(control.observe(sample(2000.0, k0)));
    // Doubles again: headroom below 1 EV: down at once, to the new target.
    EXPECT_TRUE(control.observe(sample(4000.0, k0)));
    EXPECT_EQ(control.k(), *preExposureFor(4000.0));
    const int k1 = control.k();
    // Falls 3 EV (headroom 5 to 6 EV): up, but only after kRaiseAfterSamples in a row.
    for (int i = 0; i < PreExposureControl::kRaiseAfterSamples - 1; ++i)
        EXPECT_FALSE(control.observe(sample(500.0, k1))) << i;
    EXPECT_TRUE(control.observe(sample(500.0, k1)));
    EXPECT_EQ(control.k(), *preExposureFor(500.0));
    EXPECT_EQ(control.changes(), 3);
}

TEST(PreExposure, RaiseGoesToTheSmallestTargetOfTheRunAndAnyInBandSampleRestartsIt)
{
    PreExposureControl control(0);
    control.observe(sample(4000.0, 0));
    const int k = control.k();
    const int n = PreExposureControl::kRaiseAfterSamples;
    // 400 cd/m^2 leaves 5 to 6 EV of headroom at k (it counts towards a raise), 40 cd/m^2 8 to 9 EV:
    // the raise goes to 400's target, the smaller one.
    for (int i = 0; i < n - 1; ++i)
        control.observe(sample(i == 3 ? 400.0 : 40.0, k));
    control.observe(sample(40.0, k));
    EXPECT_EQ(control.k(), *preExposureFor(400.0));
    // An in-band sample in the middle of a run restarts it.
    PreExposureControl other(0);
    other.observe(sample(4000.0, 0));
    for (int i = 0; i < n - 1; ++i)
        other.observe(sample(40.0, k));
    other.observe(sample(3000.0, k));  // back in the band
    for (int i = 0; i < n - 1; ++i)
        EXPECT_FALSE(other.observe(sample(40.0, k)));
    EXPECT_EQ(other.k(), k);
}

TEST(PreExposure, AWanderingPeakNeverFlipsK)
{
    // 10000 frames whose peak wanders over 3.9 EV (noise, moving highlights) around where the first
    // sample put it (3 EV below 65504 at k): k is set once, never again.
    PreExposureControl control(-10);
    std::mt19937 random(7);
    std::uniform_real_distribution<double> ev(-1.95, 1.95);
    const double base = std::ldexp(double(hd::kHalfFloatMax), -(kTargetHeadroom + 1)) * 1.0001;
    control.observe(sample(base, -10));
    const int k = control.k();
    EXPECT_EQ(k, 0);
    for (int frame = 0; frame < 10000; ++frame)
        control.observe(sample(base * std::exp2(ev(random)), control.k()));
    EXPECT_EQ(control.k(), k);
    EXPECT_EQ(control.changes(), 1);
}

TEST(PreExposure, BlackFramesKeepKAndClipsThePeakDoesNotExplainLowerIt)
{
    PreExposureControl control(3);
    EXPECT_FALSE(control.observe(sample(0.0, 3)));
    EXPECT_EQ(control.k(), 3);
    control.observe(sample(100.0, 3));
    const int k = control.k();
    // A clip at k although the peak fits with 6 EV to spare (a discarding fragment's peak is not
    // recorded): down by kClipStepEv from the k it was stored with.
    EXPECT_TRUE(control.observe(sample(100.0, k, 5)));
    EXPECT_EQ(control.k(), k - PreExposureControl::kClipStepEv);
    // A clip the peak explains moves to the peak's target, not further.
    PreExposureControl explained(0);
    explained.observe(sample(1000.0, 0));
    const int k0 = explained.k();
    const double clipping = std::ldexp(double(hd::kHalfFloatMax), -k0) * 4.0;
    explained.observe(sample(clipping, k0, 12));
    EXPECT_EQ(explained.k(), *preExposureFor(clipping));
}

TEST(PreExposure, KStaysInRange)
{
    PreExposureControl low(-1000);
    EXPECT_EQ(low.k(), hd::kMinPreExposure);
    PreExposureControl high(1000);
    EXPECT_EQ(high.k(), hd::kMaxPreExposure);
    high.observe(sample(std::numeric_limits<double>::infinity(), hd::kMaxPreExposure, 100));
    EXPECT_EQ(high.k(), hd::kMinPreExposure);
    high.observe(sample(1e30, hd::kMinPreExposure, 100));  // clips even at the minimum: nowhere lower
    EXPECT_EQ(high.k(), hd::kMinPreExposure);
}

TEST(PreExposure, InitialGuessKeepsTheSunUnclippedAndIsNeverAboveZero)
{
    scene::Scene s;
    s.sun.elevationDegrees = 40.0f;
    s.sun.illuminance = 100000.0f;
    const int k = scene::initialPreExposure(s);
    EXPECT_LT(double(s.sun.discLuminance()) * std::ldexp(1.0, k), double(hd::kHalfFloatMax) / 2.0);
    s.sun.elevationDegrees = -5.0f;  // night: nothing known; values are stored as they are
    EXPECT_EQ(scene::initialPreExposure(s), 0);
}

TEST(PreExposure, UnexposingIsExactAndLeavesAlpha)
{
    std::vector<float> rgba{65504.0f, 1.0f, 6.1035156e-05f, 0.5f, -2.0f, 0.0f, 3.0f, 1.0f};
    scene::unexposePixels(rgba, -16);
    EXPECT_EQ(rgba[0], 65504.0f * 65536.0f);
    EXPECT_EQ(rgba[2], 4.0f);
    EXPECT_EQ(rgba[3], 0.5f);
    EXPECT_EQ(rgba[4], -131072.0f);
    EXPECT_EQ(rgba[7], 1.0f);
    scene::unexposePixels(rgba, 0);
    EXPECT_EQ(rgba[0], 65504.0f * 65536.0f);
}

TEST(PreExposure, DecodesTheStatisticsWords)
{
    const std::vector<std::uint32_t> words{17u, std::bit_cast<std::uint32_t>(1.6e9f), 0u, 0u};
    const FrameStats stats = scene::decodeFrameStats(words, -15);
    EXPECT_EQ(stats.clippedPixels, 17u);
    EXPECT_EQ(stats.peak, 1.6e9f);
    EXPECT_EQ(stats.preExposure, -15);
    EXPECT_EQ(scene::decodeFrameStats(std::span<const std::uint32_t>(words.data(), 1), 2).clippedPixels, 0u);
}

// Every finite half float h (positive and negative, normal and denormal) in all three channels at
// once, every k in range, with the default and a Radiance picture's weights: the luminance of the
// stored value under the weights x 2^-k equals, bit for bit, the luminance of h x 2^-k under the
// weights. Two random channels join each h so that the sum's rounding is exercised as well.
TEST(PreExposure, StoredLuminanceUnderScaledWeightsIsTheUnexposedLuminanceBitForBit)
{
    std::vector<float> halves;
    for (std::uint32_t bits = 0; bits < 0x7C00u; ++bits) {  // every finite non-negative half
        const int exponent = int(bits >> 10);
        const float mantissa = float(bits & 0x3FFu);
        const float value = exponent == 0 ? std::ldexp(mantissa, -24) : std::ldexp(1024.0f + mantissa, exponent - 25);
        halves.push_back(value);
        halves.push_back(-value);
    }
    ASSERT_EQ(std::ldexp(1023.0f + 1024.0f, 30 - 25), hd::kHalfFloatMax);
    std::mt19937 random(11);
    std::uniform_int_distribution<std::size_t> pick(0, halves.size() - 1);
    image::RadianceHeader radiance;
    radiance.exposure = 2.0;
    for (const post::LuminanceUnits& definition :
         {post::LuminanceUnits{}, post::resolveLuminanceUnits(post::UnitsMode::Auto, 0.0, radiance)}) {
        int mismatches = 0;
        for (int k = hd::kMinPreExposure; k <= hd::kMaxPreExposure; ++k) {
            post::LuminanceUnits frame = definition;
            frame.preExposure = k;
            const hd::LuminanceWeights plain = definition.effectiveWeights();
            const hd::LuminanceWeights scaled = frame.effectiveWeights();
            ASSERT_EQ(scaled.r, std::ldexp(plain.r, -k));
            ASSERT_EQ(frame.cdPerUnit(), std::ldexp(definition.cdPerUnit(), -k));
            for (std::size_t i = 0; i < halves.size(); i += (k % 4 == 0 ? 1 : 7)) {
                const float r = halves[i], g = halves[pick(random)], b = halves[pick(random)];
                const float stored = hd::hdLuminance(r, g, b, scaled);
                const float unexposed = hd::hdLuminance(std::ldexp(r, -k), std::ldexp(g, -k), std::ldexp(b, -k), plain);
                if (std::bit_cast<std::uint32_t>(stored) != std::bit_cast<std::uint32_t>(unexposed) && mismatches++ < 5)
                    ADD_FAILURE() << "k " << k << " rgb " << r << " " << g << " " << b << ": " << stored << " vs "
                                  << unexposed;
            }
        }
        EXPECT_EQ(mismatches, 0);
    }
}

}  // namespace

// hd::hdRoundToHalf (the fused-lighting pass rounds what it stores and bins with it): every half,
// normal or denormal, maps to itself; between two neighbouring halves the midpoint goes to the one
// with the even mantissa and the floats either side of it to the nearer; under half of 2^-24 is 0;
// past 65504 the IEEE rounding's +Inf (from 65520 on); the sign is kept, NaN and Inf pass through.
TEST(PreExposure, RoundToHalfIsRoundToNearestEvenOnEveryInterval)
{
    auto halfValue = [](std::uint32_t bits) {
        const int exponent = int(bits >> 10);
        const float mantissa = float(bits & 0x3FFu);
        return exponent == 0 ? std::ldexp(mantissa, -24) : std::ldexp(1024.0f + mantissa, exponent - 25);
    };
    std::size_t checked = 0;
    for (std::uint32_t bits = 0; bits < 0x7BFFu; ++bits) {  // every finite half with a finite successor
        const float low = halfValue(bits), high = halfValue(bits + 1u);
        for (float sign : {1.0f, -1.0f}) {
            ASSERT_EQ(hd::hdRoundToHalf(sign * low), sign * low) << low;
            const float middle = 0.5f * (low + high);  // exact: a float has 13 more mantissa bits
            const float even = (bits & 1u) == 0u ? low : high;
            ASSERT_EQ(hd::hdRoundToHalf(sign * middle), sign * even) << middle;
            ASSERT_EQ(hd::hdRoundToHalf(sign * std::nextafter(middle, 0.0f)), sign * low) << middle;
            ASSERT_EQ(hd::hdRoundToHalf(sign * std::nextafter(middle, 1e9f)), sign * high) << middle;
            checked += 4;
        }
    }
    EXPECT_EQ(checked, std::size_t(0x7BFF) * 8);
    const float smallest = std::ldexp(1.0f, -24);  // the smallest denormal half
    EXPECT_EQ(hd::hdRoundToHalf(std::ldexp(1.0f, -25)), 0.0f) << "the tie between 0 and 2^-24 goes to 0";
    EXPECT_EQ(hd::hdRoundToHalf(std::nextafter(std::ldexp(1.0f, -25), 1.0f)), smallest);
    EXPECT_EQ(hd::hdRoundToHalf(std::ldexp(3.0f, -25)), 2.0f * smallest) << "1.5 units: to the even 2";
    EXPECT_EQ(hd::hdRoundToHalf(std::ldexp(1.0f, -30)), 0.0f);
    EXPECT_EQ(hd::hdRoundToHalf(1e-40f), 0.0f) << "a float denormal";
    EXPECT_TRUE(std::signbit(hd::hdRoundToHalf(-std::ldexp(1.0f, -30))));
    EXPECT_EQ(hd::hdRoundToHalf(0.0f), 0.0f);
    EXPECT_EQ(hd::hdRoundToHalf(hd::kHalfFloatMax), hd::kHalfFloatMax);
    EXPECT_EQ(hd::hdRoundToHalf(std::nextafter(65520.0f, 0.0f)), hd::kHalfFloatMax);
    EXPECT_EQ(hd::hdRoundToHalf(65520.0f), std::numeric_limits<float>::infinity());
    EXPECT_EQ(hd::hdRoundToHalf(-1e9f), -std::numeric_limits<float>::infinity());
    EXPECT_EQ(hd::hdRoundToHalf(std::numeric_limits<float>::infinity()), std::numeric_limits<float>::infinity());
    EXPECT_TRUE(std::isnan(hd::hdRoundToHalf(std::numeric_limits<float>::quiet_NaN())));
    // hd::kHalfFloatRoundsToMax: what the frame statistics count as clipped is what rounds to 65504.
    EXPECT_EQ(hd::hdRoundToHalf(std::nextafter(hd::kHalfFloatRoundsToMax, 1e9f)), hd::kHalfFloatMax);
    EXPECT_LT(hd::hdRoundToHalf(hd::kHalfFloatRoundsToMax), hd::kHalfFloatMax);
}
