// The percentile operator's bound on the highlight limit (PercentileSettings::maxHighlightPullEv) on the
// GPU against the CPU reference (ref::percentileExposure), in both shaders that meter: the meter after a
// scan (PercentileMeter.comp) and the in-curve scan + meter + curve (PercentileFused.comp). Prepared
// histograms put each of the three cases in force: the bound (the limit wants more), the limit (less
// than the bound) and the key (highlights already below white).
#include "post/ToneGlTestSupport.h"
#include "post/histogram/HistogramRegistry.h"
#include "post/tonemap/TonePercentile.h"
#include "post/tonemap/ToneShaders.h"
#include "reference/Scan.h"
#include "reference/TonePercentileRef.h"
#include "reference/ToneReference.h"

#include <cmath>

namespace ts = testing_support;

namespace {

struct PullCase
{
    const char* what;
    std::vector<std::uint32_t> bins;  ///< over [-10, 10]
    float whitePoint;
    float maxPullEv;
    double expectedEv;  ///< the known answer, also checked against the reference
};

class PercentileHighlightPullGl : public ts::GlTest
{
protected:
    void SetUp() override
    {
        rig.setImage(ts::binCentreImage(8, 4, -4.0f, 4.0f, 8, 1));
        method = post::createHistogramMethod("compute-shared-atomic");
        ASSERT_TRUE(method);
    }

    /// One first frame through the meter after a scan (fused = false) or the in-curve dispatch.
    std::vector<float> runFrame(post::TonePercentile& op, bool fused)
    {
        if (!fused)
            return rig.run(op, *method);
        post::PassContext ctx{ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps(), 0};
        const post::ImageInput input{rig.image, rig.size};
        post::ToneInputs inputs{input,    input,      rig.histogram, rig.cdf, rig.params,
                                rig.spec, 1.0 / 60.0, 60.0f,         *method, nullptr};
        bool written = false;
        rig.cdf.clearUint(0u);  // the CDF must come from the dispatch's own scan
        inputs.fusedCdf = &rig.cdf;
        inputs.fusedCdfWritten = &written;
        op.computeCurve(ctx, inputs, rig.curve);
        op.flushStateReadback();
        EXPECT_TRUE(written);
        return rig.curve.readAll<float>(hd::kCurveBufferWords);
    }

    tone_test::ToneRig rig;
    std::unique_ptr<post::HistogramMethod> method;
};

TEST_F(PercentileHighlightPullGl, BoundLimitAndKeyCasesMatchTheReferenceInBothShaders)
{
    const double keyEv = std::log2(0.18);
    const std::vector<std::uint32_t> uniform(20, 5u);  // median 0, p99 9.8
    std::vector<std::uint32_t> high(20, 0u);           // uniform over [5, 10]: median 7.5, p99 9.95
    for (int i = 15; i < 20; ++i)
        high[std::size_t(i)] = 5u;
    std::vector<std::uint32_t> narrow(20, 0u);  // uniform over [-2, 1]: median -0.5, p99 0.97
    for (int i = 8; i < 11; ++i)
        narrow[std::size_t(i)] = 10u;
    const std::vector<PullCase> cases = {
        {"default bound binds", uniform, 1.0f, post::kDefaultMaxHighlightPullEv, std::log2(0.03)},
        {"4 EV bound binds", uniform, 1.0f, 4.0f, keyEv - 4.0},
        {"zero bound: the key", uniform, 1.0f, 0.0f, keyEv},
        {"unbounded: the limit", uniform, 1.0f, post::kMaxHighlightPullUnbounded, -9.8},
        {"the limit within the bound", high, 0.25f, post::kDefaultMaxHighlightPullEv, -2.0 - 9.95},
        {"highlights below white: the key", narrow, 1.0f, post::kDefaultMaxHighlightPullEv, keyEv + 0.5},
    };
    for (bool fused : {false, true}) {
        for (const PullCase& c : cases) {
            SCOPED_TRACE(std::string(c.what) + (fused ? " (in-curve)" : " (meter)"));
            post::PercentileSettings s;
            s.whitePoint = c.whitePoint;
            s.maxHighlightPullEv = c.maxPullEv;
            post::TonePercentile op;
            op.setSettings(s);
            rig.setHistogram(c.bins, -10.0f, 10.0f);
            const std::vector<float> words = runFrame(op, fused);
            const auto state = op.stateBuffer().readAll<float>(post::percentile_state::kWords);
            const ref::PercentileTarget target = ref::percentileExposure(ref::inclusiveScan(c.bins), -10.0, 10.0, s);
            ASSERT_TRUE(target.valid);
            EXPECT_NEAR(target.targetEv, c.expectedEv, 1e-6);
            EXPECT_NEAR(state[post::percentile_state::kTarget], target.targetEv, 2e-4);
            EXPECT_NEAR(state[post::percentile_state::kExposure], target.targetEv, 2e-4);
            ref::CurveInputs in;
            in.bins = c.bins;
            in.logMin = -10.0f;
            in.logMax = 10.0f;
            in.settings = s;
            const auto expected = ref::referenceCurve("percentile", in);
            EXPECT_LE(ref::lutMaxDifference(words, expected), 2e-4);
        }
    }
}

}  // namespace
