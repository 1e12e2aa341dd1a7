// The CPU reference of pcond's sampling (reference/WardPcondRef) on hand-computed cases: drand48's
// unseeded sequence, getlumsamp's picks (with a spent draw), pfilt's box ranges and RGBE rounding,
// pcond's default view, comphist's weights, the ceiling loop (many passes, failure), the linear
// fallback and gethisto; plus WardPcondPlan (the GPU path's CPU side) against the reference.
#include "post/tonemap/WardPcondPlan.h"
#include "reference/WardPcondRef.h"
#include "util/Drand48.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <numeric>
#include <random>

namespace {

TEST(Drand48, UnseededSequenceIsGlibcs)
{
    // glibc's drand48() in a fresh process (X0 = 0): printed with %.17g.
    util::Drand48 random;
    EXPECT_EQ(random.next(), 3.907985046680551e-14);  // 11 / 2^48
    EXPECT_EQ(random.next(), 0.00098539467465030839);
    EXPECT_EQ(random.next(), 0.041631001594613082);
    EXPECT_EQ(random.next(), 0.17664264254291595);
    EXPECT_EQ(random.next(), 0.36460224839060729);
    EXPECT_EQ(random.next(), 0.091330612112294318);
}

TEST(Drand48, MatchesErand48FromAZeroState)
{
    unsigned short state[3] = {0, 0, 0};
    util::Drand48 random;
    for (int i = 0; i < 10000; ++i)
        ASSERT_EQ(random.next(), erand48(state)) << "draw " << i;
}

TEST(WardPcondRef, SamplePixelsFollowGetlumsamp)
{
    // 10x1, 4 samples: draws 1-3 (tiny) take the next pixel from the right; draw 4 (0.17664)
    // passes 1/7 = 0.142857 and stops at 0.285714: skip one pixel.
    using Picks = std::vector<std::pair<int, int>>;
    EXPECT_EQ(ref::pcondSamplePixels(10, 1, 4), (Picks{{9, 0}, {8, 0}, {7, 0}, {5, 0}}));
    // 6x3, 5 samples: (5,0) (4,0) (3,0), then draw 4 skips one to (1,0); draw 5 (0.364602) needs a
    // skip of 5 with one pixel left in the scanline: spent; draw 6 (0.091331) on scanline 1 -> (4,1).
    EXPECT_EQ(ref::pcondSamplePixels(6, 3, 5), (Picks{{5, 0}, {4, 0}, {3, 0}, {1, 0}, {4, 1}}));
    EXPECT_TRUE(ref::pcondSamplePixels(0, 3, 5).empty());
}

TEST(WardPcondRef, PlanPicksTheSamePixelsAsTheReference)
{
    for (auto [w, h] : {std::pair{1, 1}, {7, 5}, {333, 200}, {1920, 1080}}) {
        const post::WardPcondPlan plan = post::WardPcondPlan::make(w, h, {}, 1.0);
        const int count = ref::pcondPointSampleCount(w, h, plan.grid);
        const auto picks = ref::pcondSamplePixels(w, h, count);
        ASSERT_EQ(plan.positions.size(), picks.size()) << w << "x" << h;
        for (std::size_t i = 0; i < picks.size(); ++i) {
            ASSERT_EQ(int(plan.positions[i] & 0xffffu), picks[i].first) << i;
            ASSERT_EQ(int(plan.positions[i] >> 16u), picks[i].second) << i;
        }
    }
}

TEST(WardPcondRef, DefaultViewAndGrid)
{
    // No view: 40 degrees on the longer axis (algorithms.md W7: 1920x1080 -> 42x23).
    EXPECT_EQ(ref::pcondFovealGrid(1920, 1080, {}, 1.0), (ref::PcondGrid{42, 23}));
    EXPECT_EQ(ref::pcondFovealGrid(1024, 768, {}, 1.0), (ref::PcondGrid{42, 31}));
    EXPECT_EQ(ref::pcondFovealGrid(512, 512, {}, 1.0), (ref::PcondGrid{42, 42}));
    EXPECT_EQ(ref::pcondFovealGrid(768, 1024, {}, 1.0), (ref::PcondGrid{31, 42}));
    EXPECT_EQ(ref::pcondFovealGrid(4, 4, {}, 1.0), (ref::PcondGrid{42, 42}));  // pcond does not cap by pixels
    // A perspective VIEW of 60 x 40 degrees: (int)(2 tan(30 deg) / (pi/180) + .5) = 66, and 42.
    EXPECT_EQ(ref::pcondFovealGrid(600, 400, {true, 'v', 60.0, 40.0}, 1.0), (ref::PcondGrid{66, 42}));
    // A hemispherical fisheye of 180 degrees: 2 sin(90 deg) / (pi/180) = 114.6 -> 115.
    EXPECT_EQ(ref::pcondFovealGrid(500, 500, {true, 'h', 180.0, 180.0}, 1.0), (ref::PcondGrid{115, 115}));
    // Parallel views, views of 5 degrees or less and impossible perspective views fall back to 40 degrees.
    EXPECT_EQ(ref::pcondFovealGrid(1920, 1080, {true, 'l', 10.0, 10.0}, 1.0), (ref::PcondGrid{42, 23}));
    EXPECT_EQ(ref::pcondFovealGrid(1920, 1080, {true, 'v', 5.0, 50.0}, 1.0), (ref::PcondGrid{42, 23}));
    EXPECT_EQ(ref::pcondFovealGrid(1920, 1080, {true, 'v', 190.0, 50.0}, 1.0), (ref::PcondGrid{42, 23}));
    // Pixel aspect 2 (pixels twice as tall): 1920 x (1080*2) is portrait, so the vertical axis gets 40.
    EXPECT_EQ(ref::pcondFovealGrid(1920, 1080, {}, 2.0).height, 42);
}

TEST(WardPcondRef, RgbeRoundTripAddsHalfAMantissaStep)
{
    using Rgb = std::array<float, 3>;
    // 4.0: frexp 0.5 * 2^3, mantissa 128, read back as 128.5 * 2^(3-8); a zero mantissa under a
    // nonzero exponent reads back as half a step.
    EXPECT_EQ(ref::radianceRgbeRoundTrip(4.0f, 0.0f, 0.0f), (Rgb{4.015625f, 0.5f / 32, 0.5f / 32}));
    // (3, 1.5, 0.1): e = 2, scale 64: mantissas 192, 96, 6 (6.4 truncated).
    EXPECT_EQ(ref::radianceRgbeRoundTrip(3.0f, 1.5f, 0.1f), (Rgb{192.5f / 64, 96.5f / 64, 6.5f / 64}));
    // Below 1e-32 everything is 0 (exponent byte 0); a negative channel gets mantissa 0.
    EXPECT_EQ(ref::radianceRgbeRoundTrip(1e-33f, 0.0f, 0.0f), (Rgb{0.0f, 0.0f, 0.0f}));
    EXPECT_EQ(ref::radianceRgbeRoundTrip(-1.0f, 2.0f, 0.0f), (Rgb{0.5f / 64, 128.5f / 64, 0.5f / 64}));
}

TEST(WardPcondRef, FovealImageIsPfiltsBoxAsRgbe)
{
    // 5x3 into 2x2: columns {0,1,2} {3,4}, scanlines {0,1} {2} (pfilt's window test; see the plan test).
    std::vector<float> rgba(5 * 3 * 4, 0.0f);
    const auto set = [&](int x, int y, float v) {
        float* p = rgba.data() + (std::size_t(y) * 5 + std::size_t(x)) * 4;
        p[0] = v;
        p[1] = v / 2;
        p[2] = 0.0f;
        p[3] = 1.0f;
    };
    const float cell00[6] = {1, 2, 3, 4, 5, 9};  // mean 4
    for (int i = 0; i < 6; ++i)
        set(i % 3, i / 3, cell00[i]);
    for (int y = 0; y < 2; ++y)
        for (int x = 3; x < 5; ++x)
            set(x, y, 0.5f);  // mean 0.5
    for (int x = 0; x < 3; ++x)
        set(x, 2, 3.0f);  // mean 3: (3+3+3) * (1.0/3) rounds to 3
    set(3, 2, 100.0f);
    set(4, 2, 28.0f);                           // mean 64
    rgba[(2 * 5 + 0) * 4 + 2] = std::nanf("");  // a NaN blue counts as 0
    ref::PcondPicture picture;
    picture.width = 5;
    picture.height = 3;
    picture.rgba = rgba.data();
    const std::vector<float> foveal = ref::pcondFovealImage(picture, {2, 2});
    // Each mean written as RGBE: mantissas scaled by 2^(8-e) of the largest channel, read back as
    // (m + 0.5) 2^(e-8) (blue's zero mantissa too).
    const std::vector<float> expected = {
        128.5f / 32,  64.5f / 32,  0.5f / 32,   // (4, 2, 0): e 3
        128.5f / 256, 64.5f / 256, 0.5f / 256,  // (0.5, 0.25, 0): e 0
        192.5f / 64,  96.5f / 64,  0.5f / 64,   // (3, 1.5, 0): e 2
        128.5f / 2,   64.5f / 2,   0.5f / 2,    // (64, 32, 0): e 7
    };
    EXPECT_EQ(foveal, expected);
    EXPECT_EQ(post::pfiltBoxRange(0, 2, 5), std::make_pair(0, 3));
    EXPECT_EQ(post::pfiltBoxRange(1, 2, 5), std::make_pair(3, 5));
    EXPECT_EQ(post::pfiltBoxRange(0, 2, 3), std::make_pair(0, 2));
    EXPECT_EQ(post::pfiltBoxRange(1, 2, 3), std::make_pair(2, 3));
    // Upsampling (more outputs than inputs): each output takes the input under its centre.
    EXPECT_EQ(post::pfiltBoxRange(5, 42, 4), std::make_pair(0, 1));
    EXPECT_EQ(post::pfiltBoxRange(41, 42, 4), std::make_pair(3, 4));
}

TEST(WardPcondRef, LuminanceIsRgblumInFloat)
{
    ref::PcondPicture picture;  // Radiance's default weights, 179, EXPOSURE 2
    picture.exposure = 2.0;
    const float sum = (0.26510582f * 1.0f + 0.67010582f * 2.0f) + 0.06478836f * 3.0f;
    EXPECT_EQ(ref::pcondLuminance(picture, 1.0f, 2.0f, 3.0f), 179.0 * double(sum) / 2.0);
    EXPECT_EQ(ref::pcondLuminance(picture, -1.0f, std::nanf(""), INFINITY), 0.0);
}

ref::PcondPicture greenPicture()
{
    ref::PcondPicture picture;
    picture.weights = {0.0f, 1.0f, 0.0f};
    picture.efficacy = 1.0;
    return picture;
}

std::vector<float> greyTriples(std::initializer_list<float> greens)
{
    std::vector<float> out;
    for (float g : greens)
        out.insert(out.end(), {0.0f, g, 0.0f});
    return out;
}

TEST(WardPcondRef, ComphistWeighsPointsLikeTheFovealSamples)
{
    // Foveal 0, 1, 100 cd/m^2 and one point sample of 10: lwmin < LMIN -> LMIN (no duplication), lwmax
    // 101, 20 bins over [ln 1e-7, ln 101] of width 1.03666: 1 -> bin 15, 10 -> 17, 100 -> 19. The
    // zero is skipped, so the foveal total is 2 and the one point weighs 2 / 1.
    post::WardSettings settings;
    settings.bins = 20;
    const ref::PcondHistogram h =
        ref::pcondHistogramOf(greenPicture(), greyTriples({0.0f, 1.0f, 100.0f}), {3, 1}, {10.0f}, settings);
    ASSERT_TRUE(h.valid);
    EXPECT_FALSE(h.duplicated);
    EXPECT_EQ(h.bwmin, std::log(1e-7));
    EXPECT_EQ(h.bwmax, std::log(101.0));
    std::vector<double> bins(20, 0.0);
    bins[15] = 1.0;
    bins[17] = 2.0;
    bins[19] = 1.0;
    EXPECT_EQ(h.bins, bins);
    EXPECT_EQ(h.histot, 4.0);
    EXPECT_NEAR(h.bwavg, std::log(10.0), 1e-15);
    EXPECT_EQ(h.fovealSamples, 2);
    EXPECT_EQ(h.pointSamples, 1);
}

TEST(WardPcondRef, ComphistDuplicatesTheBottomBin)
{
    // Everything above LMIN: bwmin = bwmax - (bwmax - ln lwmin) n / (n - 1), then half of bin 1 moves
    // into bin 0 ("false samples at bottom"); the total is unchanged.
    post::WardSettings settings;
    settings.bins = 10;
    const ref::PcondHistogram h = ref::pcondHistogramOf(greenPicture(), greyTriples({2.0f, 3.0f, 50.0f, 400.0f}),
                                                        {2, 2}, {7.0f, 2.0f, 90.0f, 400.0f}, settings);
    ASSERT_TRUE(h.valid);
    EXPECT_TRUE(h.duplicated);
    const double bwmax = std::log(404.0);
    EXPECT_EQ(h.bwmax, bwmax);
    EXPECT_EQ(h.bwmin, bwmax - (bwmax - std::log(2.0)) * 10 / 9);
    EXPECT_EQ(std::accumulate(h.bins.begin(), h.bins.end(), 0.0), h.histot);
    EXPECT_EQ(h.histot, 8.0);  // 4 foveal + 4 points of weight 4/4
    // The sample at lwmin sits on the edge of bins 0 and 1; either way the two now hold equal halves
    // of what bin 1 had, plus that sample if it landed in bin 0.
    EXPECT_GT(h.bins[0], 0.0);
    EXPECT_GE(h.bins[0], h.bins[1]);
}

ref::PcondHistogram histogramOf(std::vector<double> bins, double bwmin, double bwmax)
{
    ref::PcondHistogram h;
    h.valid = true;
    h.bins = std::move(bins);
    h.bwmin = bwmin;
    h.bwmax = bwmax;
    h.histot = std::accumulate(h.bins.begin(), h.bins.end(), 0.0);
    h.bwavg = 0.5 * (bwmin + bwmax);
    return h;
}

TEST(WardPcondRef, RangeThatFitsIsLinear)
{
    const ref::PcondHistogram h = histogramOf(std::vector<double>(100, 1.0), std::log(2.0), std::log(150.0));
    const ref::PcondMapping m = ref::pcondMapping(h, {});
    EXPECT_EQ(m.outcome, ref::PcondOutcome::RangeFits);
    EXPECT_DOUBLE_EQ(m.scalef, 10.0 / std::sqrt(300.0));  // sqrt(1 * 100) / log-average
    // pcond -x prints 179 / Ldmax times the display luminance in the linear case, clamped.
    const auto printed = ref::pcondPrintedMapping(m, {});
    ASSERT_EQ(printed.size(), 100u);
    EXPECT_DOUBLE_EQ(printed[50].second, std::clamp(1.79 * m.scalef * printed[50].first, 1.0, 100.0));
}

TEST(WardPcondRef, UniformHistogramIsAPowerLaw)
{
    // algorithms.md W2: equal bins over a 1e4:1 world range on a 100:1 display: Ld = Lw^0.5 (Lmin 1).
    const ref::PcondHistogram h = histogramOf(std::vector<double>(100, 1.0), 0.0, std::log(1e4));
    const ref::PcondMapping m = ref::pcondMapping(h, {});
    EXPECT_EQ(m.outcome, ref::PcondOutcome::Histogram);
    EXPECT_EQ(m.passes, 1);
    for (const auto& [world, display] : ref::pcondPrintedMapping(m, {}))
        EXPECT_NEAR(std::log(display), 0.5 * std::log(world), 1e-12);
    // algorithms.md W4: ceiling / T = db / (ln Ldmax - ln Ldmin) = 0.02.
    EXPECT_NEAR(m.ceiling[0] / m.mhistot, 0.02, 1e-15);
}

TEST(WardPcondRef, CeilingLoopRunsManyPassesThenFails)
{
    // Ten equal spikes with a ceiling fraction of 0.09 per bin: every pass trims each to 0.09 T, so
    // T falls by 0.9 a pass and stays above 2.5 % of the original for 36 passes: the 37th fails.
    std::vector<double> bins(100, 0.0);
    for (int i = 0; i < 10; ++i)
        bins[std::size_t(5 + 9 * i)] = 1000.0;
    const double D = std::log(100.0);
    const ref::PcondHistogram h = histogramOf(bins, 0.0, 9.0 * D);  // db = 0.09 D
    const ref::PcondMapping m = ref::pcondMapping(h, {});
    EXPECT_EQ(m.outcome, ref::PcondOutcome::Failed);
    EXPECT_EQ(m.passes, 36);  // 0.9^35 = 0.02503 > 0.025 >= 0.9^36
    EXPECT_LE(m.mhistot, 0.025 * m.histot);
    EXPECT_GT(m.mhistot / 0.9, 0.025 * m.histot);
    EXPECT_DOUBLE_EQ(m.scalef, 10.0 / std::exp(h.bwavg));
}

TEST(WardPcondRef, CeilingLoopConvergesAfterManyPasses)
{
    // 30 spikes of 100 on 70 bins of 1, ceiling fraction 0.03: every pass trims the spikes to 0.03 T,
    // so T -> 70 + 0.9 T converges geometrically to 700, far above 2.5 % of the original 3070; the loop
    // ends when a pass trims at most 2.5 % of T. The same recurrence, written out here:
    int passes = 0;
    double T = 3070.0, spike = 100.0;
    for (;;) {
        const double ceiling = 0.03 * T;
        const double trimmed = 30.0 * std::max(0.0, spike - ceiling);
        spike = std::min(spike, ceiling);
        ++passes;
        if (trimmed <= 0.025 * T)
            break;
        T = 70.0 + 30.0 * spike;
    }
    ASSERT_GE(passes, 10);
    std::vector<double> bins(100, 1.0);
    for (int i = 0; i < 30; ++i)
        bins[std::size_t(3 * i + 5)] = 100.0;
    const double D = std::log(100.0);
    const ref::PcondHistogram h = histogramOf(bins, 0.0, 3.0 * D);  // db / D = 0.03
    const ref::PcondMapping m = ref::pcondMapping(h, {});
    EXPECT_EQ(m.outcome, ref::PcondOutcome::Histogram);
    EXPECT_EQ(m.passes, passes);
    EXPECT_NEAR(m.modhist[5] / spike, 1.0, 1e-12);
    EXPECT_EQ(m.modhist[4], 1.0);
}

TEST(WardPcondRef, HumanContrastCeilingChangesTheMap)
{
    std::vector<double> bins(100, 1.0);
    for (std::size_t i = 40; i < 60; ++i)
        bins[i] = 50.0;
    ref::PcondHistogram h = histogramOf(bins, std::log(1e-2), std::log(1e4));
    post::WardSettings tvi;
    tvi.humanContrast = true;
    const ref::PcondMapping linear = ref::pcondMapping(h, {});
    const ref::PcondMapping human = ref::pcondMapping(h, tvi);
    ASSERT_EQ(human.outcome, ref::PcondOutcome::Histogram);
    const auto a = ref::pcondPrintedMapping(linear, {});
    const auto b = ref::pcondPrintedMapping(human, tvi);
    double largest = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i)
        largest = std::max(largest, std::abs(std::log10(a[i].second) - std::log10(b[i].second)));
    EXPECT_GT(largest, 1e-3);
}

TEST(WardPcondRef, GethistoTrimsEmptyEndsAndRebins)
{
    // pcond -I on 10 bins of 1 ln unit from ln 1 with counts only in 3..6: the range becomes
    // [3 - .001, 7.001) extended down by one output bin, and the four inputs fall in four bins.
    std::vector<std::pair<double, double>> input;
    for (int i = 0; i < 10; ++i)
        input.emplace_back(double(i), (i >= 3 && i <= 6) ? 10.0 : 0.0);
    post::WardSettings settings;
    settings.bins = 5;
    const ref::PcondHistogram h = ref::pcondHistogramFromBins(input, settings);
    ASSERT_TRUE(h.valid);
    EXPECT_NEAR(h.bwmax, 7.001, 1e-14);
    EXPECT_NEAR(h.bwmin, 7.001 - (7.001 - 2.999) * 5 / 4, 1e-14);
    EXPECT_EQ(h.histot, 40.0);
    EXPECT_TRUE(h.duplicated);
    EXPECT_EQ(std::accumulate(h.bins.begin(), h.bins.end(), 0.0), 40.0);
    EXPECT_NEAR(h.bwavg, 4.5, 1e-15);
}

}  // namespace
