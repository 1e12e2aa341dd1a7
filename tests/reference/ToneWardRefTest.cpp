// CPU reference of Ward 1997 / pcond: the known-answer properties of algorithms.md 1.5 (W1-W7) and
// the loop structure (tolerance against the current total, bounded passes, cumf of the last pass).
#include "reference/ToneWardRef.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace {

post::WardSettings coreSettings(double displayMin = 1.0, double displayMax = 100.0)
{
    post::WardSettings s;
    s.displayMin = float(displayMin);
    s.displayMax = float(displayMax);
    s.duplicateBottomBin = false;
    return s;
}

ref::WardHistogram histogramOver(std::vector<double> bins, double bwmin, double bwmax, double bwavg = 0.0)
{
    ref::WardHistogram h;
    h.valid = true;
    h.bins = std::move(bins);
    h.bwmin = bwmin;
    h.bwmax = bwmax;
    h.bwavg = bwavg;
    return h;
}

TEST(ToneWardRef, W1RangeThatFitsUsesTheLinearOperator)
{
    // World 50:1 on a 100:1 display; log-average 10 cd/m^2 -> 10 cd/m^2 (sqrt(1*100)) = display 0.1.
    const auto h = histogramOver(std::vector<double>(100, 3.0), 0.0, std::log(50.0), std::log(10.0));
    const ref::WardResult r = ref::wardCurve(h, coreSettings());
    EXPECT_EQ(r.outcome, ref::WardOutcome::RangeFits);
    EXPECT_EQ(r.passes, 0);
    EXPECT_NEAR(r.linearScale, 10.0 / 10.0 / 100.0, 1e-12);
    EXPECT_NEAR(ref::wardDisplay(r, coreSettings(), 10.0), 0.1, 1e-12);
    // Exactly the display range still fits (<=).
    const auto edge = histogramOver(std::vector<double>(100, 3.0), 0.0, std::log(100.0), 0.0);
    EXPECT_EQ(ref::wardCurve(edge, coreSettings()).outcome, ref::WardOutcome::RangeFits);
}

TEST(ToneWardRef, W2UniformLogHistogramGivesAPowerLaw)
{
    // World 1e4:1 from 1e-2 cd/m^2, display 1..100: Ld = Ldmin (Lw / Lmin)^(D/R), D/R = 0.5.
    const double bwmin = std::log(1e-2);
    const auto h = histogramOver(std::vector<double>(100, 7.0), bwmin, bwmin + std::log(1e4));
    const ref::WardResult r = ref::wardCurve(h, coreSettings());
    ASSERT_EQ(r.outcome, ref::WardOutcome::Histogram);
    EXPECT_EQ(r.passes, 1);  // nothing exceeds the ceiling: T/n < T (R/n) / D
    for (double Lw : {0.011, 0.05, 0.3, 1.0, 7.5, 42.0, 99.0}) {
        const double Ld = 1.0 * std::pow(Lw / 1e-2, 0.5);
        EXPECT_NEAR(ref::wardDisplay(r, coreSettings(), Lw), (Ld - 1.0) / 99.0, 1e-12) << "Lw " << Lw;
    }
    EXPECT_DOUBLE_EQ(ref::wardDisplay(r, coreSettings(), 1e-3), 0.0);  // below bwmin -> Ldmin
    EXPECT_DOUBLE_EQ(ref::wardDisplay(r, coreSettings(), 1e3), 1.0);   // above bwmax -> Ldmax
}

TEST(ToneWardRef, W3OneOccupiedBinFailsToTheLinearOperator)
{
    std::vector<double> bins(100, 0.0);
    bins[40] = 1000.0;
    const auto h = histogramOver(bins, std::log(1e-2), std::log(1e2), std::log(0.5));
    const ref::WardResult r = ref::wardCurve(h, coreSettings());
    EXPECT_EQ(r.outcome, ref::WardOutcome::Failed);
    EXPECT_LE(r.finalTotal, 0.025 * r.originalTotal);
    // Each pass trims the spike to db/D of the current total: db/D = ln(1e4)/100/ln(100) = 0.02, so one
    // pass reaches 20 <= 25 and the second check fails.
    EXPECT_EQ(r.passes, 1);
    EXPECT_NEAR(r.linearScale, 10.0 / 0.5 / 100.0, 1e-12);
}

TEST(ToneWardRef, W4CeilingFractions)
{
    const auto fraction = [](double worldRatio, double displayRatio) {
        const auto h = histogramOver(std::vector<double>(100, 1.0), 0.0, std::log(worldRatio));
        return ref::wardCurve(h, coreSettings(100.0 / displayRatio, 100.0)).ceilingFraction;
    };
    EXPECT_NEAR(fraction(1e4, 100.0), 0.020000, 1e-6);
    EXPECT_NEAR(fraction(1e6, 100.0), 0.030000, 1e-6);
    EXPECT_NEAR(fraction(1e4, 32.0), 0.026575, 1e-6);
}

TEST(ToneWardRef, W5ThresholdVersusIntensityTable)
{
    const std::vector<std::pair<double, double>> table = {
        {1e-5, 0.00138}, {1e-3, 0.00184003}, {0.01, 0.00547234}, {0.1, 0.0402717},  {0.5, 0.201359},
        {1.0, 0.391302}, {10.0, 1.07190},    {100.0, 5.55904},   {1000.0, 55.5904}, {1e4, 555.904}};
    for (const auto& [La, expected] : table)
        EXPECT_NEAR(ref::htcontrs(La), expected, expected * 2e-5) << "La " << La;
    // The two discontinuities, on both sides.
    EXPECT_NEAR(ref::htcontrs(std::pow(10.0, -1.44 - 1e-9)), 0.015031, 2e-6);
    EXPECT_NEAR(ref::htcontrs(std::pow(10.0, -1.44 + 1e-9)), 0.014622, 2e-6);
    EXPECT_NEAR(ref::htcontrs(std::pow(10.0, 1.9 - 1e-9)), 4.44772, 2e-5);
    EXPECT_NEAR(ref::htcontrs(std::pow(10.0, 1.9 + 1e-9)), 4.41571, 2e-5);
}

TEST(ToneWardRef, W6CeilingFactorTable)
{
    EXPECT_NEAR(ref::wardCeilingFactor(1000.0, 50.0), 1.110963, 2e-6);
    EXPECT_NEAR(ref::wardCeilingFactor(1000.0, 10.0), 1.928214, 2e-6);
    EXPECT_NEAR(ref::wardCeilingFactor(0.01, 1.0), 0.715053, 2e-6);
    for (double L : {1e-4, 0.03, 1.0, 77.0})
        EXPECT_NEAR(ref::wardCeilingFactor(L, L), 1.0, 1e-12);
}

TEST(ToneWardRef, W7FovealGridSizes)
{
    const double nan = std::nan("");
    const auto grid = [](int w, int h, double fov) {
        const ref::FovealGrid g = ref::fovealGridSize(w, h, fov);
        return std::make_pair(g.width, g.height);
    };
    // No usable view: pcond's 40 degrees on the long axis.
    EXPECT_EQ(grid(1920, 1080, nan), std::make_pair(42, 23));
    EXPECT_EQ(grid(1024, 768, nan), std::make_pair(42, 31));
    EXPECT_EQ(grid(512, 512, nan), std::make_pair(42, 42));
    EXPECT_EQ(grid(1080, 1920, 3.0), std::make_pair(23, 42));  // <= 5 degrees is "no view" too
    // The camera's vertical field of view: the same view given as fovY.
    const double fovY = 2.0 * std::atan(std::tan(20.0 * M_PI / 180.0) * 1080.0 / 1920.0) * 180.0 / M_PI;
    EXPECT_EQ(grid(1920, 1080, fovY), std::make_pair(42, 23));
    EXPECT_EQ(grid(1920, 1080, 60.0), std::make_pair(118, 66));
    // At least 2, at most the pixels.
    EXPECT_EQ(grid(3, 1, 40.0), std::make_pair(3, 1));
    EXPECT_EQ(grid(1000, 1000, 6.0), std::make_pair(6, 6));
}

TEST(ToneWardRef, HistogramFollowsPcondRangeRules)
{
    post::WardSettings s = coreSettings();
    s.bins = 10;
    // Samples 1, 10, 100: lwmax = 101, no duplication: bwmin = ln 1.
    const std::vector<double> samples = {1.0, 10.0, 100.0, std::nan(""), INFINITY};
    ref::WardHistogram h = ref::wardHistogram(samples, s);
    ASSERT_TRUE(h.valid);
    EXPECT_NEAR(h.bwmin, 0.0, 1e-12);
    EXPECT_NEAR(h.bwmax, std::log(101.0), 1e-12);
    EXPECT_NEAR(h.bwavg, std::log(10.0), 1e-12);
    EXPECT_DOUBLE_EQ(h.bins[0] + h.bins[4] + h.bins[9], 3.0);
    // Duplication: the range grows by one bin at the bottom.
    s.duplicateBottomBin = true;
    h = ref::wardHistogram(samples, s);
    EXPECT_TRUE(h.duplicateBottom);
    EXPECT_NEAR(h.bwmax - h.bwmin, std::log(101.0) * 10.0 / 9.0, 1e-12);
    EXPECT_EQ(h.bins[0], 0.0);
    EXPECT_EQ(h.bins[1], 1.0);
    // A sample below LMIN pins the bottom at LMIN and disables the duplication.
    const std::vector<double> withBlack = {0.0, 1.0, 100.0};
    h = ref::wardHistogram(withBlack, s);
    EXPECT_FALSE(h.duplicateBottom);
    EXPECT_NEAR(h.bwmin, std::log(1e-7), 1e-12);
    EXPECT_NEAR(h.bwavg, std::log(10.0), 1e-12);  // the black sample is not counted
    // Nothing above LMIN: no samples.
    EXPECT_FALSE(ref::wardHistogram(std::vector<double>{0.0, 1e-8}, s).valid);
    EXPECT_EQ(ref::wardCurve(ref::wardHistogram(std::vector<double>{0.0}, s), s).outcome, ref::WardOutcome::NoSamples);
}

TEST(ToneWardRef, DuplicationMovesHalfOfBinOneIntoBinZero)
{
    post::WardSettings s = coreSettings();
    auto h = histogramOver(std::vector<double>(100, 0.0), 0.0, std::log(1e5));
    h.bins[1] = 10.0;
    h.bins[60] = 10.0;
    h.duplicateBottom = true;
    const ref::WardResult r = ref::wardCurve(h, s);
    EXPECT_DOUBLE_EQ(r.originalTotal, 20.0);
    // cumf of the final pass: bin 0 holds 5 before trimming, the mapping starts from it.
    EXPECT_GT(r.cumf[1], 0.0);
}

TEST(ToneWardRef, LoopEndsByPcondRulesOnRandomHistograms)
{
    std::mt19937 random(11);
    for (int trial = 0; trial < 200; ++trial) {
        const int n = 10 + int(random() % 300);
        std::vector<double> bins(std::size_t(n), 0.0);
        std::exponential_distribution<double> weight(0.2);
        for (double& b : bins)
            b = random() % 3 == 0 ? 0.0 : std::floor(std::pow(weight(random), 3.0));
        bins[std::size_t(random() % std::uint32_t(n))] += 5000.0;
        const double worldRange = std::log(10.0) * (2.5 + (random() % 80) / 10.0);
        post::WardSettings s = coreSettings();
        s.humanContrast = trial % 2 == 1;
        ref::WardResult r = ref::wardCurve(histogramOver(bins, std::log(1e-3), std::log(1e-3) + worldRange, 0.0), s);
        ASSERT_NE(r.outcome, ref::WardOutcome::NoSamples);
        EXPECT_LE(r.passes, 147) << "pcond's loop cannot run longer";
        if (r.outcome == ref::WardOutcome::Histogram) {
            // The last pass trimmed at most 2.5 % of its total and the CDF is monotone from 0 to 1.
            double trimmedTotal = 0.0;
            for (double v : r.trimmed)
                trimmedTotal += v;
            EXPECT_GE(trimmedTotal, (1.0 - 0.025) * r.finalTotal - 1e-9);
            EXPECT_DOUBLE_EQ(r.cumf.front(), 0.0);
            EXPECT_DOUBLE_EQ(r.cumf.back(), 1.0);
            for (std::size_t i = 1; i < r.cumf.size(); ++i)
                EXPECT_GE(r.cumf[i], r.cumf[i - 1]);
            if (!s.humanContrast)
                for (std::size_t i = 0; i < r.trimmed.size(); ++i)
                    EXPECT_LE(r.trimmed[i], r.ceiling[i] + 1e-9);
        }
    }
}

TEST(ToneWardRef, HumanContrastCeilingScalesTheLinearOne)
{
    post::WardSettings s = coreSettings();
    s.humanContrast = true;
    const double bwmin = std::log(1e-2);
    const auto h = histogramOver(std::vector<double>(100, 7.0), bwmin, bwmin + std::log(1e6));
    const ref::WardResult r = ref::wardCurve(h, s);
    ASSERT_EQ(r.outcome, ref::WardOutcome::Histogram);
    // The last pass's ceilings come from its total and its cumf (the one the mapping uses).
    const double db = std::log(1e6) / 100.0;
    for (int i : {0, 30, 77, 99}) {
        const double Lw = std::exp(bwmin + (i + 0.5) * db);
        const double Ld = std::exp(std::log(100.0) * 0.5 * (r.cumf[i] + r.cumf[i + 1]));
        const double linear = r.finalTotal * db / std::log(100.0);
        EXPECT_NEAR(r.ceiling[std::size_t(i)], linear * ref::wardCeilingFactor(Lw, Ld), 1e-9) << "bin " << i;
    }
    // Dark bins (rod vision) get a lower ceiling than the linear one, so the curve differs from the power law.
    EXPECT_LT(r.ceiling[0], r.finalTotal * db / std::log(100.0));
}

}  // namespace
