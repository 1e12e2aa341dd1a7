// GPU Ward 1997 histogram adjustment against the CPU reference (reference/ToneWardRef): the
// properties W1-W4 and the TVI ceiling on GPU curves fed a prepared histogram, the foveal image, and
// end to end with a real histogram method on random images, plus awkward inputs (1x1, all NaN).
#include "post/ToneGlTestSupport.h"
#include "post/histogram/HistogramRegistry.h"
#include "post/tonemap/ToneShaders.h"
#include "post/tonemap/ToneWard.h"
#include "reference/Histogram.h"
#include "reference/ToneReference.h"
#include "reference/ToneWardExact.h"
#include "reference/ToneWardRef.h"

#include <array>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <numbers>
#include <random>

namespace ts = testing_support;
using tone_test::lut;

namespace {

struct WardRun
{
    std::vector<float> curve;
    std::vector<float> state;
    std::vector<std::uint32_t> bins;
    std::vector<float> view;
};

class ToneWardGl : public ts::GlTest
{
protected:
    void SetUp() override
    {
        method = post::createHistogramMethod("compute-shared-atomic");
        ASSERT_TRUE(method);
    }

    /// A 42 x 42 image seen with a 40 degree field: one foveal sample per pixel. Pixel 0 holds `lo`,
    /// pixel 1 `hi`, every other pixel `rest` (grey, cd/m^2 with scene scale 1).
    static ts::TestImage fovealImage(float lo, float hi, float rest)
    {
        ts::TestImage image;
        image.width = 42;
        image.height = 42;
        image.rgba.assign(42 * 42 * 4, 1.0f);
        for (std::size_t p = 0; p < image.pixelCount(); ++p)
            image.setGrey(p, p == 0 ? lo : p == 1 ? hi : rest);
        return image;
    }

    WardRun run(post::ToneWard& op, post::HistogramMethod& histogramMethod, float fovY = 40.0f)
    {
        WardRun r;
        op.setCeilingLoop(loop);
        if (&histogramMethod == &prepared) {  // a prepared histogram reaches Ward only through the method path
            post::WardSettings s = op.settings();
            s.histogramBySelectedMethod = true;
            op.setSettings(s);
        }
        r.curve = rig.run(op, histogramMethod, 1.0 / 60.0, fovY);
        r.state = op.stateBuffer().readAll<float>(post::ward_state::kWords);
        r.bins = op.histogramBuffer().readAll<std::uint32_t>(op.settings().bins);
        r.view = op.viewBuffer().readAll<float>(post::kWardViewWords);
        return r;
    }

    /// The CPU reference run on the GPU's own histogram and range.
    static ref::WardResult referenceOf(const WardRun& r, const post::WardSettings& s)
    {
        using namespace post::ward_state;
        ref::WardHistogram h;
        h.valid = r.state[kRangeValid] != 0.0f;
        h.bins.assign(r.bins.begin(), r.bins.end());
        h.bwmin = r.state[kBwmin];
        h.bwmax = r.state[kBwmax];
        h.bwavg = r.state[kBwavg];
        h.duplicateBottom = r.state[kDuplicated] != 0.0f;
        return ref::wardCurve(h, s);
    }

    /// Largest difference between the GPU LUT and the reference mapping at the GPU's sample positions.
    static double lutDifference(const WardRun& r, const ref::WardResult& expected, const post::WardSettings& s)
    {
        const double logMin = r.curve[hd::kCurveLogMin];
        const double logMax = r.curve[hd::kCurveLogMax];
        const auto n = std::uint32_t(r.curve[hd::kCurveSampleCount]);
        double worst = 0.0;
        for (std::uint32_t i = 0; i < n; ++i) {
            const double Lw = std::exp2(logMin + (i + 0.5) * (logMax - logMin) / n) * s.sceneScale;
            double want = ref::wardDisplay(expected, s, Lw);
            if (expected.outcome != ref::WardOutcome::Histogram)
                want = std::min(want, 1.0);
            worst = std::max(worst, std::abs(double(lut(r.curve, 0, i)) - want));
        }
        return worst;
    }

    /// The ceiling loop every run() forces (Auto: the one the driver's caps choose).
    post::WardCeilingLoop loop = post::WardCeilingLoop::Auto;
    tone_test::ToneRig rig;
    std::unique_ptr<post::HistogramMethod> method;
    tone_test::PreparedHistogram prepared;
};

post::WardSettings coreSettings()
{
    post::WardSettings s;
    s.duplicateBottomBin = false;
    return s;
}

TEST_F(ToneWardGl, FovealGridFollowsPcond)
{
    EXPECT_EQ(post::ToneWard::fovealGridSize({42, 42}, 40.0f), glm::ivec2(42, 42));
    EXPECT_EQ(post::ToneWard::fovealGridSize({1920, 1080}, std::numeric_limits<float>::quiet_NaN()),
              glm::ivec2(42, 23));
    EXPECT_EQ(post::ToneWard::fovealGridSize({1024, 768}, 0.0f), glm::ivec2(42, 31));
    EXPECT_EQ(post::ToneWard::fovealGridSize({1920, 1080}, 60.0f), glm::ivec2(118, 66));
    EXPECT_EQ(post::ToneWard::fovealGridSize({1, 1}, 60.0f), glm::ivec2(1, 1));
    for (glm::ivec2 size : {glm::ivec2(1920, 1080), glm::ivec2(333, 77), glm::ivec2(5, 900)}) {
        const ref::FovealGrid g = ref::fovealGridSize(size.x, size.y, 55.0);
        EXPECT_EQ(post::ToneWard::fovealGridSize(size, 55.0f), glm::ivec2(g.width, g.height));
    }
}

TEST_F(ToneWardGl, W1RangeThatFitsGivesTheLinearOperator)
{
    rig.setImage(fovealImage(1.0f, 40.0f, 5.0f));  // 40.4:1 < 100:1
    post::ToneWard op;
    op.setSettings(coreSettings());
    const WardRun r = run(op, *method);
    EXPECT_EQ(r.state[post::ward_state::kOutcome], 1.0f);
    EXPECT_EQ(r.curve[hd::kCurveMode], hd::kCurveModeLinearScale);
    // Log-average of the samples (all counted: 1, 40 and 1762 x 5) -> sqrt(1 * 100) = 10 cd/m^2 = display 0.1.
    const double logAverage = (std::log(1.0) + std::log(40.0) + 1762.0 * std::log(5.0)) / 1764.0;
    EXPECT_NEAR(r.curve[hd::kCurveScale], 10.0 / std::exp(logAverage) / 100.0, 1e-5);
}

TEST_F(ToneWardGl, W2UniformHistogramGivesThePowerLawOnTheGpu)
{
    rig.setImage(fovealImage(1e-2f, 100.0f / 1.01f, 1.0f));  // range 1e4:1 exactly
    prepared.bins.assign(100, 17u);
    post::ToneWard op;
    op.setSettings(coreSettings());
    const WardRun r = run(op, prepared);
    ASSERT_EQ(r.state[post::ward_state::kOutcome], 0.0f);
    EXPECT_EQ(r.state[post::ward_state::kPasses], 1.0f);
    EXPECT_NEAR(r.state[post::ward_state::kBwmin], std::log(1e-2), 1e-5);
    EXPECT_NEAR(r.state[post::ward_state::kBwmax], std::log(1e2), 1e-5);
    const double logMin = r.curve[hd::kCurveLogMin];
    const double logMax = r.curve[hd::kCurveLogMax];
    double worst = 0.0;
    for (std::uint32_t i = 0; i < post::kWardCurveSamples; ++i) {
        const double Lw = std::exp2(logMin + (i + 0.5) * (logMax - logMin) / post::kWardCurveSamples);
        const double Ld = std::sqrt(Lw / 1e-2);  // exponent D / R = 0.5
        worst = std::max(worst, std::abs(lut(r.curve, 0, i) - (Ld - 1.0) / 99.0));
    }
    EXPECT_LE(worst, 1e-4);
}

TEST_F(ToneWardGl, W3OneOccupiedBinFailsToTheLinearOperator)
{
    rig.setImage(fovealImage(1e-2f, 100.0f / 1.01f, 3.0f));
    prepared.bins.assign(100, 0u);
    prepared.bins[62] = 1764;
    post::ToneWard op;
    op.setSettings(coreSettings());
    const WardRun r = run(op, prepared);
    EXPECT_EQ(r.state[post::ward_state::kOutcome], 2.0f);
    EXPECT_EQ(r.curve[hd::kCurveMode], hd::kCurveModeLinearScale);
    const ref::WardResult expected = referenceOf(r, coreSettings());
    EXPECT_EQ(expected.outcome, ref::WardOutcome::Failed);
    EXPECT_EQ(r.state[post::ward_state::kPasses], float(expected.passes));
    EXPECT_NEAR(r.curve[hd::kCurveScale], expected.linearScale, 1e-5 * expected.linearScale);
}

TEST_F(ToneWardGl, W4CeilingFractions)
{
    struct Case
    {
        float lo, hi, displayMin, fraction;
    };
    for (const Case c : {Case{1e-2f, 100.0f / 1.01f, 1.0f, 0.02f}, Case{1e-2f, 1e4f / 1.01f, 1.0f, 0.03f},
                         Case{1e-2f, 100.0f / 1.01f, 3.125f, 0.026575f}}) {
        rig.setImage(fovealImage(c.lo, c.hi, 1.0f));
        prepared.bins.assign(100, 5u);
        post::WardSettings s = coreSettings();
        s.displayMin = c.displayMin;
        post::ToneWard op;
        op.setSettings(s);
        const WardRun r = run(op, prepared);
        EXPECT_NEAR(r.state[post::ward_state::kCeilingFraction], c.fraction, 2e-6);
        // The view's ceilings are T db / D (uniform histogram: one pass, nothing trimmed).
        EXPECT_NEAR(r.view[post::kWardViewCeilingOffset + 7], 500.0f * c.fraction, 500.0f * 2e-5);
    }
}

TEST_F(ToneWardGl, CeilingLoopMatchesTheReferenceOnPreparedHistograms)
{
    std::mt19937 random(21);
    for (int trial = 0; trial < 12; ++trial) {
        post::WardSettings s = coreSettings();
        s.bins = trial < 6 ? 100u : 37u + std::uint32_t(random() % 300);
        s.humanContrast = trial % 2 == 1;
        s.duplicateBottomBin = trial % 3 == 0;
        s.sceneScale = trial % 4 == 0 ? 179.0f : 1.0f;
        prepared.bins.assign(s.bins, 0u);
        for (auto& b : prepared.bins)
            b = random() % 3 == 0 ? 0u : std::uint32_t(std::pow(double(random() % 1000) / 100.0, 3.0));
        prepared.bins[random() % s.bins] += 3000u;
        const float hi = std::pow(10.0f, 1.0f + float(random() % 40) / 10.0f);
        rig.setImage(fovealImage(1e-3f, hi, 0.5f));
        post::ToneWard op;
        op.setSettings(s);
        const WardRun r = run(op, prepared);
        const ref::WardResult expected = referenceOf(r, s);
        EXPECT_EQ(int(r.state[post::ward_state::kOutcome]), int(expected.outcome)) << "trial " << trial;
        EXPECT_EQ(int(r.state[post::ward_state::kPasses]), expected.passes) << "trial " << trial;
        EXPECT_LE(lutDifference(r, expected, s), 1e-4) << "trial " << trial;
        if (expected.outcome == ref::WardOutcome::Histogram) {
            EXPECT_EQ(r.curve[hd::kCurveMode], hd::kCurveModeLut);
            for (std::uint32_t i = 0; i < s.bins; ++i)
                ASSERT_NEAR(r.view[i], expected.trimmed[i], 1e-3 * (1.0 + expected.trimmed[i])) << "bin " << i;
        } else {
            EXPECT_NEAR(r.curve[hd::kCurveScale], expected.linearScale * s.sceneScale,
                        1e-4 * expected.linearScale * s.sceneScale);
        }
    }
}

TEST_F(ToneWardGl, EndToEndWithARealHistogramMethodMatchesTheIndependentReference)
{
    const ts::TestImage picture = ts::randomHdrImage(256, 192, -8.0f, 12.0f, 4);
    rig.setImage(picture);
    for (bool human : {false, true}) {
        post::WardSettings s;  // pcond defaults: 100 bins, 1..100 cd/m^2, bottom-bin duplication
        s.humanContrast = human;
        post::ToneWard op;
        op.setSettings(s);
        const WardRun r = run(op, *method, 60.0f);
        // Foveal image: 256 x 192 at 60 degrees -> 89 x 67 box-filtered samples.
        const ref::FovealGrid grid = ref::fovealGridSize(256, 192, 60.0);
        ASSERT_EQ(op.fovealImage().size(), glm::ivec2(grid.width, grid.height));
        const auto foveal = op.fovealImage().readRgbaFloat();
        const auto expectedFoveal = ref::wardFovealLuminance(picture.rgba.data(), 256, 192, grid, 1.0);
        for (std::size_t i = 0; i < expectedFoveal.size(); ++i) {
            const double L = hd::hdLuminance(foveal[i * 4], foveal[i * 4 + 1], foveal[i * 4 + 2]);
            ASSERT_NEAR(L, expectedFoveal[i], 1e-5 * expectedFoveal[i]) << "sample " << i;
        }
        std::uint64_t total = 0;
        for (auto b : r.bins)
            total += b;
        EXPECT_EQ(double(total), double(r.state[post::ward_state::kSamples]));
        // Same histogram: tight. Independent CPU binning and range: a sample may change bins.
        const ref::WardResult expected = referenceOf(r, s);
        EXPECT_EQ(expected.outcome, ref::WardOutcome::Histogram);
        EXPECT_LE(lutDifference(r, expected, s), 1e-4);
        ref::CurveInputs in;
        in.rgba = picture.rgba.data();
        in.width = picture.width;
        in.height = picture.height;
        in.fovYDegrees = 60.0f;
        in.settings = s;
        const auto independent = ref::referenceCurve("ward", in);
        EXPECT_LE(ref::curveMaxDifference(r.curve, independent, 0, -10.0, 14.0), 2e-3) << "human " << human;
    }
}

// Ward's own binning (one dispatch) and the selected method's give the same histogram, state and curve.
TEST_F(ToneWardGl, FovealHistogramInsideTheCurveKernelEqualsTheSelectedMethods)
{
    ts::TestImage picture = ts::randomHdrImage(640, 360, -10.0f, 14.0f, 4);
    ts::addSpecialPixels(picture, 57);
    rig.setImage(picture);
    for (std::uint32_t bins : {2u, 100u, 257u, 1024u}) {
        std::array<WardRun, 2> runs;
        for (int bySelectedMethod = 0; bySelectedMethod < 2; ++bySelectedMethod) {
            post::WardSettings s;
            s.bins = bins;
            s.histogramBySelectedMethod = bySelectedMethod == 1;
            post::ToneWard op;
            op.setSettings(s);
            runs[bySelectedMethod] = run(op, *method, 60.0f);
        }
        EXPECT_EQ(runs[0].bins, runs[1].bins) << bins << " bins";
        EXPECT_EQ(runs[0].state, runs[1].state) << bins << " bins";
        ASSERT_EQ(runs[0].curve.size(), runs[1].curve.size());
        std::size_t firstDifference = runs[0].curve.size();
        for (std::size_t i = 0; i < runs[0].curve.size() && firstDifference == runs[0].curve.size(); ++i)
            if (std::bit_cast<std::uint32_t>(runs[0].curve[i]) != std::bit_cast<std::uint32_t>(runs[1].curve[i]))
                firstDifference = i;
        EXPECT_EQ(firstDifference, runs[0].curve.size())
            << bins << " bins: curve word " << firstDifference
            << " differs: " << (firstDifference < runs[0].curve.size() ? runs[0].curve[firstDifference] : 0.0f)
            << " vs " << (firstDifference < runs[1].curve.size() ? runs[1].curve[firstDifference] : 0.0f);
        std::uint64_t total = 0;
        for (auto b : runs[0].bins)
            total += b;
        EXPECT_GT(total, 1000u) << "the case must bin real samples";
    }
}

// The foveal image made by the histogram pass (one read of the frame) is taken by Ward, once, and
// gives the curve of Ward's own foveal pass.
TEST_F(ToneWardGl, FovealImageFromTheHistogramPassIsUsedOnceAndGivesTheSameCurve)
{
    ts::TestImage picture = ts::randomHdrImage(1920, 1080, -8.0f, 12.0f, 21);
    ts::addSpecialPixels(picture, 211);
    rig.setImage(picture);
    post::ToneWard own;
    const WardRun expected = run(own, *method, 60.0f);
    EXPECT_FALSE(own.fovealFromHistogramPass());

    post::ToneWard fused;
    post::FovealTarget* target = fused.fovealTarget(rig.size, 60.0f);
    ASSERT_NE(target, nullptr) << "1080p at 60 degrees has blocks of 263 pixels: the fused path must be offered";
    EXPECT_EQ(fused.fovealTarget({320, 180}, 60.0f), nullptr) << "blocks of 7 pixels: Ward's own pass is better";
    target = fused.fovealTarget(rig.size, 60.0f);
    post::HistogramSpec spec{256, post::OutOfRange::Clamp};
    ts::runHistogramMethodOnTexture(*method, rig.image, rig.size, -12.0f, 14.0f, spec, target);
    ASSERT_TRUE(target->written);
    const WardRun fromHistogram = run(fused, *method, 60.0f);
    EXPECT_TRUE(fused.fovealFromHistogramPass());
    EXPECT_FALSE(target->written) << "consumed";
    EXPECT_EQ(fromHistogram.state[post::ward_state::kGridWidth], expected.state[post::ward_state::kGridWidth]);
    EXPECT_NEAR(fromHistogram.state[post::ward_state::kBwavg], expected.state[post::ward_state::kBwavg], 1e-5);
    double worst = 0.0;
    for (std::size_t i = hd::kCurveHeaderWords; i < hd::kCurveHeaderWords + post::kWardCurveSamples; ++i)
        worst = std::max(worst, double(std::abs(fromHistogram.curve[i] - expected.curve[i])));
    EXPECT_LE(worst, 1e-4);
    // The next frame without a histogram-made image falls back to Ward's own pass (no stale reuse).
    (void)run(fused, *method, 60.0f);
    EXPECT_FALSE(fused.fovealFromHistogramPass());
}

// Both foveal paths against the CPU box filter: an invocation per sample (small blocks, the test
// above) and a workgroup per sample (blocks of 256 pixels or more; here 1021 x 767 at 20 degrees:
// blocks of about 38 x 38 pixels, odd sizes so block bounds do not align with the workgroup).
TEST_F(ToneWardGl, FovealImageWithAWorkgroupPerSampleMatchesTheBoxFilter)
{
    ts::TestImage picture = ts::randomHdrImage(1021, 767, -8.0f, 12.0f, 9);
    ts::addSpecialPixels(picture, 101);  // non-finite pixels are left out of the mean
    rig.setImage(picture);
    post::ToneWard op;
    run(op, *method, 20.0f);
    const ref::FovealGrid grid = ref::fovealGridSize(1021, 767, 20.0);
    ASSERT_GE(1021.0 * 767.0 / (grid.width * grid.height), 256.0) << "the case must take the workgroup path";
    ASSERT_EQ(op.fovealImage().size(), glm::ivec2(grid.width, grid.height));
    const auto foveal = op.fovealImage().readRgbaFloat();
    const auto expected = ref::wardFovealLuminance(picture.rgba.data(), 1021, 767, grid, 1.0);
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const double L = hd::hdLuminance(foveal[i * 4], foveal[i * 4 + 1], foveal[i * 4 + 2]);
        ASSERT_NEAR(L, expected[i], 1e-5 * expected[i]) << "sample " << i;
    }
}

// The histogram pass's foveal image against the CPU box filter, and its histogram against the CPU
// reference, bit for bit, in both of its shapes (a row of 32 invocations per block, the method's;
// a workgroup per block, the benchmark option foveal=1), with blocks of about 38 x 38 pixels
// (1021 x 767 at 20 degrees), 11 x 11 (60 degrees) and 7 x 7 (90 degrees: partly empty rows).
TEST_F(ToneWardGl, FovealImageOfTheHistogramPassMatchesTheBoxFilterInBothShapes)
{
    ts::TestImage picture = ts::randomHdrImage(1021, 767, -8.0f, 12.0f, 5);
    ts::addSpecialPixels(picture, 97);
    rig.setImage(picture);
    const ref::Histogram cpu =
        ref::buildHistogram(picture.rgba.data(), 1021, 767, -12.0f, 14.0f, 256, ref::OutOfRange::Clamp);
    for (const char* shape : {"foveal=2", "foveal=1"})
        for (float degrees : {20.0f, 60.0f, 90.0f}) {
            SCOPED_TRACE(testing::Message() << shape << ", " << degrees << " degrees");
            ::setenv("HDRLAB_SHARED_ATOMIC", shape, 1);  // read when the method is made
            std::unique_ptr<post::HistogramMethod> method = post::createHistogramMethod("compute-shared-atomic");
            ::unsetenv("HDRLAB_SHARED_ATOMIC");
            post::ToneWard op;
            post::FovealTarget* target = op.fovealTarget(rig.size, degrees);
            ASSERT_NE(target, nullptr);
            post::HistogramSpec spec{256, post::OutOfRange::Clamp};
            const ts::GpuHistogram gpu =
                ts::runHistogramMethodOnTexture(*method, rig.image, rig.size, -12.0f, 14.0f, spec, target);
            ASSERT_TRUE(target->written);
            EXPECT_EQ(gpu.bins, cpu.bins);
            const ref::FovealGrid grid = ref::fovealGridSize(1021, 767, double(degrees));
            ASSERT_EQ(target->image->size(), glm::ivec2(grid.width, grid.height));
            const auto foveal = target->image->readRgbaFloat();
            const auto expected = ref::wardFovealLuminance(picture.rgba.data(), 1021, 767, grid, 1.0);
            for (std::size_t i = 0; i < expected.size(); ++i) {
                const double L = hd::hdLuminance(foveal[i * 4], foveal[i * 4 + 1], foveal[i * 4 + 2]);
                ASSERT_NEAR(L, expected[i], 1e-5 * expected[i]) << "sample " << i;
            }
        }
}

/// Word-by-word comparison of float arrays by their bits; "" when equal, else the first difference.
std::string firstBitDifference(std::span<const float> gpu, std::span<const float> cpu, std::string_view what)
{
    if (gpu.size() != cpu.size())
        return std::string(what) + ": " + std::to_string(gpu.size()) + " vs " + std::to_string(cpu.size()) + " words";
    for (std::size_t i = 0; i < gpu.size(); ++i)
        if (std::bit_cast<std::uint32_t>(gpu[i]) != std::bit_cast<std::uint32_t>(cpu[i])) {
            char text[160];
            std::snprintf(text, sizeof text, "[%zu]: GPU %.9g (0x%08x) vs CPU %.9g (0x%08x)", i, double(gpu[i]),
                          std::bit_cast<std::uint32_t>(gpu[i]), double(cpu[i]), std::bit_cast<std::uint32_t>(cpu[i]));
            return std::string(what) + text;
        }
    return {};
}

/// Every word the fit kernel wrote against reference/ToneWardExact's, bit for bit.
void expectBitExact(const WardRun& r, const ref::WardExactFit& e, std::uint32_t n, const std::string& label)
{
    using namespace post::ward_state;
    const std::vector<float> state = {float(e.outcome),
                                      float(e.passes),
                                      e.range.bwmin,
                                      e.range.bwmax,
                                      e.range.bwavg,
                                      e.histot,
                                      e.finalTotal,
                                      e.ceilingFraction,
                                      e.range.samples,
                                      e.range.valid ? 1.f : 0.f,
                                      e.range.duplicated ? 1.f : 0.f,
                                      e.converged ? 1.f : 0.f,
                                      e.linearScale};
    const std::uint32_t stateIndex[] = {kOutcome,    kPasses,     kBwmin,           kBwmax,   kBwavg,
                                        kHistot,     kFinalTotal, kCeilingFraction, kSamples, kRangeValid,
                                        kDuplicated, kConverged,  kLinearScale};
    std::vector<float> gpuState;
    for (std::uint32_t index : stateIndex)
        gpuState.push_back(r.state[index]);
    EXPECT_EQ(firstBitDifference(gpuState, state, "state (outcome, passes, bwmin, bwmax, bwavg, ...)"), "") << label;
    EXPECT_EQ(std::vector<std::uint32_t>(r.bins.begin(), r.bins.begin() + n), e.bins) << label;
    const std::vector<float> header = {r.curve[hd::kCurveLogMin], r.curve[hd::kCurveLogMax], r.curve[hd::kCurveMode],
                                       r.curve[hd::kCurveScale]};
    EXPECT_EQ(firstBitDifference(header, std::vector<float>{e.curveLogMin, e.curveLogMax, e.curveMode, e.curveScale},
                                 "curve header (log min, log max, mode, scale)"),
              "")
        << label;
    EXPECT_EQ(firstBitDifference(std::span(r.curve).subspan(hd::kCurveHeaderWords, e.curve.size()), e.curve, "curve"),
              "")
        << label;
    EXPECT_EQ(firstBitDifference(std::span(r.view).subspan(post::kWardViewTrimmedOffset, n), e.trimmed, "trimmed"), "")
        << label;
    EXPECT_EQ(firstBitDifference(std::span(r.view).subspan(post::kWardViewCeilingOffset, n), e.ceiling, "ceiling"), "")
        << label;
    EXPECT_EQ(firstBitDifference(std::span(r.view).subspan(post::kWardViewCumfOffset, n + 1), e.cumf, "cumf"), "")
        << label;
}

// The frame fit (range, log-average, histogram, ceiling loop, curve) is deterministic: every word it
// writes equals the serial CPU model's, for awkward sizes, bin counts, both ceilings, with and without
// the bottom-bin duplication, and for the outcomes fits / failed / histogram / no samples.
class ToneWardExactGl : public ToneWardGl
{
protected:
    void frameFitIsBitExact();
    void ceilingStageIsBitExact();
    /// Forces `forced` for the runs that follow; false (and the test skipped) where it cannot run here.
    bool force(post::WardCeilingLoop forced)
    {
        if (forced == post::WardCeilingLoop::LanesSubgroup &&
            post::WardCurveProgram::subgroupLanes(ts::testGpuCaps()) == 0)
            return false;
        loop = forced;
        return true;
    }
};

TEST_F(ToneWardExactGl, FrameFitIsBitExactWithTheSerialReference)
{
    frameFitIsBitExact();
}

void ToneWardExactGl::frameFitIsBitExact()
{
    struct Case
    {
        int width, height;
        float logMin, logMax;
        std::uint32_t bins;
        bool human, duplicate;
        float sceneScale;
        float fovY;
    };
    const Case cases[] = {
        {1, 1, 0.0f, 0.0f, 100, false, true, 1.0f, 40.0f},        // one sample: the range fits
        {5, 3, -6.0f, 9.0f, 2, true, false, 1.0f, 40.0f},         // two bins
        {257, 131, -8.0f, 12.0f, 100, false, true, 1.0f, 60.0f},  // pcond defaults
        {257, 131, -8.0f, 12.0f, 100, true, true, 1.0f, 60.0f},
        {640, 360, -10.0f, 14.0f, 37, true, false, 179.0f, 60.0f},
        {640, 360, -2.0f, 30.0f, 1024, false, false, 0.01f, 90.0f},
        {333, 77, -12.0f, 12.0f, 1024, true, true, 3.0f, 30.0f},
        {1920, 1080, -8.0f, 12.0f, 257, true, true, 1.0f, 60.0f},
    };
    int index = 0;
    for (const Case& c : cases) {
        ts::TestImage picture = ts::randomHdrImage(c.width, c.height, c.logMin, c.logMax, 100u + std::uint32_t(index));
        if (c.width > 100)
            ts::addSpecialPixels(picture, 97);
        rig.setImage(picture);
        post::WardSettings s;
        s.sampling = post::WardSampling::Frame;
        s.bins = c.bins;
        s.humanContrast = c.human;
        s.duplicateBottomBin = c.duplicate;
        s.sceneScale = c.sceneScale;
        post::ToneWard op;
        op.setSettings(s);
        const WardRun r = run(op, *method, c.fovY);
        const glm::ivec2 grid = op.fovealImage().size();
        const std::vector<float> foveal = op.fovealImage().readRgbaFloat();
        const ref::WardExactFit e =
            ref::wardFrameFitExact(foveal, grid.x, grid.y, s, c.bins, {}, post::kWardCurveSamples);
        const std::string label = "case " + std::to_string(index) + " (" + std::to_string(c.width) + "x" +
                                  std::to_string(c.height) + ", " + std::to_string(c.bins) + " bins)";
        expectBitExact(r, e, c.bins, label);
        const auto words = op.histogramBuffer().readAll<std::uint32_t>(hd::kHistogramBufferWords);
        for (std::uint32_t k = 0; k < hd::kCounterCount; ++k)
            EXPECT_EQ(words[hd::kHistogramCountersOffset + k], e.counters[k]) << label << " counter " << k;
        ++index;
    }
    // The outcomes the cases must cover, or the comparison proves less than it claims.
    post::WardSettings s;
    s.sampling = post::WardSampling::Frame;
    rig.setImage(fovealImage(1e-4f, 1e4f, 1e-4f));  // two values, far apart: the ceiling fails
    post::ToneWard op;
    op.setSettings(s);
    const WardRun failed = run(op, *method);
    EXPECT_EQ(failed.state[post::ward_state::kOutcome], 2.0f);
    const auto foveal = op.fovealImage().readRgbaFloat();
    expectBitExact(failed, ref::wardFrameFitExact(foveal, 42, 42, s, s.bins, {}, post::kWardCurveSamples), s.bins,
                   "failed");
}

// The ceiling stage alone (a selected method's bins or a fed histogram) is bit-exact too.
TEST_F(ToneWardExactGl, CeilingStageIsBitExactWithTheSerialReference)
{
    ceilingStageIsBitExact();
}

void ToneWardExactGl::ceilingStageIsBitExact()
{
    std::mt19937 random(5);
    for (int trial = 0; trial < 8; ++trial) {
        post::WardSettings s = coreSettings();
        s.sampling = post::WardSampling::Frame;
        s.bins = trial < 4 ? 100u : 37u + std::uint32_t(random() % 900);
        s.humanContrast = trial % 2 == 1;
        s.duplicateBottomBin = trial % 3 == 0;
        prepared.bins.assign(s.bins, 0u);
        for (auto& b : prepared.bins)
            b = random() % 3 == 0 ? 0u : std::uint32_t(std::pow(double(random() % 1000) / 100.0, 3.0 + trial));
        prepared.bins[random() % s.bins] += 3000u;
        const float hi = std::pow(10.0f, 1.0f + float(random() % 40) / 10.0f);
        rig.setImage(fovealImage(1e-3f, hi, 0.5f));
        post::ToneWard op;
        op.setSettings(s);
        const WardRun r = run(op, prepared);
        if (loop != post::WardCeilingLoop::Auto)
            EXPECT_EQ(op.ceilingLoopUsed(), loop);
        using namespace post::ward_state;
        ref::WardExactRange range;
        range.bwmin = r.state[kBwmin];
        range.bwmax = r.state[kBwmax];
        range.bwavg = r.state[kBwavg];
        range.samples = r.state[kSamples];
        range.valid = r.state[kRangeValid] != 0.0f;
        range.duplicated = r.state[kDuplicated] != 0.0f;
        const ref::WardExactFit e = ref::wardCeilingFitExact(r.bins, range, s, post::kWardCurveSamples);
        expectBitExact(r, e, s.bins, "trial " + std::to_string(trial));
        EXPECT_GT(r.state[kPasses], 0.0f) << "trial " << trial;
    }
}

// Each ceiling loop forced (the pipeline takes the subgroup one where the driver has subgroup
// arithmetic, else the workgroup one): the same bits as the serial model.
TEST_F(ToneWardExactGl, EveryCeilingLoopIsBitExactWithTheSerialReference)
{
    for (post::WardCeilingLoop forced :
         {post::WardCeilingLoop::Workgroup, post::WardCeilingLoop::LanesShared, post::WardCeilingLoop::LanesSubgroup}) {
        if (!force(forced))
            continue;  // no subgroup arithmetic here: SubgroupLanesRunWhereTheDriverHasThem says so
        SCOPED_TRACE("ceiling loop " + std::to_string(int(forced)));
        frameFitIsBitExact();
        ceilingStageIsBitExact();
    }
}

TEST_F(ToneWardExactGl, SubgroupLanesRunWhereTheDriverHasThem)
{
    if (!force(post::WardCeilingLoop::LanesSubgroup))
        GTEST_SKIP() << "no GL_KHR_shader_subgroup arithmetic in compute shaders on " << ts::testGpuCaps().gl.renderer
                     << ": the subgroup ceiling loop is checked on a GPU that has it";
    rig.setImage(fovealImage(1e-2f, 1e4f, 1.0f));
    post::ToneWard op;
    run(op, *method);
    EXPECT_EQ(op.ceilingLoopUsed(), post::WardCeilingLoop::LanesSubgroup);
    post::ToneWard automatic;
    loop = post::WardCeilingLoop::Auto;
    run(automatic, *method);
    EXPECT_EQ(automatic.ceilingLoopUsed(), post::WardCeilingLoop::LanesSubgroup) << "the pipeline's choice here";
}

// Tall spikes over a flat floor: k bins far above the ceiling make every pass trim a little less
// than the one before, for dozens of passes (ending in the histogram outcome or, with a wider range,
// in failure), so the loop's carried state (T minus the trimmings, the last pass's CDF and ceilings)
// is checked over many passes, on every ceiling loop, for both ceilings.
TEST_F(ToneWardExactGl, ManyCeilingPassesAreBitExactOnEveryCeilingLoop)
{
    struct Case
    {
        float hi;         ///< the brightest sample (the darkest is 1e-3): the range
        std::uint32_t k;  ///< tall bins
        bool human;
        int minimumPasses;  ///< what the case is for
        int outcome;
    };
    const Case cases[] = {
        {10.0f, 48, false, 60, 0},                  // 82 passes, histogram
        {std::pow(10.0f, 1.9f), 38, false, 40, 2},  // 66 passes, then failure
        {10.0f, 48, true, 2, -1},                   // the TVI ceiling on the same spikes
        {std::pow(10.0f, 4.4f), 25, true, 2, -1},
    };
    int ran = 0;
    for (post::WardCeilingLoop forced :
         {post::WardCeilingLoop::Workgroup, post::WardCeilingLoop::LanesShared, post::WardCeilingLoop::LanesSubgroup}) {
        if (!force(forced))
            continue;
        ++ran;
        for (const Case& c : cases) {
            const std::string label = "loop " + std::to_string(int(forced)) + ", hi " + std::to_string(c.hi) + ", k " +
                                      std::to_string(c.k) + (c.human ? ", TVI" : "");
            post::WardSettings s = coreSettings();
            s.sampling = post::WardSampling::Frame;
            s.humanContrast = c.human;
            prepared.bins.assign(100, 5u);
            for (std::uint32_t j = 0; j < c.k; ++j)
                prepared.bins[(j * 7) % 100] = 300000u / c.k + 50u;
            rig.setImage(fovealImage(1e-3f, c.hi, 0.5f));
            post::ToneWard op;
            op.setSettings(s);
            const WardRun r = run(op, prepared);
            EXPECT_EQ(op.ceilingLoopUsed(), forced) << label;
            using namespace post::ward_state;
            ref::WardExactRange range;
            range.bwmin = r.state[kBwmin];
            range.bwmax = r.state[kBwmax];
            range.bwavg = r.state[kBwavg];
            range.samples = r.state[kSamples];
            range.valid = r.state[kRangeValid] != 0.0f;
            range.duplicated = r.state[kDuplicated] != 0.0f;
            const ref::WardExactFit e = ref::wardCeilingFitExact(r.bins, range, s, post::kWardCurveSamples);
            EXPECT_GE(int(e.passes), c.minimumPasses) << label << ": the case no longer needs many passes";
            if (c.outcome >= 0)
                EXPECT_EQ(int(e.outcome), c.outcome) << label;
            expectBitExact(r, e, 100, label);
        }
    }
    EXPECT_GE(ran, 2);
}

TEST_F(ToneWardGl, AwkwardInputsNeverBreak)
{
    post::ToneWard op;
    ts::TestImage one;
    one.width = 1;
    one.height = 1;
    one.rgba = {2.0f, 2.0f, 2.0f, 1.0f};
    rig.setImage(one);
    WardRun r = run(op, *method);
    EXPECT_EQ(r.state[post::ward_state::kOutcome], 1.0f);  // one sample: range 1.01:1 fits
    EXPECT_TRUE(std::isfinite(r.curve[hd::kCurveScale]));
    ts::TestImage nan = fovealImage(1.0f, 1.0f, 1.0f);
    for (float& v : nan.rgba)
        v = std::numeric_limits<float>::quiet_NaN();
    rig.setImage(nan);
    r = run(op, *method);
    EXPECT_EQ(r.state[post::ward_state::kOutcome], 3.0f);  // no samples: black
    EXPECT_EQ(r.curve[hd::kCurveScale], 0.0f);
    ts::TestImage black = fovealImage(0.0f, 0.0f, 0.0f);
    rig.setImage(black);
    r = run(op, *method);
    EXPECT_EQ(r.state[post::ward_state::kOutcome], 3.0f);
    glFinish();
    rig.run(op, *method);
    EXPECT_NE(op.status().find("ward"), std::string::npos);
}

}  // namespace
