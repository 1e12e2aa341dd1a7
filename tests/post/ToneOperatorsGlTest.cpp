// GPU equalize, percentile and exposure operators against their CPU references (src/reference/Tone*)
// on prepared and random histograms: curve buffers within stated tolerances, the percentile state
// over simulated frame times, NaN/empty frames on the GPU, per-channel equalization with a real
// histogram method and scan.
#include "post/ToneGlTestSupport.h"
#include "post/histogram/HistogramRegistry.h"
#include "post/scan/ScanRegistry.h"
#include "post/tonemap/ToneEqualize.h"
#include "post/tonemap/ToneExposure.h"
#include "post/tonemap/TonePercentile.h"
#include "post/tonemap/ToneRegistry.h"
#include "post/tonemap/ToneShaders.h"
#include "reference/Scan.h"
#include "reference/ToneEqualizeRef.h"
#include "reference/ToneExposureRef.h"
#include "reference/TonePercentileRef.h"
#include "reference/ToneReference.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

namespace ts = testing_support;
using tone_test::lut;

namespace {

std::vector<std::uint32_t> randomBins(std::mt19937& random, std::uint32_t n, std::uint32_t maxCount = 5000)
{
    std::vector<std::uint32_t> bins(n);
    for (auto& b : bins)
        b = random() % 4 == 0 ? 0u : std::uint32_t(random() % maxCount);
    bins[random() % n] += 1;  // never empty
    return bins;
}

class ToneOperatorsGl : public ts::GlTest
{
protected:
    void SetUp() override
    {
        rig.setImage(ts::binCentreImage(8, 4, -4.0f, 4.0f, 8, 1));
        method = post::createHistogramMethod("compute-shared-atomic");
        ASSERT_TRUE(method);
    }
    tone_test::ToneRig rig;
    std::unique_ptr<post::HistogramMethod> method;
};

TEST_F(ToneOperatorsGl, RegistryListsTheOperatorsInOrder)
{
    const auto& entries = post::toneOperatorRegistry();
    std::vector<std::string_view> ids;
    for (const auto& entry : entries)
        ids.push_back(entry.id);
    EXPECT_EQ(ids,
              (std::vector<std::string_view>{"percentile", "equalize", "ward", "exposure", "clahe", "ward-local"}));
    for (const auto& entry : entries)
        EXPECT_EQ(post::createToneOperator(entry.id)->id(), entry.id);
    EXPECT_FALSE(post::createToneOperator("exposure")->usesHistogram());
}

TEST_F(ToneOperatorsGl, EqualizeMatchesTheCdfMinFormulaOnRandomHistograms)
{
    std::mt19937 random(5);
    post::ToneEqualize op;
    for (std::uint32_t n : {1u, 2u, 7u, 100u, 256u, 1000u, 4096u}) {
        const auto bins = randomBins(random, n);
        rig.setHistogram(bins, -7.5f, 12.25f);
        const auto words = rig.run(op, *method);
        EXPECT_EQ(words[hd::kCurveLogMin], -7.5f);
        EXPECT_EQ(words[hd::kCurveLogMax], 12.25f);
        EXPECT_EQ(words[hd::kCurveSampleCount], float(n));
        EXPECT_EQ(words[hd::kCurveChannels], 1.0f);
        EXPECT_EQ(words[hd::kCurveMode], hd::kCurveModeLut);
        const auto expected = ref::equalizeCurve(bins);
        double worst = 0.0;
        for (std::uint32_t i = 0; i < n; ++i)
            worst = std::max(worst, double(std::abs(lut(words, 0, i) - expected[i])));
        EXPECT_LE(worst, 1e-6) << n << " bins";
    }
}

TEST_F(ToneOperatorsGl, EqualizeUniformEmptyAndEncoded)
{
    post::ToneEqualize op;
    std::vector<std::uint32_t> bins(64, 0u);
    rig.setHistogram(bins, 0.0f, 1.0f);
    auto words = rig.run(op, *method);
    for (std::uint32_t i = 0; i < 64; ++i)
        ASSERT_EQ(lut(words, 0, i), post::kEqualizeDegenerateValue);
    bins[9] = 12345;
    rig.setHistogram(bins, 0.0f, 1.0f);
    words = rig.run(op, *method);
    for (std::uint32_t i = 0; i < 64; ++i)
        ASSERT_EQ(lut(words, 0, i), post::kEqualizeDegenerateValue);
    bins = {3, 0, 5, 9, 1, 0, 2};
    rig.setHistogram(bins, 0.0f, 1.0f);
    op.setSettings({false, true});
    words = rig.run(op, *method);
    const auto expected = ref::equalizeCurve(bins, true);
    for (std::uint32_t i = 0; i < bins.size(); ++i)
        EXPECT_NEAR(lut(words, 0, i), expected[i], 1e-6);
}

TEST_F(ToneOperatorsGl, EqualizePerChannelBuildsThreeHistogramsWithTheSelectedMethod)
{
    auto scan = post::createScanMethod("compute-scan");
    ASSERT_TRUE(scan);
    const ts::TestImage picture = ts::randomHdrImage(37, 23, -6.0f, 6.0f, 77);
    rig.setImage(picture);
    rig.setHistogram(std::vector<std::uint32_t>(64, 1u), -8.0f, 8.0f);
    post::ToneEqualize op;
    op.setSettings({true, false});
    const auto words = rig.run(op, *method, 1.0 / 60.0, 60.0f, scan.get());
    EXPECT_EQ(words[hd::kCurveChannels], 3.0f);
    ref::CurveInputs in;
    in.bins.assign(64, 1u);
    in.logMin = -8.0f;
    in.logMax = 8.0f;
    in.rgba = picture.rgba.data();
    in.width = picture.width;
    in.height = picture.height;
    in.settings = post::EqualizeSettings{.perChannel = true};
    const auto expected = ref::referenceCurve("equalize", in);
    // The CPU bins its own log2: a pixel on a bin edge may land in the neighbour (1/851 per pixel).
    EXPECT_LE(ref::lutMaxDifference(words, expected), 2.5e-3);
    for (int c = 0; c < 3; ++c) {
        const auto bins = op.channelHistogram(c).readAll<std::uint32_t>(64);
        std::uint64_t total = 0;
        for (auto b : bins)
            total += b;
        std::uint64_t positive = 0;
        for (std::size_t p = 0; p < picture.pixelCount(); ++p)
            positive += picture.rgba[p * 4 + std::size_t(c)] > 0.0f ? 1u : 0u;
        EXPECT_EQ(total, positive) << "channel " << c;
        EXPECT_EQ(op.channelCdf(c).readAll<std::uint32_t>(64), ref::inclusiveScan(bins));
    }
}

TEST_F(ToneOperatorsGl, PercentileFirstFrameMatchesTheReference)
{
    std::mt19937 random(9);
    const std::vector<post::DisplayCurve> curves = {post::DisplayCurve::Clamp, post::DisplayCurve::Reinhard,
                                                    post::DisplayCurve::Hable, post::DisplayCurve::AcesFit};
    int trial = 0;
    for (std::uint32_t n : {1u, 13u, 64u, 256u, 1000u, 4096u}) {
        for (auto metering : {post::PercentileMetering::Key, post::PercentileMetering::BandAverage}) {
            post::PercentileSettings s;
            s.metering = metering;
            s.display.curve = curves[std::size_t(trial++) % curves.size()];
            s.percentile = float(random() % 100);
            s.highPercentile = 90.0f + float(random() % 10);
            post::TonePercentile op;
            op.setSettings(s);
            const auto bins = randomBins(random, n);
            rig.setHistogram(bins, -12.0f, 18.0f);
            const auto words = rig.run(op, *method);
            const auto state = op.stateBuffer().readAll<float>(post::percentile_state::kWords);
            const ref::PercentileTarget target = ref::percentileExposure(ref::inclusiveScan(bins), -12.0, 18.0, s);
            ASSERT_TRUE(target.valid);
            EXPECT_NEAR(state[post::percentile_state::kExposure], target.targetEv, 2e-4) << n;
            EXPECT_NEAR(state[post::percentile_state::kMetered], target.meteredLog2, 2e-4) << n;
            EXPECT_EQ(state[post::percentile_state::kValid], 1.0f);
            ref::CurveInputs in;
            in.bins = bins;
            in.logMin = -12.0f;
            in.logMax = 18.0f;
            in.settings = s;
            const auto expected = ref::referenceCurve("percentile", in);
            EXPECT_EQ(words[hd::kCurveMode], expected[hd::kCurveMode]);
            EXPECT_LE(ref::lutMaxDifference(words, expected), 2e-4) << n << " bins";
            EXPECT_LE(ref::curveMaxDifference(words, expected, 0, -14.0, 20.0), 2e-4) << n << " bins";
        }
    }
}

TEST_F(ToneOperatorsGl, PercentileAdaptsLikeTheReferenceOverSimulatedFrames)
{
    post::PercentileSettings s;
    s.limitHighlights = false;
    post::TonePercentile op;
    op.setSettings(s);
    std::vector<std::uint32_t> dark(32, 0u), bright(32, 0u);
    dark[4] = 1000;
    bright[28] = 1000;
    ref::PercentileState expected;
    double beforeSwitch = 0.0;
    double afterSwitchSeconds = 0.0;
    const std::vector<double> dts = {1.0 / 60,  1.0 / 60, 1.0 / 60, 0.0,      -1.0, 1.0 / 30, 0.2, 5.0,
                                     1.0 / 144, 0.05,     1.0 / 60, 1.0 / 60, 0.3,  0.3,      0.3, 0.3};
    for (std::size_t frame = 0; frame < dts.size(); ++frame) {
        const auto& bins = frame < 8 ? dark : bright;
        rig.setHistogram(bins, -16.0f, 16.0f);
        rig.run(op, *method, dts[frame]);
        expected = ref::stepPercentile(expected, ref::inclusiveScan(bins), -16.0, 16.0, dts[frame], s);
        const auto state = op.stateBuffer().readAll<float>(post::percentile_state::kWords);
        EXPECT_NEAR(state[post::percentile_state::kExposure], expected.exposureEv, 2e-4) << "frame " << frame;
        if (frame == 7)
            beforeSwitch = state[post::percentile_state::kExposure];
        if (frame >= 8)
            afterSwitchSeconds += std::clamp(dts[frame], 0.0, post::kMaxAdaptationDtSeconds);
    }
    // After the switch to the bright scene (target 24 EV lower) the exposure fell linearly at 3 EV/s.
    EXPECT_NEAR(expected.exposureEv, beforeSwitch - 3.0 * afterSwitchSeconds, 2e-4);
}

TEST_F(ToneOperatorsGl, PercentileKeepsItsExposureThroughEmptyAndNanFrames)
{
    post::TonePercentile op;
    std::vector<std::uint32_t> bins(16, 0u);
    bins[3] = 50;
    bins[9] = 70;
    rig.setHistogram(bins, -8.0f, 8.0f);
    rig.run(op, *method);
    const auto before = op.stateBuffer().readAll<float>(post::percentile_state::kWords);
    ASSERT_TRUE(std::isfinite(before[post::percentile_state::kExposure]));
    // Empty histogram.
    rig.setHistogram(std::vector<std::uint32_t>(16, 0u), -8.0f, 8.0f);
    rig.run(op, *method, 0.1);
    auto after = op.stateBuffer().readAll<float>(post::percentile_state::kWords);
    EXPECT_EQ(after[post::percentile_state::kExposure], before[post::percentile_state::kExposure]);
    EXPECT_EQ(after[post::percentile_state::kFrameOk], 0.0f);
    // A NaN range (target NaN).
    rig.setHistogram(bins, std::numeric_limits<float>::quiet_NaN(), 8.0f);
    const auto words = rig.run(op, *method, 0.1);
    after = op.stateBuffer().readAll<float>(post::percentile_state::kWords);
    EXPECT_EQ(after[post::percentile_state::kExposure], before[post::percentile_state::kExposure]);
    EXPECT_TRUE(std::isfinite(words[hd::kCurveScale]));
    // Back to a usable frame: adaptation continues from the held value (no snap, dt 0 -> no change).
    rig.setHistogram(bins, -6.0f, 10.0f);
    rig.run(op, *method, 0.0);
    after = op.stateBuffer().readAll<float>(post::percentile_state::kWords);
    EXPECT_EQ(after[post::percentile_state::kExposure], before[post::percentile_state::kExposure]);
    EXPECT_EQ(after[post::percentile_state::kFrameOk], 1.0f);
    // resetState(): the next usable frame snaps to the new target.
    op.resetState();
    rig.run(op, *method, 0.0);
    after = op.stateBuffer().readAll<float>(post::percentile_state::kWords);
    EXPECT_EQ(after[post::percentile_state::kExposure], after[post::percentile_state::kTarget]);
    EXPECT_NE(after[post::percentile_state::kExposure], before[post::percentile_state::kExposure]);
}

TEST_F(ToneOperatorsGl, PercentileStatusAndMarkersArriveFramesLater)
{
    post::TonePercentile op;
    std::vector<std::uint32_t> bins(16, 10u);
    rig.setHistogram(bins, -8.0f, 8.0f);
    EXPECT_NE(op.status().find("waiting"), std::string::npos);
    for (int i = 0; i < 3; ++i)
        rig.run(op, *method);
    glFinish();
    rig.run(op, *method);
    EXPECT_NE(op.status().find("exposure"), std::string::npos) << op.status();
    EXPECT_FALSE(op.markers().empty());
}

TEST_F(ToneOperatorsGl, ExposureMatchesTheReferenceForEveryDisplayCurve)
{
    rig.setHistogram(std::vector<std::uint32_t>(8, 1u), -4.0f, 4.0f);
    for (int curve = 0; curve < post::kDisplayCurveCount; ++curve) {
        for (float ev : {-3.5f, 0.0f, 2.25f}) {
            post::ExposureSettings s;
            s.exposureEv = ev;
            s.display.curve = post::DisplayCurve(curve);
            s.display.reinhardWhite = curve == 1 && ev > 0.0f ? 4.0f : 0.0f;
            post::ToneExposure op;
            op.setSettings(s);
            const auto words = rig.run(op, *method);
            ref::CurveInputs in;
            in.settings = s;
            const auto expected = ref::referenceCurve("exposure", in);
            EXPECT_EQ(words[hd::kCurveMode], expected[hd::kCurveMode]);
            EXPECT_NEAR(words[hd::kCurveLogMin], expected[hd::kCurveLogMin], 1e-6);
            EXPECT_NEAR(words[hd::kCurveScale], expected[hd::kCurveScale], 1e-6 * expected[hd::kCurveScale]);
            EXPECT_LE(ref::lutMaxDifference(words, expected), 2e-5) << "curve " << curve << " ev " << ev;
        }
    }
}

}  // namespace
