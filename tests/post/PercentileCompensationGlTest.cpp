// The percentile operator's exposure compensation curve and cut detection on the GPU against the CPU
// reference (ref::percentileExposure, ref::stepPercentile), in both shaders that meter: the meter
// after a scan (PercentileMeter.comp) and the in-curve scan + meter + curve (PercentileFused.comp).
// Curves with one point, two points with the metered value between them, below the first and above
// the last (held at both ends), and none; on footage, two shots (dark, slowly brightening, then
// bright) give one cut at the first bright frame, where the exposure snaps (or, with the snap off,
// keeps adapting), the GPU's mean and cut count as the reference's; without footage no cut.
#include "post/ToneGlTestSupport.h"
#include "post/histogram/HistogramRegistry.h"
#include "post/tonemap/TonePercentile.h"
#include "post/tonemap/ToneShaders.h"
#include "reference/Scan.h"
#include "reference/TonePercentileRef.h"
#include "reference/ToneReference.h"

#include <cmath>

namespace ts = testing_support;
namespace state = post::percentile_state;

namespace {

class PercentileCompensationGl : public ts::GlTest
{
protected:
    void SetUp() override
    {
        rig.setImage(ts::binCentreImage(8, 4, -4.0f, 4.0f, 8, 1));
        method = post::createHistogramMethod("compute-shared-atomic");
        ASSERT_TRUE(method);
    }

    /// One frame through the meter after a scan (fused = false) or the in-curve dispatch.
    std::vector<float> runFrame(post::TonePercentile& op, bool fused, bool footage, double dt, std::uint64_t frame)
    {
        post::PassContext ctx{ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps(), frame};
        const post::ImageInput input{rig.image, rig.size};
        post::ToneInputs inputs{input,    input, rig.histogram, rig.cdf, rig.params,
                                rig.spec, dt,    60.0f,         *method, nullptr};
        inputs.footage = footage;
        bool written = false;
        if (fused) {
            rig.cdf.clearUint(0u);  // the CDF must come from the dispatch's own scan
            inputs.fusedCdf = &rig.cdf;
            inputs.fusedCdfWritten = &written;
        }
        op.computeCurve(ctx, inputs, rig.curve);
        op.flushStateReadback();
        EXPECT_EQ(written, fused);
        return rig.curve.readAll<float>(hd::kCurveBufferWords);
    }

    tone_test::ToneRig rig;
    std::unique_ptr<post::HistogramMethod> method;
};

post::CompensationCurve curveOf(std::vector<post::CompensationPoint> points)
{
    return post::sanitize(post::CompensationCurve{std::move(points)});
}

TEST_F(PercentileCompensationGl, TheCurveMatchesTheReferenceInBothShaders)
{
    std::vector<std::uint32_t> bins(20, 0u);  // over [-10, 10]: the median is the top of bin 6, log2 L -3
    bins[6] = 40;
    bins[8] = 40;
    struct Case
    {
        const char* what;
        post::CompensationCurve curve;
        double expectedCurveEv;  ///< at the metered median, -3
    };
    const std::vector<Case> cases = {
        {"none: flat 0", {}, 0.0},
        {"one point", curveOf({{5.0f, -1.25f}}), -1.25},
        {"two points, between", curveOf({{-6.0f, -2.0f}, {2.0f, 2.0f}}), -0.5},
        {"two points, below the first: held", curveOf({{0.0f, 1.5f}, {6.0f, 3.0f}}), 1.5},
        {"two points, above the last: held", curveOf({{-9.0f, -3.0f}, {-4.0f, -0.5f}}), -0.5},
        {"three points", curveOf({{-8.0f, 1.0f}, {-4.0f, 0.0f}, {0.0f, 2.0f}}), 0.5},
    };
    for (bool fused : {false, true}) {
        for (const Case& c : cases) {
            SCOPED_TRACE(std::string(c.what) + (fused ? " (in-curve)" : " (meter)"));
            post::PercentileSettings s;
            s.limitHighlights = false;
            s.compensationEv = 0.25f;
            s.compensationCurve = c.curve;
            post::TonePercentile op;
            op.setSettings(s);
            rig.setHistogram(bins, -10.0f, 10.0f);
            const std::vector<float> words = runFrame(op, fused, false, 1.0 / 60.0, 0);
            const auto gpu = op.stateBuffer().readAll<float>(state::kWords);
            const ref::PercentileTarget target = ref::percentileExposure(ref::inclusiveScan(bins), -10.0, 10.0, s);
            ASSERT_TRUE(target.valid);
            EXPECT_NEAR(target.meteredLog2, -3.0, 1e-9);
            EXPECT_NEAR(target.curveEv, c.expectedCurveEv, 1e-6);
            EXPECT_NEAR(target.targetEv, std::log2(0.18) + 3.0 + 0.25 + c.expectedCurveEv, 1e-6);
            EXPECT_NEAR(gpu[state::kCompensation], target.curveEv, 2e-5);
            EXPECT_NEAR(gpu[state::kTarget], target.targetEv, 2e-4);
            EXPECT_NEAR(gpu[state::kExposure], target.targetEv, 2e-4);
            ref::CurveInputs in;
            in.bins = bins;
            in.logMin = -10.0f;
            in.logMax = 10.0f;
            in.settings = s;
            EXPECT_LE(ref::lutMaxDifference(words, ref::referenceCurve("percentile", in)), 2e-4);
        }
    }
}

/// A one-bin frame of 32 bins over [-16, 16] at log2 L = `log2`.
std::vector<std::uint32_t> shotFrame(double log2)
{
    std::vector<std::uint32_t> bins(32, 0u);
    bins[std::size_t(std::clamp(std::floor(log2 + 16.0), 0.0, 31.0))] = 1000u;
    return bins;
}

TEST_F(PercentileCompensationGl, CutsOnFootageMatchTheReferenceAndSnap)
{
    std::vector<std::vector<std::uint32_t>> frames;  // dark then bright, each slowly brightening
    for (int i = 0; i < 12; ++i)
        frames.push_back(shotFrame(-6.0 + 0.15 * i));
    for (int i = 0; i < 12; ++i)
        frames.push_back(shotFrame(4.0 + 0.15 * i));
    for (bool fused : {false, true})
        for (bool snap : {true, false})
            for (bool footage : {true, false}) {
                SCOPED_TRACE(std::string(fused ? "in-curve" : "meter") + (snap ? ", snap" : ", no snap") +
                             (footage ? ", footage" : ", live"));
                post::PercentileSettings s;
                s.limitHighlights = false;
                s.snapAtCuts = snap;
                post::TonePercentile op;
                op.setSettings(s);
                ref::PercentileState expected;
                for (std::size_t f = 0; f < frames.size(); ++f) {
                    rig.setHistogram(frames[f], -16.0f, 16.0f);
                    runFrame(op, fused, footage, 1.0 / 24.0, 100 + f);
                    expected = ref::stepPercentile(expected, ref::inclusiveScan(frames[f]), -16.0, 16.0, 1.0 / 24.0, s,
                                                   footage);
                    const auto gpu = op.stateBuffer().readAll<float>(state::kWords);
                    EXPECT_NEAR(gpu[state::kExposure], expected.exposureEv, 2e-4) << "frame " << f;
                    EXPECT_EQ(gpu[state::kCut] != 0.0f, expected.cut) << "frame " << f;
                    EXPECT_EQ(gpu[state::kCut] != 0.0f, footage && f == 12) << "frame " << f;
                    EXPECT_EQ(gpu[state::kCutCount], float(expected.cutCount)) << "frame " << f;
                    if (expected.meanLog2)
                        EXPECT_NEAR(gpu[state::kMeanLog2], *expected.meanLog2, 1e-4) << "frame " << f;
                    if (f == 12 && footage) {
                        EXPECT_EQ(gpu[state::kLastCutFrame], 112.0f);
                        EXPECT_NEAR(gpu[state::kLastCutDistance], expected.cutDistanceEv, 1e-4);
                        if (snap)
                            EXPECT_EQ(gpu[state::kExposure], gpu[state::kTarget]) << "snapped";
                        else
                            EXPECT_GT(std::abs(gpu[state::kExposure] - gpu[state::kTarget]), 5.0f) << "adapting";
                    }
                }
            }
}

}  // namespace
