// TonePercentile.h: "percentile", percentile-driven auto-exposure with temporal adaptation.
//
// Technique: percentiles of the log-luminance CDF found on the GPU (binary search, linear
// interpolation inside the bin), as Scheuermann & Hensley 2007 (section 3.2.1) suggest after Carucci
// 2006 (GDC, "HDR meets Black & White 2"). Metering is our design, since Carucci's slides that would
// say how are not available: (a) Key: the p-th percentile (50) goes to the key (0.18), limited so the
// high percentile (99th) stays at or below a white point (1.0) after exposure, but the limit may pull
// the exposure down by at most 2.585 EV (Valve's median floor 0.03 against the key); (b) BandAverage: the
// mean log2 L between two percentiles (50 %, 95 %; Unity/Unreal style) goes to the key. Then
// exposure compensation and min/max limits. Adaptation as Unreal / Bevy (linear at the set speed far
// from the target, exponential within the transition distance; up 3 EV/s, down 1 EV/s, 1.5 EV),
// integrated exactly so the result does not depend on the frame rate; engine presets
// (EnginePresets.h) switch to Unreal's, Bevy's or HDRP's own per-frame step. The exposure lives in a GPU
// buffer: an empty histogram or a non-finite target keeps it (NaN frames never poison it), the first
// usable frame snaps (no flash), dt <= 0 changes nothing, dt is clamped to 0.5 s. The curve is
// display(Lw * 2^E) in a 1024-sample LUT over the histogram range (Clamp: LinearScale mode).
// Metering masks (MeteringMask.h: centre-weighted, ellipse with a luminance gate, texture, sky
// exclusion by depth) replace the pipeline's CDF with a weighted one before the meter.
// Exposure compensation curve (tone/CompensationCurve.h, as UE5's and Bevy's): compensation EV as a
// piecewise-linear function of the metered log2 L, added with the constant compensation before the
// limits. Cuts, on footage only (ToneInputs::footage: a sequence; a live scene or a still never cuts,
// as an engine snaps only when told of a camera cut): the mean log2 L of the metered histogram (each bin's mass at its
// centre) is compared with the previous usable frame's; a move of more than cutThresholdEv is a cut, counted in the
// state (read back with the key value: the app prints and records it, and the flicker figure is taken within shots)
// and, with snapAtCuts, the exposure snaps to the new target instead of adapting. Why the mean: a uniform exposure
// change of s EV moves it by exactly s, it moves continuously with content (a median jumps across a gap in a two-peaked
// histogram), it does not depend on the histogram range (auto range moves between frames) and it needs one float of
// state; it is a lower bound of the earth mover's distance in EV, so a cut between two shots of equal mean is missed
// (and matters little: their exposures are often close too). Limits: percentiles resolve to the bin's uniform-density
// model; the status line and markers come from an asynchronous readback and lag a few frames.
#pragma once

#include "post/tonemap/EnginePresets.h"
#include "post/tonemap/MeteringMask.h"
#include "post/tonemap/ToneCommon.h"
#include "post/tonemap/ToneOperator.h"
#include "tone/ToneSettings.h"

#include <memory>

namespace post {

class TonePercentile final : public ToneOperator, public ToneState, public ToneVerification, public ToneFileHooks
{
public:
    static constexpr std::string_view kId = "percentile";

    TonePercentile();
    ~TonePercentile() override;

    std::string_view id() const override { return kId; }
    std::string_view label() const override { return "Percentile auto-exposure"; }
    std::string_view description() const override;

    ToneTraits traits() const override;  ///< scan in-curve (*Fused.comp), its local adaptation and mask
    void computeCurve(PassContext& ctx, const ToneInputs& inputs, gl::Buffer& curve) override;
    /// Scan, meter, adaptation and curve in the histogram pass's last workgroup (CURVE_KERNEL 1), unless
    /// a metering mask weights the pixels.
    bool offerCurveToHistogram(PassContext& ctx,
                               const ToneInputs& inputs,
                               gl::Buffer& curve,
                               CurveTarget& target) override;
    void resetState() override { mResetPending = true; }
    bool ui() override;
    ParameterList parameters() override;
    std::string status() const override;
    std::vector<std::pair<std::string, float>> markers() const override;
    int localAdaptationRadius() const;
    std::vector<KeyValueSample> takeKeyValues() override;
    void flushStateReadback() override
    {
        if (mReadback)
            mReadback->flush();
    }
    std::string_view keyValueName() const override { return "exposure"; }
    float cutThresholdEv() const override { return mSettings.cutThresholdEv; }
    std::optional<CompensationCurveView> compensationCurve() const override;
    /// The default floor, plus one read of the histogram image and the weighted bins when a
    /// metering mask runs its pass.
    Traffic curveMinimumTraffic(const TrafficShape& shape) const override;
    ToneState* state() override { return this; }
    const ToneVerification* verification() const override { return this; }
    ToneFileHooks* fileHooks() override { return this; }
    /// Its settings, the exposure it holds (the curve is checked there, without an adaptation step),
    /// its target and, with a metering mask, the weighted CDF, the mask's values and the depth.
    bool describeForReference(const ToneVerifyFrame& frame, ref::ToneCheckInputs& check) const override;
    std::string runNote() const override;  ///< "metering: <problem>" when the mask could not apply

    const PercentileSettings& settings() const { return mSettings; }
    void setSettings(const PercentileSettings& settings)
    {
        mSettings = sanitize(settings);
        mAppliedPreset.clear();
    }
    /// Applies an engine preset (EnginePresets.h) to the settings and queues its histogram for
    /// takeHistogramRequest(); an unknown id changes nothing and returns the error.
    EnginePresetResult applyPreset(std::string_view presetId);
    /// The id of the engine preset the settings equal (display curve, local adaptation and the cut
    /// settings aside), or "custom".
    std::string_view matchingPresetId() const;
    std::optional<HistogramRequest> takeHistogramRequest() override;
    /// The GPU state (float[percentile_state::kWords]), for tests and tools.
    const gl::Buffer& stateBuffer() const { return mState; }
    /// The weighted CDF the last frame was metered with, or nullptr when it used the pipeline's CDF.
    const gl::Buffer* meteringCdf() const { return mMeteringUsed ? &mMetering.cdf() : nullptr; }
    /// What of the metering mask the last frame could not apply (a bad texture, no depth); empty: none.
    const std::string& meteringProblem() const { return mMeteringProblem; }
    /// The metering mask's passes (weighted histogram, CDF), for tests.
    const MeteringMask& metering() const { return mMetering; }

private:
    /// Once per frame, before its curve: programs and state made, readback polled, reset done, whether
    /// the metering mask meters this frame.
    void prepareFrame(PassContext& ctx, const ToneInputs& inputs);
    /// PercentileMeterCore.glsl's uniforms, from location `base` up.
    void setCurveUniforms(const gl::Program& program,
                          int base,
                          const ToneInputs& inputs,
                          double dt,
                          std::uint64_t frameIndex) const;
    /// PercentileCurveCore.glsl's own (`base` + 20..23).
    void setFusedCurveUniforms(const gl::Program& program, int base) const;
    static double adaptationDt(const ToneInputs& inputs);
    Parameter presetParameter();
    bool meteringUi();
    bool compensationCurveUi();
    Parameter compensationCurveParameter();
    PercentileSettings mSettings;
    bool mResetPending = true;
    bool mPrepared = false;  ///< prepareFrame ran for mPreparedFrame and its curve is still to come
    std::uint64_t mPreparedFrame = 0;
    gl::Buffer mState;
    gl::Program mMeter;
    gl::Program mCurve;
    gl::Program mFused;  ///< scan in-curve: scan, meter and curve in one dispatch (PercentileFused.comp)
    std::unique_ptr<StateReadback> mReadback;
    std::string mLocalUnavailable = "no frame processed yet";  ///< why local adaptation is off here, if it is
    std::string mAppliedPreset;  ///< label of the engine preset the settings still equal; empty: custom
    std::optional<HistogramRequest> mHistogramRequest;
    MeteringMask mMetering;
    bool mMeteringUsed = false;    ///< the last frame was metered with the weighted CDF
    std::string mMeteringProblem;  ///< what of the mask the last frame could not apply
    std::string mTextureDraft;     ///< the UI's path field, applied on Enter
    std::string mTextureDraftOf;   ///< the settings path the field last showed
    std::string mCurveDraft;       ///< the UI's compensation curve field, applied on Enter
    std::string mCurveDraftOf;     ///< the curve (as text) the field last showed
    std::string mCurveError;       ///< why the last text entered was refused
};

}  // namespace post
