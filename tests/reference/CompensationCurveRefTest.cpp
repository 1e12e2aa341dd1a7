// The percentile operator's exposure compensation curve and cut detection in the CPU reference:
// compensationAt with no point (flat 0), one point (that value everywhere), two points (linear between,
// held at both ends), sanitize's guard against unsorted and non-finite points; the target gets the
// curve's value at the metered log2 L; the histogram mean; a cut found at the frame where the mean
// jumps by more than the threshold, the exposure snapping there (or adapting with the snap off), no
// cut within a shot that changes slowly, and none with the threshold 0.
#include "reference/Scan.h"
#include "reference/TonePercentileRef.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace {

post::CompensationCurve curveOf(std::vector<post::CompensationPoint> points)
{
    return post::sanitize(post::CompensationCurve{std::move(points)});
}

TEST(CompensationCurveRef, NoPointIsFlatZero)
{
    const post::CompensationCurve none;
    for (float x : {-40.0f, -1.0f, 0.0f, 3.5f, 60.0f})
        EXPECT_EQ(post::compensationAt(none, x), 0.0f) << x;
}

TEST(CompensationCurveRef, OnePointHoldsItsValueEverywhere)
{
    const auto curve = curveOf({{2.0f, -1.5f}});
    for (float x : {-30.0f, 1.99f, 2.0f, 2.01f, 30.0f})
        EXPECT_EQ(post::compensationAt(curve, x), -1.5f) << x;
}

TEST(CompensationCurveRef, TwoPointsAreLinearBetweenAndClampedAtBothEnds)
{
    const auto curve = curveOf({{-4.0f, -2.0f}, {4.0f, 2.0f}});
    EXPECT_EQ(post::compensationAt(curve, -10.0f), -2.0f);  // below the first point: its value
    EXPECT_EQ(post::compensationAt(curve, -4.0f), -2.0f);
    EXPECT_FLOAT_EQ(post::compensationAt(curve, 0.0f), 0.0f);
    EXPECT_FLOAT_EQ(post::compensationAt(curve, 1.0f), 0.5f);
    EXPECT_FLOAT_EQ(post::compensationAt(curve, -3.0f), -1.5f);
    EXPECT_EQ(post::compensationAt(curve, 4.0f), 2.0f);
    EXPECT_EQ(post::compensationAt(curve, 25.0f), 2.0f);  // above the last point: its value
    // Three points: each segment its own line (Bevy's documented example curve).
    const auto three = curveOf({{-4.0f, -2.0f}, {0.0f, 0.0f}, {2.0f, 0.0f}, {4.0f, 2.0f}});
    EXPECT_FLOAT_EQ(post::compensationAt(three, -2.0f), -1.0f);
    EXPECT_FLOAT_EQ(post::compensationAt(three, 1.0f), 0.0f);
    EXPECT_FLOAT_EQ(post::compensationAt(three, 3.0f), 1.0f);
}

TEST(CompensationCurveRef, SanitizeSortsAndDropsWhatCannotBeUsed)
{
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const auto curve = curveOf({{4.0f, 1.0f}, {nan, 3.0f}, {-2.0f, 0.5f}, {4.0f, 9.0f}, {1.0f, 1e9f}});
    ASSERT_EQ(curve.points.size(), 3u);
    EXPECT_EQ(curve.points[0], (post::CompensationPoint{-2.0f, 0.5f}));
    EXPECT_EQ(curve.points[1], (post::CompensationPoint{1.0f, post::kCompensationCurveValueLimit}));
    EXPECT_EQ(curve.points[2], (post::CompensationPoint{4.0f, 1.0f}));  // the first of two at 4
    std::vector<post::CompensationPoint> many;
    for (int i = 0; i < 40; ++i)
        many.push_back({float(i), 0.0f});
    EXPECT_EQ(curveOf(many).points.size(), post::kMaxCompensationPoints);
}

TEST(CompensationCurveRef, TheTargetGetsTheCurvesValueAtTheMeteredLog2)
{
    std::vector<std::uint32_t> bins(16, 0u);  // [-8, 8], one bin each
    bins[5] = 100;                            // median -2.5
    const auto cdf = ref::inclusiveScan(bins);
    post::PercentileSettings s;
    s.limitHighlights = false;
    const ref::PercentileTarget flat = ref::percentileExposure(cdf, -8.0, 8.0, s);
    ASSERT_TRUE(flat.valid);
    EXPECT_NEAR(flat.meteredLog2, -2.5, 1e-12);
    s.compensationCurve = curveOf({{-6.0f, -2.0f}, {-2.0f, 0.0f}});  // at -2.5: -0.25
    s.compensationEv = 0.5f;
    const ref::PercentileTarget curved = ref::percentileExposure(cdf, -8.0, 8.0, s);
    EXPECT_NEAR(curved.curveEv, -0.25, 1e-6);
    EXPECT_NEAR(curved.targetEv, flat.targetEv + 0.5 - 0.25, 1e-6);
    // The limits apply after the curve.
    s.maxEv = float(flat.targetEv);
    s.compensationCurve = curveOf({{0.0f, 3.0f}});
    EXPECT_NEAR(ref::percentileExposure(cdf, -8.0, 8.0, s).targetEv, double(s.maxEv), 1e-6);
}

TEST(CompensationCurveRef, HistogramMeanPlacesEachBinAtItsCentre)
{
    std::vector<std::uint32_t> bins(8, 0u);  // [0, 8]
    bins[1] = 30;                            // centre 1.5
    bins[5] = 10;                            // centre 5.5
    EXPECT_NEAR(*ref::histogramMeanLog2(ref::inclusiveScan(bins), 0.0, 8.0), (30 * 1.5 + 10 * 5.5) / 40.0, 1e-12);
    EXPECT_FALSE(ref::histogramMeanLog2(ref::inclusiveScan(std::vector<std::uint32_t>(8, 0u)), 0.0, 8.0));
}

/// A one-bin histogram of 32 bins over [-16, 16] at log2 L = `log2`.
std::vector<std::uint32_t> shotFrame(double log2)
{
    std::vector<std::uint32_t> bins(32, 0u);
    bins[std::size_t(std::clamp(std::floor(log2 + 16.0), 0.0, 31.0))] = 1000u;
    return ref::inclusiveScan(bins);
}

/// Two shots of 20 frames: dark (log2 L -6, brightening 0.1 EV a frame) then bright (+4, also slowly).
std::vector<std::vector<std::uint32_t>> twoShots()
{
    std::vector<std::vector<std::uint32_t>> frames;
    for (int i = 0; i < 20; ++i)
        frames.push_back(shotFrame(-6.0 + 0.1 * i));
    for (int i = 0; i < 20; ++i)
        frames.push_back(shotFrame(4.0 + 0.1 * i));
    return frames;
}

TEST(CompensationCurveRef, ACutIsFoundWhereTheMeanJumpsAndTheExposureSnapsThere)
{
    post::PercentileSettings s;
    s.limitHighlights = false;
    ASSERT_EQ(s.cutThresholdEv, post::kDefaultCutThresholdEv);
    ASSERT_TRUE(s.snapAtCuts);
    ref::PercentileState state;
    std::vector<std::size_t> cuts;
    const auto frames = twoShots();
    for (std::size_t i = 0; i < frames.size(); ++i) {
        state = ref::stepPercentile(state, frames[i], -16.0, 16.0, 1.0 / 24.0, s, true);
        if (state.cut) {
            cuts.push_back(i);
            EXPECT_NEAR(state.cutDistanceEv, 9.0, 1.0 + 1e-9) << "the bins moved from -4.5 to 4.5 or so";
            const ref::PercentileTarget target = ref::percentileExposure(frames[i], -16.0, 16.0, s);
            EXPECT_EQ(state.exposureEv, target.targetEv) << "snapped to the new shot's target";
        } else if (i > 0) {
            EXPECT_LE(state.cutDistanceEv, 1.0) << "within a shot the mean moves by at most a bin: frame " << i;
        }
    }
    EXPECT_EQ(cuts, std::vector<std::size_t>{20});
    EXPECT_EQ(state.cutCount, 1u);
}

TEST(CompensationCurveRef, WithoutTheSnapTheExposureAdaptsAcrossTheCut)
{
    post::PercentileSettings s;
    s.limitHighlights = false;
    s.snapAtCuts = false;
    ref::PercentileState state;
    const auto frames = twoShots();
    double before = 0.0;
    for (std::size_t i = 0; i <= 20; ++i) {
        if (i == 20)
            before = state.exposureEv;
        state = ref::stepPercentile(state, frames[i], -16.0, 16.0, 1.0 / 24.0, s, true);
    }
    EXPECT_TRUE(state.cut) << "still found and counted";
    EXPECT_NEAR(state.exposureEv, before - s.speedUpEv / 24.0, 1e-9) << "one linear step at the up speed";
}

TEST(CompensationCurveRef, ZeroThresholdOrNoFootageFindsNoCut)
{
    for (bool footage : {true, false}) {
        post::PercentileSettings s;
        if (footage)
            s.cutThresholdEv = 0.0f;
        ref::PercentileState state;
        for (const auto& frame : twoShots()) {
            state = ref::stepPercentile(state, frame, -16.0, 16.0, 1.0 / 24.0, s, footage);
            EXPECT_FALSE(state.cut);
            EXPECT_FALSE(state.meanLog2);
        }
        EXPECT_EQ(state.cutCount, 0u);
    }
}

TEST(CompensationCurveRef, AnEmptyFrameIsNoCutAndKeepsTheMean)
{
    post::PercentileSettings s;
    ref::PercentileState state = ref::stepPercentile({}, shotFrame(-3.0), -16.0, 16.0, 1.0 / 24.0, s, true);
    ASSERT_TRUE(state.meanLog2);
    const double mean = *state.meanLog2;
    state = ref::stepPercentile(state, ref::inclusiveScan(std::vector<std::uint32_t>(32, 0u)), -16.0, 16.0, 1.0 / 24.0,
                                s, true);
    EXPECT_FALSE(state.cut);
    EXPECT_EQ(*state.meanLog2, mean);
    state = ref::stepPercentile(state, shotFrame(-2.5), -16.0, 16.0, 1.0 / 24.0, s, true);
    EXPECT_FALSE(state.cut) << "compared with the last usable frame";
}

}  // namespace
