// ToneWard.h: "ward", Ward Larson, Rushmeier & Piatko 1997, "A visibility matching tone reproduction
// operator for high dynamic range scenes" (IEEE TVCG 3(4)): histogram adjustment with the linear
// ceiling, as Radiance pcond implements it (shared/research/algorithms.md 1.2), entirely on the GPU.
//
//  1. foveal image: box filter of the full frame to about one sample per degree of the camera's field
//     of view (fvxr = (int)(2 tan(hfov/2) / (pi/180) + 0.5), min 2; likewise fvyr), scene units times
//     the scene scale = cd/m^2 (WardFoveal.comp);
// Steps 2-4 run in two dispatches spread over many workgroups, each finished by its last workgroup
// (WardCurveSpread.comp, WardCurveDispatch.h): the range (or, where the histogram pass made the
// foveal image, its range keys instead), then the histogram and log-average with
// the fit in the last workgroup; the one-workgroup kernel (WardCurve.comp) stays for a selected
// method's histogram and a fed one, and as the bench's "before":
//  2. range: lwmax = min(1.01 max, 1e7), lwmin = max(min, 1e-7), optional bottom-bin
//     duplication (pcond's default), log-average of the counted samples;
//  3. the natural-log histogram (100 bins) of the foveal samples with the pipeline's bit-exact
//     binning, into this operator's own buffers (its range in log2 in its own params buffer); the
//     selected histogram method is not used for it: about a thousand samples do not pay for its
//     dispatches (or, for a CUDA method, an interop round trip);
//  4. ceiling iteration: T db / (ln Ldmax - ln Ldmin) with T the current total,
//     repeated while trimmings exceed 2.5 % of it; failure (T <= 2.5 % of the original) or a range that
//     fits the display -> pcond's linear operator (log-average -> sqrt(Ldmin Ldmax)); option: the
//     Ferwerda TVI ceiling (pcond -s); mapping ln Ld = ln Ldmin + (ln Ldmax - ln Ldmin) P(ln Lw) with P
//     the piecewise-linear CDF; display (Ld - Ldmin) / (Ldmax - Ldmin).
// The loop is capped at 160 passes, which never changes the result: every pass that does not end the
// loop trims more than 2.5 % of the current total, so after 146 such passes the total is below
// 0.975^146 = 2.48 % of the original and the failure test stops it.
// Differences from pcond in this default sampling (ward.sampling = frame): no random point samples
// (the foveal samples only, as algorithms.md 1.4 recommends), no centre weighting (-w), samples
// exactly at lwmin are counted (pcond's absolute FTINY test drops them when the range is not
// duplicated), float instead of double sums.
//
// ward.sampling = pcond makes the adaptation histogram exactly as pcond does (WardPcondPlan.h and
// tonemap/WardPcond*.comp; CPU reference reference/WardPcondRef.h): pfilt's box-filtered foveal
// image re-encoded as RGBE, 16 x as many drand48 point samples in getlumsamp's order (their pixels
// depend only on the picture size: made once per size on the CPU), luminances as pcond's plum() with
// the picture's units, then comphist, check2do and mkbrmap in double precision, in pcond's order.
// Three dispatches: the foveal image (a workgroup per foveal pixel, summing its box serially as pfilt
// does), the point samples, and the fit (one workgroup). A histogram can be fed in instead
// (feedHistogram: tonemap --histogram-in); the fit then starts from it.
#pragma once

#include "post/HistogramCsv.h"
#include "post/tonemap/ToneCommon.h"
#include "post/tonemap/ToneOperator.h"
#include "post/tonemap/WardCurveDispatch.h"
#include "post/tonemap/WardPcondPlan.h"
#include "tone/ToneSettings.h"

#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace post {

class ToneWard final : public ToneOperator, public ToneState, public ToneVerification, public ToneFileHooks
{
public:
    static constexpr std::string_view kId = "ward";

    ToneWard();
    ~ToneWard() override;

    std::string_view id() const override { return kId; }
    std::string_view label() const override { return "Ward 1997 histogram adjustment"; }
    std::string_view description() const override;

    /// Its own adaptation histogram; for HDR10 its display values span [Ld_min, Ld_max = the peak].
    ToneTraits traits() const override
    {
        return {.usesPipelineCdf = false,
                .hdrScaling = {.sceneReferred = false, .displayMin = activeSettings().displayMin}};
    }
    void setDisplay(const DisplaySettings& display) override { mDisplay = display; }
    void computeCurve(PassContext& ctx, const ToneInputs& inputs, gl::Buffer& curve) override;
    Traffic curveMinimumTraffic(const TrafficShape& shape) const override;
    bool ui() override;
    ParameterList parameters() override;
    std::string status() const override;
    std::vector<std::pair<std::string, float>> markers() const override;
    FovealTarget* fovealTarget(glm::ivec2 imageSize, float fovYDegrees) override;
    std::vector<KeyValueSample> takeKeyValues() override;
    void flushStateReadback() override
    {
        if (mReadback)
            mReadback->flush();
    }
    std::string_view keyValueName() const override { return "log-average"; }
    ToneState* state() override { return this; }
    const ToneVerification* verification() const override { return this; }
    ToneFileHooks* fileHooks() override { return this; }
    /// Its settings; with pcond sampling the picture as pcond reads it (top row first); with the frame
    /// fit, the fit's state, histogram and foveal image for its bit-exact model (ref::wardChecks).
    /// False with a fed histogram: there is no picture to compare with.
    bool describeForReference(const ToneVerifyFrame& frame, ref::ToneCheckInputs& check) const override;
    /// --histogram-in: the Ward section of a table written by --histogram-out, exactly; another tool's
    /// table through pcond's -I rule on the lower edges (ref::pcondHistogramFromBins, in ln cd/m^2).
    void feedHistogramFile(const HistogramFile& file) override;
    /// With pcond sampling: the (world, display) cd/m^2 pairs pcond -x prints, one per bin centre,
    /// with the curve's usual columns in front (log2 of the world luminance in scene units, display
    /// value). In the linear outcomes pcond prints 179 x the output value as the display luminance
    /// (its own convention, kept so the files compare): the display value column is what hdrlab shows.
    std::optional<std::string> curveCsv() const override;
    /// Its adaptation histogram (the curve comes from it), so --histogram-in gives it back.
    std::string histogramCsvSection() const override;

    const WardSettings& settings() const { return mSettings; }
    void setSettings(const WardSettings& settings) { mSettings = sanitize(settings); }

    /// pcond's foveal grid for a w x h frame and vertical field of view (degrees).
    static glm::ivec2 fovealGridSize(glm::ivec2 imageSize, float fovYDegrees);

    // GPU data of the last frame, for tests and the histogram view.
    const gl::Buffer& stateBuffer() const { return mState; }          ///< float[ward_state::kWords]
    const gl::Buffer& histogramBuffer() const { return mHistogram; }  ///< the Ward histogram (uint bins + counters)
    const gl::Buffer& paramsBuffer() const { return mParams; }        ///< its params (log2 range, bins)
    const gl::Buffer& viewBuffer() const { return mView; }            ///< trimmed histogram, ceilings, cumf
    const gl::Texture& fovealImage() const { return mFoveal; }
    /// Whether the last curve used a foveal image made by the histogram pass.
    bool fovealFromHistogramPass() const { return mFovealFromHistogram; }

    /// The ceiling loop's implementation (tests and benches; Auto by default). LanesSubgroup where the
    /// driver lacks subgroup arithmetic falls back to Workgroup (ceilingLoopUsed() tells).
    void setCeilingLoop(WardCeilingLoop loop) { mCeilingLoop = loop; }
    /// The implementation the last frame fit ran (Workgroup before the first).
    WardCeilingLoop ceilingLoopUsed() const { return mCurve.loopUsed(); }
    /// bench ward-factors only: defines added to the fit kernels (STOP_AFTER, PASS_LIMIT,
    /// CONSTANT_THRESHOLD: timing experiments; the results are then not the method's).
    void setCurveExperiment(gl::ShaderDefines defines) { mExperiment = std::move(defines); }
    /// The frame fit's kernel (Spread by default, as the pipeline runs it; OneWorkgroup: the kernel
    /// before it, for bench ward-factors and the tests that compare the two).
    void setCurvePath(WardCurvePath path) { mCurvePath = path; }
    /// bench ward-factors only: which spread dispatches refit() runs.
    void setSpreadParts(WardSpreadParts parts) { mSpreadParts = parts; }
    /// The spread path's buffer (tests: zero between frames).
    const gl::Buffer& spreadBuffer() const { return mCurve.spreadBuffer(); }
    /// Whether the spread fit takes its range from the keys the histogram pass wrote with the foveal
    /// image (on by default; off: the range dispatch always runs, for tests and bench ward-factors).
    void setRangeKeysFromHistogram(bool use) { mUseRangeKeys = use; }
    /// Whether the last frame fit took its range from the histogram pass's keys (no range dispatch).
    bool rangeFromHistogramPass() const { return mRangeFromKeys; }
    /// The dispatches the last spread fit ran (1: range from the keys, 2: range dispatch first).
    std::uint32_t lastSpreadDispatches() const { return mCurve.lastSpreadDispatches(); }
    /// The range keys' buffer offered to the histogram pass (tests: zero after a fit consumed them).
    const gl::Buffer& rangeKeysBuffer() const { return mCurve.rangeKeysBuffer(); }
    /// bench ward-factors: the fit's dispatches alone again (by the curve path and spread parts), on the
    /// foveal image of the last frame fit (computeCurve first); false when the last curve was not a frame fit.
    bool refit(PassContext& ctx, gl::Buffer& curve);
    /// ward-local: the one-workgroup fit (WardCurve.comp) once per tile of the last frame fit's foveal
    /// image, with this operator's settings and bins; false when the last curve was not a frame fit.
    bool fitTiles(PassContext& ctx, std::span<const WardTileRect> tiles, const WardTileOutputs& out)
    {
        if (!mLastWasFrameFit)
            return false;
        mCurve.ensure(ctx.shaders, ctx.caps, mBinsUsed, mCeilingLoop, mExperiment, WardCurvePath::OneWorkgroup);
        mCurve.dispatchTiles(curveInputs(), tiles, out);
        return true;
    }
    /// The foveal grid of the last frame fit.
    glm::ivec2 fovealGrid() const { return mGrid; }

    /// pcond sampling: the double buffer of the last fit (ward_pcond:: layout; ToneShaders.h).
    const gl::Buffer& pcondBuffer() const { return mPcond; }
    /// pcond sampling: the plan of the last frame (grid, boxes, drawn pixels), or nullptr.
    const WardPcondPlan* pcondPlan() const { return mPcondPlan ? &*mPcondPlan : nullptr; }
    /// The (world, display) cd/m^2 pairs `pcond -x` prints, read back from the last fit (a synchronous
    /// readback, for tonemap and tests); empty before a pcond fit or without samples.
    std::vector<std::pair<double, double>> readPcondPrintedMapping() const;

    /// An adaptation histogram to use instead of measuring one (tonemap --histogram-in; nullopt:
    /// measure): its fit (frame: the float fit of WardCurve.comp; pcond: the double fit) starts from it.
    void feedHistogram(std::optional<WardFedHistogram> histogram);
    bool hasFedHistogram() const { return mFed.has_value(); }
    /// The adaptation histogram the last curve was made from (a synchronous readback, for
    /// tonemap --histogram-out); nullopt before the first curve.
    std::optional<WardFedHistogram> readAdaptationHistogram() const;
    /// Whether the last curve was made by pcond sampling (ward.sampling pcond, or auto on a still picture).
    bool pcondActive() const { return mPcondActive; }

private:
    void ensureFovealImage(glm::ivec2 grid);
    void computePcondCurve(PassContext& ctx, const ToneInputs& inputs, gl::Buffer& curve);
    void ensureProgramsAndBuffers(PassContext& ctx);
    void dispatchWardCurve(std::uint32_t stage, gl::Buffer& curve);
    /// The frame fit by mCurvePath (refit: with mSpreadParts), its range from the keys where usable.
    void dispatchFrameFit(gl::Buffer& curve, WardSpreadParts parts);
    /// Whether this frame's range keys (mFovealTarget) fit the fit about to run; consumes the flag.
    bool takeRangeKeys();
    WardCurveInputs curveInputs() const;

    WardSettings mSettings;
    DisplaySettings mDisplay;  ///< the pipeline's display (setDisplay): HDR10 replaces Ld_max by its peak
    /// mSettings as the curve uses them: sanitized, Ld_max = the HDR10 peak where the display is HDR10.
    WardSettings activeSettings() const;
    std::uint32_t mBinsUsed = 0;
    glm::ivec2 mGrid{0};
    gl::Program mFovealProgram;       ///< a workgroup per foveal sample
    gl::Program mFovealSmallProgram;  ///< an invocation per foveal sample (small blocks)
    WardCurveDispatch mCurve;         ///< range, histogram and ceiling loop (spread or one workgroup)
    WardCurvePath mCurvePath = WardCurvePath::Spread;
    WardSpreadParts mSpreadParts = WardSpreadParts::Both;
    WardCeilingLoop mCeilingLoop = WardCeilingLoop::Auto;
    gl::ShaderDefines mExperiment;
    bool mLastWasFrameFit = false;
    gl::Texture mFoveal;
    FovealTarget mFovealTarget;         ///< offered to the histogram pass
    bool mFovealFromHistogram = false;  ///< last frame's foveal image came from the histogram pass
    bool mUseRangeKeys = true;
    bool mRangeFromKeys = false;  ///< the last frame fit's range came from the histogram pass's keys
    gl::Buffer mParams;
    gl::Buffer mHistogram;
    gl::Buffer mState;
    gl::Buffer mView;
    std::unique_ptr<StateReadback> mReadback;
    // pcond sampling
    gl::Program mPcondFovealProgram;
    gl::Program mPcondPointsProgram;
    gl::Program mPcondFitProgram;
    std::optional<WardPcondPlan> mPcondPlan;
    gl::Buffer mPcondBoxes;
    gl::Buffer mPcondPositions;
    gl::Buffer mPcondSamples;
    gl::Buffer mPcond;
    std::optional<WardFedHistogram> mFed;
    bool mPcondActive = false;
    hd::LuminanceWeights mLuminance;  ///< this frame's input units, for WardCurve.comp
    float mCdPerUnit = 1.0f;          ///< the last curve came from pcond sampling (or a fed histogram)
    bool mFedUploaded = false;
};

}  // namespace post
