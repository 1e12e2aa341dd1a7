// CPU reference of percentile auto-exposure: percentiles on known distributions (uniform, two
// spikes, interpolation inside a bin), band means, targets, the adaptation at its set speeds
// (fixed, zero, negative, NaN, variable and huge dt; linear far, exponential near) and NaN frames.
#include "reference/Scan.h"
#include "reference/TonePercentileRef.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace {

TEST(TonePercentileRef, UniformDistribution)
{
    const auto cdf = ref::inclusiveScan(std::vector<std::uint32_t>(10, 10u));  // [0, 10] log2, 10 bins
    EXPECT_NEAR(*ref::percentile(cdf, 50.0, 0.0, 10.0), 5.0, 1e-12);
    EXPECT_NEAR(*ref::percentile(cdf, 25.0, 0.0, 10.0), 2.5, 1e-12);
    EXPECT_NEAR(*ref::percentile(cdf, 99.0, 0.0, 10.0), 9.9, 1e-12);
    EXPECT_NEAR(*ref::percentile(cdf, 100.0, 0.0, 10.0), 10.0, 1e-12);
    EXPECT_NEAR(*ref::percentile(cdf, 0.0, 0.0, 10.0), 0.0, 1e-12);
}

TEST(TonePercentileRef, TwoSpikesAndInterpolationInsideABin)
{
    std::vector<std::uint32_t> bins(10, 0u);
    bins[2] = 100;
    bins[7] = 300;
    const auto cdf = ref::inclusiveScan(bins);                         // range [-5, 5]: bin i spans [-5 + i, -4 + i]
    EXPECT_NEAR(*ref::percentile(cdf, 25.0, -5.0, 5.0), -2.0, 1e-12);  // top of bin 2
    EXPECT_NEAR(*ref::percentile(cdf, 50.0, -5.0, 5.0), 2.0 + 1.0 / 3.0, 1e-12);  // a third into bin 7
    EXPECT_NEAR(*ref::percentile(cdf, 0.0, -5.0, 5.0), -3.0, 1e-12);   // lower edge of the first occupied bin
    EXPECT_NEAR(*ref::percentile(cdf, 12.5, -5.0, 5.0), -2.5, 1e-12);  // middle of bin 2
    std::vector<std::uint32_t> one(8, 0u);
    one[3] = 40;
    EXPECT_NEAR(*ref::percentile(ref::inclusiveScan(one), 50.0, 0.0, 8.0), 3.5, 1e-12);
    EXPECT_NEAR(*ref::percentile(ref::inclusiveScan(one), 90.0, 0.0, 8.0), 3.9, 1e-12);
}

TEST(TonePercentileRef, EmptyHistogramHasNoPercentile)
{
    const auto cdf = ref::inclusiveScan(std::vector<std::uint32_t>(16, 0u));
    EXPECT_FALSE(ref::percentile(cdf, 50.0, 0.0, 1.0));
    EXPECT_FALSE(ref::bandMeanLog2(cdf, 50.0, 95.0, 0.0, 1.0));
    EXPECT_FALSE(ref::percentileExposure(cdf, 0.0, 1.0, {}).valid);
}

TEST(TonePercentileRef, BandMean)
{
    const auto uniform = ref::inclusiveScan(std::vector<std::uint32_t>(10, 10u));
    EXPECT_NEAR(*ref::bandMeanLog2(uniform, 50.0, 95.0, 0.0, 10.0), (5.0 + 9.5) / 2.0, 1e-12);
    // h = [10, 20, 30, 40] over [-8, 4], 20 %..90 %: shares 10 @ 1.75, 30 @ 2.5, 30 @ 3.375 (bins).
    const auto cdf = ref::inclusiveScan({10, 20, 30, 40});
    const double position = (10 * 1.75 + 30 * 2.5 + 30 * 3.375) / 70.0;
    EXPECT_NEAR(*ref::bandMeanLog2(cdf, 20.0, 90.0, -8.0, 4.0), -8.0 + 3.0 * position, 1e-12);
    // A band of zero width is the percentile.
    EXPECT_NEAR(*ref::bandMeanLog2(cdf, 40.0, 40.0, -8.0, 4.0), *ref::percentile(cdf, 40.0, -8.0, 4.0), 1e-12);
}

TEST(TonePercentileRef, KeyTargetWithHighlightLimitCompensationAndLimits)
{
    const auto cdf = ref::inclusiveScan(std::vector<std::uint32_t>(20, 5u));  // uniform over [-10, 10]
    post::PercentileSettings s;
    s.limitHighlights = false;
    ref::PercentileTarget t = ref::percentileExposure(cdf, -10.0, 10.0, s);
    ASSERT_TRUE(t.valid);
    EXPECT_NEAR(t.meteredLog2, 0.0, 1e-12);
    EXPECT_NEAR(t.targetEv, std::log2(0.18), 1e-6);
    s.limitHighlights = true;                                 // p99 at 9.8 must not exceed white 1.0: E <= -9.8
    s.maxHighlightPullEv = post::kMaxHighlightPullUnbounded;  // however far that pulls the median down
    t = ref::percentileExposure(cdf, -10.0, 10.0, s);
    EXPECT_NEAR(t.highLog2, 9.8, 1e-12);
    EXPECT_NEAR(t.targetEv, -9.8, 1e-6);
    s.compensationEv = 1.0;
    EXPECT_NEAR(ref::percentileExposure(cdf, -10.0, 10.0, s).targetEv, -8.8, 1e-6);
    s.minEv = -4.0;
    EXPECT_NEAR(ref::percentileExposure(cdf, -10.0, 10.0, s).targetEv, -4.0, 1e-6);
    s = {};
    s.metering = post::PercentileMetering::BandAverage;
    t = ref::percentileExposure(cdf, -10.0, 10.0, s);
    EXPECT_NEAR(t.targetEv, std::log2(0.18) - (0.0 + 9.0) / 2.0, 1e-6);
}

TEST(TonePercentileRef, HighlightLimitPullsTheKeyDownByAtMostTheBound)
{
    // Uniform over [-10, 10]: median 0 (key exposure log2 0.18 = -2.474), p99 at 9.8 (white: -9.8).
    const auto cdf = ref::inclusiveScan(std::vector<std::uint32_t>(20, 5u));
    const double keyEv = std::log2(0.18);
    post::PercentileSettings s;
    EXPECT_NEAR(s.maxHighlightPullEv, std::log2(0.18 / 0.03), 1e-6);  // Valve's median floor 0.03 vs the key
    // The default: the limit wants -9.8 but may only pull 2.585 EV: the median lands at 0.03.
    ref::PercentileTarget t = ref::percentileExposure(cdf, -10.0, 10.0, s);
    ASSERT_TRUE(t.valid);
    EXPECT_NEAR(t.targetEv, std::log2(0.03), 1e-6);
    EXPECT_NEAR(std::exp2(t.targetEv + t.meteredLog2), 0.03, 1e-7);
    // Other bounds: 0 (the limit cannot darken), 4 EV, and one wider than the limit's pull (the limit decides).
    s.maxHighlightPullEv = 0.0f;
    EXPECT_NEAR(ref::percentileExposure(cdf, -10.0, 10.0, s).targetEv, keyEv, 1e-6);
    s.maxHighlightPullEv = 4.0f;
    EXPECT_NEAR(ref::percentileExposure(cdf, -10.0, 10.0, s).targetEv, keyEv - 4.0, 1e-6);
    s.maxHighlightPullEv = 10.0f;
    EXPECT_NEAR(ref::percentileExposure(cdf, -10.0, 10.0, s).targetEv, -9.8, 1e-6);
    // Compensation and the exposure limits apply after the bound.
    s.maxHighlightPullEv = 4.0f;
    s.compensationEv = -1.0f;
    EXPECT_NEAR(ref::percentileExposure(cdf, -10.0, 10.0, s).targetEv, keyEv - 5.0, 1e-6);
    s.minEv = -7.0f;
    EXPECT_NEAR(ref::percentileExposure(cdf, -10.0, 10.0, s).targetEv, -7.0, 1e-6);
    // The bound never brightens: with highlights already below white the key decides. Uniform over
    // [-2, 1] in 3 bins: median -0.5, p99 0.97, white target -0.97 > key target -1.974.
    s = {};
    const auto narrow = ref::inclusiveScan({10, 10, 10});
    t = ref::percentileExposure(narrow, -2.0, 1.0, s);
    EXPECT_NEAR(t.meteredLog2, -0.5, 1e-12);
    EXPECT_NEAR(t.targetEv, keyEv + 0.5, 1e-6);
    // The limit pulls less than the bound: uniform over [5, 10] (median 7.5, p99 9.95), white 0.25: the
    // white target -2 - 9.95 = -11.95 is 1.976 EV below the key target -9.974, so the limit decides.
    const auto high = ref::inclusiveScan({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5, 5, 5, 5, 5});
    s.whitePoint = 0.25f;
    t = ref::percentileExposure(high, -10.0, 10.0, s);
    EXPECT_NEAR(t.meteredLog2, 7.5, 1e-12);
    EXPECT_NEAR(t.highLog2, 9.95, 1e-12);
    EXPECT_NEAR(t.targetEv, -2.0 - 9.95, 1e-6);
    // Band-average metering has no highlight limit, so no bound either.
    s = {};
    s.metering = post::PercentileMetering::BandAverage;
    s.maxHighlightPullEv = 0.0f;
    EXPECT_NEAR(ref::percentileExposure(cdf, -10.0, 10.0, s).targetEv, keyEv - 4.5, 1e-6);
}

TEST(TonePercentileRef, HighlightPullBoundIsSanitised)
{
    post::PercentileSettings s;
    s.maxHighlightPullEv = std::nanf("");
    EXPECT_EQ(post::sanitize(s).maxHighlightPullEv, post::kDefaultMaxHighlightPullEv);
    s.maxHighlightPullEv = std::numeric_limits<float>::infinity();
    EXPECT_EQ(post::sanitize(s).maxHighlightPullEv, post::kMaxHighlightPullUnbounded);
    s.maxHighlightPullEv = -std::numeric_limits<float>::infinity();
    EXPECT_EQ(post::sanitize(s).maxHighlightPullEv, post::kDefaultMaxHighlightPullEv);
    s.maxHighlightPullEv = -3.0f;
    EXPECT_EQ(post::sanitize(s).maxHighlightPullEv, 0.0f);
    s.maxHighlightPullEv = 1e9f;
    EXPECT_EQ(post::sanitize(s).maxHighlightPullEv, post::kMaxHighlightPullUnbounded);
}

TEST(TonePercentileRef, AdaptationLinearFarExponentialNear)
{
    const post::PercentileSettings s;  // up 3, down 1, transition 1.5
    // Scene brightens (exposure falls) 5 EV: linear at 3 EV/s.
    EXPECT_NEAR(ref::adaptExposure(0.0, -5.0, 0.5, s), -1.5, 1e-12);
    // Scene darkens (exposure rises): 1 EV/s.
    EXPECT_NEAR(ref::adaptExposure(0.0, 4.0, 1.0 / 4.0, s), 0.25, 1e-12);
    // Within the transition distance: exponential with rate speed / transition.
    EXPECT_NEAR(ref::adaptExposure(0.0, 1.0, 0.5, s), 1.0 - std::exp(-0.5 / 1.5), 1e-12);
    // Crossing into the exponential zone within one step: 0.3 s linear then 0.15 s exponential.
    EXPECT_NEAR(ref::adaptExposure(0.0, -2.4, 0.45, s), -2.4 + 1.5 * std::exp(-3.0 * 0.15 / 1.5), 1e-12);
}

TEST(TonePercentileRef, AdaptationDtCases)
{
    const post::PercentileSettings s;
    EXPECT_EQ(ref::adaptExposure(1.0, -4.0, 0.0, s), 1.0);
    EXPECT_EQ(ref::adaptExposure(1.0, -4.0, -0.1, s), 1.0);
    EXPECT_EQ(ref::adaptExposure(1.0, -4.0, std::nan(""), s), 1.0);
    // Huge dt is clamped to 0.5 s.
    EXPECT_DOUBLE_EQ(ref::adaptExposure(1.0, -4.0, 100.0, s), ref::adaptExposure(1.0, -4.0, 0.5, s));
    // Frame-rate independent: 30 steps of 1/60 s, a variable sequence and one step of 0.5 s agree.
    for (double target : {-6.0, -1.0, 0.7, 5.0}) {
        double fixed = 0.0;
        for (int i = 0; i < 30; ++i)
            fixed = ref::adaptExposure(fixed, target, 1.0 / 60.0, s);
        double variable = 0.0;
        for (double dt : {0.1, 0.05, 0.2, 0.01, 0.09, 0.05})
            variable = ref::adaptExposure(variable, target, dt, s);
        const double single = ref::adaptExposure(0.0, target, 0.5, s);
        EXPECT_NEAR(fixed, single, 1e-9) << target;
        EXPECT_NEAR(variable, single, 1e-9) << target;
    }
    // Converges at the set speeds: after 1 s from 6 EV away (linear all the time) 3 EV were covered.
    double e = 0.0;
    for (int i = 0; i < 60; ++i)
        e = ref::adaptExposure(e, -6.0, 1.0 / 60.0, s);
    EXPECT_NEAR(e, -3.0, 1e-9);
    // Never overshoots, and gets there.
    for (int i = 0; i < 600; ++i) {
        e = ref::adaptExposure(e, -6.0, 1.0 / 60.0, s);
        EXPECT_GE(e, -6.0);
    }
    EXPECT_NEAR(e, -6.0, 1e-3);
}

TEST(TonePercentileRef, FirstFrameSnapsAndNanFramesKeepTheState)
{
    const auto cdf = ref::inclusiveScan(std::vector<std::uint32_t>(20, 5u));
    post::PercentileSettings s;
    s.limitHighlights = false;
    ref::PercentileState state;
    state = ref::stepPercentile(state, cdf, -10.0, 10.0, 1.0 / 60.0, s);
    ASSERT_TRUE(state.valid);
    EXPECT_NEAR(state.exposureEv, std::log2(0.18), 1e-6);  // snapped, no flash
    const auto empty = ref::inclusiveScan(std::vector<std::uint32_t>(20, 0u));
    const ref::PercentileState held = ref::stepPercentile(state, empty, -10.0, 10.0, 1.0 / 60.0, s);
    EXPECT_EQ(held.exposureEv, state.exposureEv);
    const ref::PercentileState nanRange = ref::stepPercentile(state, cdf, std::nan(""), 10.0, 1.0 / 60.0, s);
    EXPECT_TRUE(std::isfinite(nanRange.exposureEv));
    EXPECT_EQ(nanRange.exposureEv, state.exposureEv);
}

}  // namespace
