#include "post/tonemap/TonePercentile.h"

#include "gl/Debug.h"
#include "post/tonemap/ToneShaders.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace post {

TonePercentile::TonePercentile() = default;
TonePercentile::~TonePercentile() = default;

std::string_view TonePercentile::description() const
{
    return "Exposure from percentiles of the log-luminance CDF (key or band average), adapted over time "
           "(linear far, exponential near), then a display curve. Metering after Carucci 2006 as read by "
           "Scheuermann & Hensley 2007; adaptation as Unreal/Bevy.";
}

void TonePercentile::prepareFrame(PassContext& ctx, const ToneInputs& inputs)
{
    if (mPreparedFrame == ctx.frameIndex && mPrepared)
        return;  // offerCurveToHistogram prepared this frame already
    mPrepared = true;
    mPreparedFrame = ctx.frameIndex;
    if (!mMeter) {
        mMeter = ctx.shaders.buildCompute("tonemap.percentile.meter", "tonemap/PercentileMeter.comp",
                                          percentileStateDefines());
        mCurve = buildExposureCurveProgram(ctx.shaders, "tonemap.percentile.curve");
        mState = gl::Buffer("tonemap.percentile.state", percentile_state::kWords * sizeof(float));
        mReadback =
            std::make_unique<StateReadback>("tonemap.percentile.state", percentile_state::kWords * sizeof(float));
    }
    mReadback->poll();
    mLocalUnavailable = ctx.caps.cudaAvailable ? std::string() : "needs CUDA: " + ctx.caps.cudaReason;
    if (mResetPending) {
        mState.clearUint(0u);  // all words 0.0f: not valid, the next usable frame snaps
        mResetPending = false;
    }
    // A metering mask meters a weighted CDF (normalised to 2^30) instead of the pipeline's pixel counts;
    // the meter reads fractions of the last entry either way.
    const MeteringFrame meteringFrame{inputs.image, inputs.histogramImage, inputs.params, inputs.depth,
                                      inputs.topDownRows};
    mMeteringUsed = mMetering.active(mSettings.meteringMask, meteringFrame);
}

void TonePercentile::setCurveUniforms(const gl::Program& program,
                                      int base,
                                      const ToneInputs& inputs,
                                      double dt,
                                      std::uint64_t frameIndex) const
{
    const PercentileSettings& s = mSettings;
    program.set(base + 0, unsigned(s.metering));  // PercentileMeterCore.glsl's
    program.set(base + 1, s.percentile / 100.0f);
    program.set(base + 2, s.highPercentile / 100.0f);
    program.set(base + 3, s.bandLow / 100.0f);
    program.set(base + 4, s.bandHigh / 100.0f);
    program.set(base + 5, std::log2(s.key));
    program.set(base + 6, std::log2(s.whitePoint));
    program.set(base + 7, s.limitHighlights ? 1u : 0u);
    program.set(base + 8, s.compensationEv);
    program.set(base + 9, s.minEv);
    program.set(base + 10, s.maxEv);
    program.set(base + 11, s.adapt ? 1u : 0u);
    program.set(base + 12, s.speedUpEv);
    program.set(base + 13, s.speedDownEv);
    program.set(base + 14, s.transitionEv);
    program.set(base + 15, float(dt));
    program.set(base + 16, 0u);
    program.set(base + 17, unsigned(s.adaptationCurve));
    program.set(base + 18, s.maxHighlightPullEv);
    program.set(base + 19, inputs.footage ? s.cutThresholdEv : 0.0f);
    program.set(base + 24, s.snapAtCuts ? 1u : 0u);
    program.set(base + 25, unsigned(frameIndex));
    const std::vector<CompensationPoint>& points = s.compensationCurve.points;
    program.set(base + 26, unsigned(points.size()));
    std::vector<float> pairs;
    for (const CompensationPoint& p : points)
        pairs.insert(pairs.end(), {p.meteredEv, p.compensationEv});
    if (!pairs.empty())
        glProgramUniform2fv(program.id(), base + 27, GLsizei(points.size()), pairs.data());
}

/// The fused curve's own uniforms (PercentileCurveCore.glsl's, from `base` + 20).
void TonePercentile::setFusedCurveUniforms(const gl::Program& program, int base) const
{
    const PercentileSettings& s = mSettings;
    program.set(base + 20, kPercentileCurveSamples);
    program.set(base + 21, unsigned(s.display.curve));
    program.set(base + 22, s.display.reinhardWhite);
    program.set(base + 23, s.localAdaptation ? s.localBlend : 0.0f);
}

double TonePercentile::adaptationDt(const ToneInputs& inputs)
{
    const double dt = inputs.dtSeconds;
    return std::isfinite(dt) ? std::clamp(dt, 0.0, kMaxAdaptationDtSeconds) : 0.0;
}

bool TonePercentile::offerCurveToHistogram(PassContext& ctx,
                                           const ToneInputs& inputs,
                                           gl::Buffer& curve,
                                           CurveTarget& target)
{
    prepareFrame(ctx, inputs);
    if (!inputs.fusedCdf || mMeteringUsed)
        return false;  // a weighted CDF is metered by its own passes
    const double dt = adaptationDt(inputs);
    const std::uint64_t frameIndex = ctx.frameIndex;
    target.kernel = 1;
    target.defines = percentileStateDefines();
    target.curve = &curve;
    target.cdf = inputs.fusedCdf;
    target.state = &mState;
    target.setUniforms = [this, inputs, dt, frameIndex](const gl::Program& program, int base) {
        setCurveUniforms(program, base, inputs, dt, frameIndex);
        setFusedCurveUniforms(program, base);
    };
    return true;
}

void TonePercentile::computeCurve(PassContext& ctx, const ToneInputs& inputs, gl::Buffer& curve)
{
    prepareFrame(ctx, inputs);
    mPrepared = false;                   // the next frame prepares again
    if (inputs.curveBuiltInHistogram) {  // the histogram pass's last workgroup built it
        mReadback->request(mState, 0, ctx.frameIndex);
        return;
    }
    const PercentileSettings& s = mSettings;
    const double dt = adaptationDt(inputs);
    const MeteringFrame meteringFrame{inputs.image, inputs.histogramImage, inputs.params, inputs.depth,
                                      inputs.topDownRows};
    const gl::Buffer& cdf = mMeteringUsed ? mMetering.run(ctx, s.meteringMask, meteringFrame) : inputs.cdf;
    mMeteringProblem = mMetering.problem(s.meteringMask);
    const auto setMeterUniforms = [&](const gl::Program& program) {
        setCurveUniforms(program, 0, inputs, dt, ctx.frameIndex);
    };
    if (inputs.fusedCdf && !mMeteringUsed) {  // scan in-curve: scan, meter and curve in one dispatch
        if (!mFused)
            mFused = ctx.shaders.buildCompute("tonemap.percentile.fused", "tonemap/PercentileFused.comp",
                                              percentileStateDefines());
        gl::DebugGroup group("tonemap/percentile/fused");
        inputs.params.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogramParams);
        inputs.histogram.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogram);
        inputs.fusedCdf->bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingCdf);
        mState.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingOperatorState);
        curve.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingCurve);
        setMeterUniforms(mFused);
        setFusedCurveUniforms(mFused, 0);
        mFused.use();
        glDispatchCompute(1, 1, 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
        if (inputs.fusedCdfWritten)
            *inputs.fusedCdfWritten = true;
        mReadback->request(mState, 0, ctx.frameIndex);
        return;
    }
    {
        gl::DebugGroup group("tonemap/percentile/meter");
        inputs.params.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogramParams);
        cdf.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingCdf);
        mState.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingOperatorState);
        setMeterUniforms(mMeter);
        mMeter.use();
        glDispatchCompute(1, 1, 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    }
    {
        gl::DebugGroup group("tonemap/percentile/curve");
        dispatchExposureCurve(mCurve, inputs.params, curve, &mState, s.display, kPercentileCurveSamples, 0.0f, 0.0f,
                              0.0f, s.localAdaptation ? s.localBlend : 0.0f);
    }
    mReadback->request(mState, 0, ctx.frameIndex);
}

std::vector<KeyValueSample> TonePercentile::takeKeyValues()
{
    using namespace percentile_state;
    std::vector<KeyValueSample> out;
    if (!mReadback)
        return out;
    for (const StateReadback::Arrival& arrival : mReadback->takeArrived())
        if (arrival.words[kValid] != 0.0f && std::isfinite(arrival.words[kExposure])) {
            KeyValueSample sample{arrival.frameIndex, arrival.words[kExposure]};
            sample.cutCount = std::uint64_t(arrival.words[kCutCount]);
            sample.lastCutFrame = std::uint64_t(arrival.words[kLastCutFrame]);
            sample.lastCutDistanceEv = arrival.words[kLastCutDistance];
            sample.cutSnaps = mSettings.snapAtCuts;
            out.push_back(sample);
        }
    return out;
}

Traffic TonePercentile::curveMinimumTraffic(const TrafficShape& shape) const
{
    Traffic traffic = ToneOperator::curveMinimumTraffic(shape);
    const MeteringSettings& m = mSettings.meteringMask;
    if (m.mask != MeteringMaskType::Average || m.excludeSky) {
        const std::uint64_t weightedBins = std::uint64_t(shape.bins) * 2 * kBinBytes;  // 64-bit weighted bins
        traffic += {pixelCount(shape.histogramImage) * shape.frameBytesPerPixel + weightedBins, weightedBins};
    }
    return traffic;
}

EnginePresetResult TonePercentile::applyPreset(std::string_view presetId)
{
    EnginePresetResult result = applyEnginePreset(presetId, mSettings);
    if (result.ok) {
        mHistogramRequest = HistogramRequest{result.histogram.bins, result.histogram.logMin, result.histogram.logMax,
                                             result.localExposure};
        mAppliedPreset = std::string(findEnginePreset(presetId)->label);
    }
    return result;
}

std::optional<HistogramRequest> TonePercentile::takeHistogramRequest()
{
    return std::exchange(mHistogramRequest, std::nullopt);
}

bool TonePercentile::ui()
{
    PercentileSettings& s = mSettings;
    bool changed = false;
    bool fromPreset = false;
    // One click sets metering, key, limits and adaptation, and (through takeHistogramRequest) the
    // histogram's bins and range; any later edit makes the settings "custom" again.
    if (ImGui::BeginCombo("Preset", mAppliedPreset.empty() ? "custom" : mAppliedPreset.c_str())) {
        for (const EnginePreset& preset : enginePresets()) {
            if (ImGui::Selectable(std::string(preset.label).c_str(), mAppliedPreset == preset.label)) {
                applyPreset(preset.id);
                changed = fromPreset = true;
            }
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip("%s", std::string(preset.description).c_str());
        }
        ImGui::EndCombo();
    }
    helpMarker(
        "Reproduces an engine's histogram auto-exposure defaults (research/engines.md b): bins and range, band "
        "percentiles, key, limits, adaptation speeds and curve. Hover an entry for its sources and what hdrlab "
        "cannot reproduce.");
    const char* modes[] = {"Percentile", "Band average"};
    int mode = int(s.metering);
    if (ImGui::Combo("Metering", &mode, modes, 2)) {
        s.metering = PercentileMetering(mode);
        changed = true;
    }
    helpMarker(
        "Percentile: the p-th percentile of log luminance is exposed to the key, limited so the "
        "high percentile stays at or below the white point (our reading of Carucci 2006). Band average: "
        "the mean log luminance between two percentiles is exposed to the key (Unreal / Unity style).");
    changed |= ImGui::SliderFloat("Key", &s.key, 0.01f, 1.0f, "%.3f", ImGuiSliderFlags_Logarithmic);
    helpMarker("Exposed luminance the metered value maps to (0.18 = middle grey).");
    if (s.metering == PercentileMetering::Key) {
        changed |= ImGui::SliderFloat("Percentile", &s.percentile, 0.0f, 100.0f, "%.1f %%");
        helpMarker("Percentile of the log-luminance distribution placed at the key (50 = median).");
        changed |= ImGui::Checkbox("Limit highlights", &s.limitHighlights);
        helpMarker("Lower the exposure when the high percentile would exceed the white point.");
        if (s.limitHighlights) {
            changed |= ImGui::SliderFloat("High percentile", &s.highPercentile, 0.0f, 100.0f, "%.1f %%");
            changed |=
                ImGui::SliderFloat("White point", &s.whitePoint, 0.1f, 16.0f, "%.2f", ImGuiSliderFlags_Logarithmic);
            helpMarker("Exposed luminance the high percentile may reach.");
            changed |= ImGui::SliderFloat("Max pull", &s.maxHighlightPullEv, 0.0f, kMaxHighlightPullUnbounded,
                                          "%.2f EV", ImGuiSliderFlags_Logarithmic);
            helpMarker(
                "Max highlight pull: the most the highlight limit may lower the exposure below the key's: the "
                "metered percentile never "
                "falls below key / 2^this (default 2.58 EV: Valve's median floor 0.03 against the key 0.18). 64: "
                "no bound.");
        }
    } else {
        changed |= ImGui::SliderFloat("Band low", &s.bandLow, 0.0f, 100.0f, "%.1f %%");
        changed |= ImGui::SliderFloat("Band high", &s.bandHigh, 0.0f, 100.0f, "%.1f %%");
        helpMarker("The mean of log2 luminance between these percentiles is metered (Unity 50-95, Unreal 10-90).");
    }
    changed |= ImGui::SliderFloat("Compensation", &s.compensationEv, -8.0f, 8.0f, "%+.2f EV");
    helpMarker("Added to the target exposure.");
    changed |= compensationCurveUi();
    changed |= ImGui::DragFloatRange2("EV limits", &s.minEv, &s.maxEv, 0.1f, -32.0f, 32.0f, "%+.1f");
    changed |= ImGui::Checkbox("Adapt over time", &s.adapt);
    helpMarker("Off: the exposure follows the target at once.");
    if (s.adapt) {
        changed |= ImGui::SliderFloat("Speed up", &s.speedUpEv, 0.05f, 20.0f, "%.2f EV/s");
        helpMarker("Speed when the scene gets brighter (the exposure falls), as Unreal's SpeedUp.");
        changed |= ImGui::SliderFloat("Speed down", &s.speedDownEv, 0.05f, 20.0f, "%.2f EV/s");
        helpMarker("Speed when the scene gets darker (the exposure rises).");
        const char* curves[] = {"Exact", "Unreal steps", "Bevy steps", "Exponential"};
        int curve = int(s.adaptationCurve);
        if (ImGui::Combo("Adaptation curve", &curve, curves, kAdaptationCurveCount)) {
            s.adaptationCurve = AdaptationCurve(curve);
            changed = true;
        }
        helpMarker(
            "Exact: linear beyond the transition, exponential within, integrated over dt (the same at any frame "
            "rate). Unreal / Bevy steps: the engines' own per-frame updates of that scheme. Exponential (HDRP): "
            "prev + d (1 - 2^(-dt speed)), no linear part, transition unused.");
        if (s.adaptationCurve != AdaptationCurve::Exponential) {
            changed |= ImGui::SliderFloat("Transition (EV)", &s.transitionEv, 0.0f, 8.0f, "%.2f");
            helpMarker("Linear adaptation beyond this distance from the target, exponential within it.");
        }
    }
    changed |= ImGui::SliderFloat("Cut threshold", &s.cutThresholdEv, 0.0f, 8.0f, "%.2f EV");
    helpMarker(
        "A cut (footage): the metered histogram's mean log2 luminance moved more than this since the previous frame. "
        "Cuts are printed and recorded, the flicker figure is taken within shots, and with 'Snap at cuts' the "
        "exposure jumps to the new target instead of adapting. 0: no cut detection.");
    changed |= ImGui::Checkbox("Snap at cuts", &s.snapAtCuts);
    changed |= displayCurveUi(s.display);

    // Local adaptation needs the CUDA summed-area table; without it the option is shown disabled.
    ImGui::BeginDisabled(!mLocalUnavailable.empty());
    changed |= ImGui::Checkbox("Local adaptation", &s.localAdaptation);
    ImGui::EndDisabled();
    helpMarker(mLocalUnavailable.empty()
                   ? "Expose each pixel partly by the mean log luminance of its neighbourhood, from a CUDA summed-area "
                     "table of the frame (Bilgic et al. 2010): the lookup uses Lw * 2^(blend * (metered - local mean))."
                   : ("Unavailable: " + mLocalUnavailable).c_str());
    if (s.localAdaptation && mLocalUnavailable.empty()) {
        changed |= ImGui::SliderFloat("Local blend", &s.localBlend, 0.0f, 1.0f, "%.2f");
        helpMarker("0: the global exposure only; 1: each pixel exposed by its neighbourhood alone.");
        changed |= ImGui::SliderInt("Local radius", &s.localRadius, 1, 512, "%d px");
        helpMarker("Half-size of the square window averaged around each pixel.");
    }
    changed |= meteringUi();
    if (changed)
        s = sanitize(s);
    if (changed && !fromPreset)
        mAppliedPreset.clear();
    return changed;
}

bool TonePercentile::meteringUi()
{
    MeteringSettings& m = mSettings.meteringMask;
    bool changed = false;
    if (!ImGui::CollapsingHeader("Metering mask"))
        return false;
    ImGui::PushID("metering");
    const char* masks[] = {"Average", "Centre", "Ellipse", "Texture"};
    int mask = int(m.mask);
    if (ImGui::Combo("Mask", &mask, masks, kMeteringMaskCount)) {
        m.mask = MeteringMaskType(mask);
        changed = true;
    }
    helpMarker(
        "Which pixels the percentiles see, and how much each counts (a weighted histogram). Average: all equally. "
        "Centre (HDRP's centre-weighted): 1 - distance from the centre / half of (width + height). Ellipse (HDRP's "
        "procedural mask): 1 - t^(1/softness) with t the distance in radii, zero outside the luminance gate. Texture: "
        "the first channel of an image. The View "
        "panel's 'metering' view shows the weights on the picture.");
    if (m.mask == MeteringMaskType::Ellipse) {
        changed |= ImGui::SliderFloat2("Centre", &m.centreX, 0.0f, 1.0f, "%.2f");
        helpMarker("Fractions of the width (0 = left) and height (0 = top).");
        changed |= ImGui::SliderFloat2("Radii", &m.radiusX, 0.01f, 1.0f, "%.2f");
        helpMarker("Fractions of the width and height (HDRP 0.3).");
        changed |= ImGui::SliderFloat("Softness", &m.softness, 0.05f, 4.0f, "%.2f", ImGuiSliderFlags_Logarithmic);
        helpMarker("Weight 1 - t^(1/softness): larger gives the edge less weight (HDRP 0.5).");
        changed |= ImGui::DragFloatRange2("Gate (log2 L)", &m.gateMinEv, &m.gateMaxEv, 0.1f, -64.0f, 64.0f, "%+.1f");
        helpMarker(
            "Pixels whose log2 luminance is outside (min, max) weigh 0 (HDRP's mask min/max intensity, -30/+30).");
    }
    if (m.mask == MeteringMaskType::Texture) {
        if (m.texturePath != mTextureDraftOf) {  // set elsewhere (--set, a settings file): show it
            mTextureDraft = m.texturePath;
            mTextureDraftOf = m.texturePath;
        }
        char path[1024] = {};
        mTextureDraft.copy(path, sizeof(path) - 1);
        if (ImGui::InputText("Mask file", path, sizeof(path), ImGuiInputTextFlags_EnterReturnsTrue)) {
            m.texturePath = mTextureDraftOf = path;
            changed = true;
        }
        mTextureDraft = path;
        helpMarker(
            "An image whose first channel holds the weights (EXR: float as stored; PNG: value / 255), "
            "sampled at the nearest texel; NaN and negative weigh 0, above 1 weighs 1. Press Enter to load.");
    }
    ImGui::BeginDisabled(!mMetering.skyUnavailable().empty());
    changed |= ImGui::Checkbox("Exclude sky (depth)", &m.excludeSky);
    ImGui::EndDisabled();
    helpMarker(mMetering.skyUnavailable().empty()
                   ? "Pixels where the scene's depth is the far plane (nothing drawn: the sky) weigh 0, with any mask."
                   : ("Unavailable: " + mMetering.skyUnavailable()).c_str());
    if (!mMeteringProblem.empty()) {
        ImGui::PushTextWrapPos(0.0f);  // at the column's edge
        ImGui::TextColored(ImVec4(1.0f, 0.6f, 0.3f, 1.0f), "%s", mMeteringProblem.c_str());
        ImGui::PopTextWrapPos();
    }
    ImGui::PopID();
    return changed;
}

int TonePercentile::localAdaptationRadius() const
{
    return mSettings.localAdaptation && mLocalUnavailable.empty() ? mSettings.localRadius : -1;
}

std::string TonePercentile::status() const
{
    using namespace percentile_state;
    if (!mReadback || !mReadback->hasData())
        return "percentile: waiting for the first frame" + (mMeteringProblem.empty() ? "" : "; " + mMeteringProblem);
    const std::vector<float>& w = mReadback->latest();
    if (w[kValid] == 0.0f)
        return "percentile: no usable histogram yet";
    std::string text = "exposure " + formatEv(w[kExposure]) + " EV, target " + formatEv(w[kTarget]) + " EV";
    if (!mSettings.compensationCurve.points.empty())
        text += " (curve " + formatEv(w[kCompensation]) + " EV)";
    if (w[kCutCount] > 0.0f)
        text += ", cuts " + std::to_string(std::uint64_t(w[kCutCount]));
    if (w[kFrameOk] == 0.0f)
        text += mMeteringUsed ? " (nothing metered: held)" : " (empty/NaN frame: held)";
    if (!mMeteringProblem.empty())
        text += "; " + mMeteringProblem;
    return text;
}

std::vector<std::pair<std::string, float>> TonePercentile::markers() const
{
    using namespace percentile_state;
    if (!mReadback || !mReadback->hasData() || mReadback->latest()[kValid] == 0.0f)
        return {};
    const std::vector<float>& w = mReadback->latest();
    const float log2Key = std::log2(mSettings.key);
    std::vector<std::pair<std::string, float>> out;
    if (mSettings.metering == PercentileMetering::Key) {
        out.emplace_back("p" + std::to_string(int(std::lround(mSettings.percentile))), w[kMetered]);
        if (mSettings.limitHighlights)
            out.emplace_back("p" + std::to_string(int(std::lround(mSettings.highPercentile))), w[kHigh]);
    } else {
        out.emplace_back("band low", w[kBandLow]);
        out.emplace_back("band mean", w[kMetered]);
        out.emplace_back("band high", w[kBandHigh]);
    }
    out.emplace_back("key (target)", log2Key - w[kTarget]);
    out.emplace_back("key (now)", log2Key - w[kExposure]);
    return out;
}

std::string_view TonePercentile::matchingPresetId() const
{
    for (const EnginePreset& preset : enginePresets()) {
        PercentileSettings withPreset = mSettings;
        applyEnginePreset(preset.id, withPreset);
        withPreset.cutThresholdEv = mSettings.cutThresholdEv;  // cuts are footage's, not an engine's
        withPreset.snapAtCuts = mSettings.snapAtCuts;
        if (withPreset == mSettings)
            return preset.id;
    }
    return "custom";
}

namespace {

std::vector<ParameterPoint> toParameterPoints(const CompensationCurve& curve)
{
    std::vector<ParameterPoint> points;
    for (const CompensationPoint& p : curve.points)
        points.push_back({double(p.meteredEv), double(p.compensationEv)});
    return points;
}

CompensationCurve fromParameterPoints(const std::vector<ParameterPoint>& points)
{
    CompensationCurve curve;
    for (const ParameterPoint& p : points)
        curve.points.push_back({float(p.x), float(p.y)});
    return curve;
}

}  // namespace

Parameter TonePercentile::compensationCurveParameter()
{
    return pointsParameter(
        "percentile.compensation_curve", "Compensation curve (metered log2 L : EV)", -kCompensationCurveMeteredLimit,
        kCompensationCurveMeteredLimit, -kCompensationCurveValueLimit, kCompensationCurveValueLimit,
        kMaxCompensationPoints, [this] { return toParameterPoints(mSettings.compensationCurve); },
        [this](std::vector<ParameterPoint> points) { mSettings.compensationCurve = fromParameterPoints(points); });
}

std::optional<CompensationCurveView> TonePercentile::compensationCurve() const
{
    using namespace percentile_state;
    CompensationCurveView view;
    view.curve = mSettings.compensationCurve;
    if (mReadback && mReadback->hasData() && mReadback->latest()[kValid] != 0.0f) {
        view.meteredEv = mReadback->latest()[kMetered];
        view.compensationEv = mReadback->latest()[kCompensation];
    }
    return view;
}

bool TonePercentile::compensationCurveUi()
{
    // The points as text (the --set form), applied on Enter; a refused list keeps the curve and says why.
    const std::string current = formatPoints(toParameterPoints(mSettings.compensationCurve));
    if (current != mCurveDraftOf) {  // set elsewhere (--set, a preset, a settings file): show it
        mCurveDraft = mCurveDraftOf = current;
        mCurveError.clear();
    }
    char text[512] = {};
    mCurveDraft.copy(text, sizeof(text) - 1);
    bool changed = false;
    if (ImGui::InputText("Comp. curve", text, sizeof(text), ImGuiInputTextFlags_EnterReturnsTrue)) {
        const Parameter p = compensationCurveParameter();
        std::string error;
        if (const auto points = parsePoints(p.info, text, error)) {
            mSettings.compensationCurve = fromParameterPoints(*points);
            mCurveDraftOf = formatPoints(*points);
            mCurveError.clear();
            changed = true;
        } else {
            mCurveError = error;
        }
    }
    mCurveDraft = text;
    helpMarker(
        "Compensation as a function of the metered value, as Unreal's Exposure Compensation Curve and Bevy's "
        "compensation_curve: points METERED:EV (metered log2 luminance, the histogram's axis; EV100 = log2 L + 3), "
        "sorted by the metered value, at most 16, linear between points and held beyond the ends; 'none' for "
        "none. E.g. -6:-1.5,-2:0,4:0.5 keeps dark scenes darker. Added to the constant compensation before the "
        "limits. The Exposure panel plots it. Press Enter to apply.");
    if (!mCurveError.empty()) {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextColored(ImVec4(1.0f, 0.6f, 0.3f, 1.0f), "%s", mCurveError.c_str());
        ImGui::PopTextWrapPos();
    }
    return changed;
}

Parameter TonePercentile::presetParameter()
{
    // An action as a key: setting an engine's id applies its preset (settings now, the histogram's
    // bins and range through takeHistogramRequest, which PipelineParameters applies after the
    // batch); reading gives the preset the settings still equal, or "custom". It comes first among
    // the percentile keys, so keys after it in a file or on the command line refine the preset.
    Parameter p;
    p.info.key = "percentile.preset";
    p.info.label = "Engine preset";
    p.info.type = ParameterType::Enum;
    p.info.choices = {"custom"};
    for (const EnginePreset& preset : enginePresets())
        p.info.choices.emplace_back(preset.id);
    p.info.defaultValue = std::string("custom");
    p.get = [this] { return ParameterValue(std::string(matchingPresetId())); };
    p.set = [this](const ParameterValue& value) {
        const std::string& id = std::get<std::string>(value);
        if (id != "custom")
            applyPreset(id);
    };
    return p;
}

ParameterList TonePercentile::parameters()
{
    PercentileSettings& s = mSettings;
    const PercentileSettings d;
    ParameterList list;
    list.items = {
        presetParameter(),
        enumParameter("percentile.metering", "Metering", s.metering, {"key", "band-average"}, d.metering),
        floatParameter("percentile.key", "Key", s.key, 1e-6f, 1e6f, d.key),
        floatParameter("percentile.percentile", "Percentile", s.percentile, 0.0f, 100.0f, d.percentile),
        boolParameter("percentile.limit_highlights", "Limit highlights", s.limitHighlights, d.limitHighlights),
        floatParameter("percentile.high_percentile", "High percentile", s.highPercentile, 0.0f, 100.0f,
                       d.highPercentile),
        floatParameter("percentile.white_point", "White point", s.whitePoint, 1e-6f, 1e6f, d.whitePoint),
        floatParameter("percentile.max_highlight_pull_ev", "Max highlight pull (EV)", s.maxHighlightPullEv, 0.0f,
                       kMaxHighlightPullUnbounded, d.maxHighlightPullEv),
        floatParameter("percentile.band_low", "Band low", s.bandLow, 0.0f, 100.0f, d.bandLow),
        floatParameter("percentile.band_high", "Band high", s.bandHigh, 0.0f, 100.0f, d.bandHigh),
        floatParameter("percentile.compensation_ev", "Compensation (EV)", s.compensationEv, -32.0f, 32.0f,
                       d.compensationEv),
        compensationCurveParameter(),
        floatParameter("percentile.min_ev", "Exposure limit min (EV)", s.minEv, -64.0f, 64.0f, d.minEv),
        floatParameter("percentile.max_ev", "Exposure limit max (EV)", s.maxEv, -64.0f, 64.0f, d.maxEv),
        boolParameter("percentile.adapt", "Adapt over time", s.adapt, d.adapt),
        floatParameter("percentile.speed_up_ev", "Speed up (EV/s)", s.speedUpEv, 1e-3f, 1000.0f, d.speedUpEv),
        floatParameter("percentile.speed_down_ev", "Speed down (EV/s)", s.speedDownEv, 1e-3f, 1000.0f, d.speedDownEv),
        floatParameter("percentile.transition_ev", "Transition (EV)", s.transitionEv, 0.0f, 64.0f, d.transitionEv),
        enumParameter("percentile.adaptation_curve", "Adaptation curve", s.adaptationCurve,
                      {"linear-then-exponential", "unreal-steps", "bevy-steps", "exponential"}, d.adaptationCurve),
        floatParameter("percentile.cut_threshold_ev", "Cut threshold (EV of mean log2 L, 0 = off)", s.cutThresholdEv,
                       0.0f, 64.0f, d.cutThresholdEv),
        boolParameter("percentile.snap_at_cuts", "Snap the exposure at cuts", s.snapAtCuts, d.snapAtCuts),
    };
    appendDisplayCurveParameters(list.items, "percentile", s.display);
    list.items.push_back(
        boolParameter("percentile.local_adaptation", "Local adaptation", s.localAdaptation, d.localAdaptation));
    list.items.push_back(
        floatParameter("percentile.local_blend", "Local blend", s.localBlend, 0.0f, 1.0f, d.localBlend));
    list.items.push_back(
        intParameter("percentile.local_radius", "Local radius (px)", s.localRadius, 0, 4096, d.localRadius));
    MeteringSettings& m = s.meteringMask;
    const MeteringSettings dm;
    list.items.push_back(enumParameter("percentile.metering_mask", "Metering mask", m.mask,
                                       {"average", "centre-weighted", "ellipse", "texture"}, dm.mask));
    list.items.push_back(floatParameter("percentile.mask_centre_x", "Ellipse centre x (fraction of width)", m.centreX,
                                        -1.0f, 2.0f, dm.centreX));
    list.items.push_back(floatParameter("percentile.mask_centre_y", "Ellipse centre y (fraction of height, 0 = top)",
                                        m.centreY, -1.0f, 2.0f, dm.centreY));
    list.items.push_back(floatParameter("percentile.mask_radius_x", "Ellipse radius x (fraction of width)", m.radiusX,
                                        1e-3f, 10.0f, dm.radiusX));
    list.items.push_back(floatParameter("percentile.mask_radius_y", "Ellipse radius y (fraction of height)", m.radiusY,
                                        1e-3f, 10.0f, dm.radiusY));
    list.items.push_back(
        floatParameter("percentile.mask_softness", "Ellipse softness", m.softness, 1e-2f, 100.0f, dm.softness));
    list.items.push_back(floatParameter("percentile.mask_gate_min_ev", "Ellipse gate min (log2 L)", m.gateMinEv, -64.0f,
                                        64.0f, dm.gateMinEv));
    list.items.push_back(floatParameter("percentile.mask_gate_max_ev", "Ellipse gate max (log2 L)", m.gateMaxEv, -64.0f,
                                        64.0f, dm.gateMaxEv));
    list.items.push_back(textParameter("percentile.mask_texture", "Mask texture (image file; first channel = weight)",
                                       m.texturePath, dm.texturePath, checkMeteringTexture));
    list.items.push_back(
        boolParameter("percentile.exclude_sky", "Exclude sky (depth at the far plane)", m.excludeSky, dm.excludeSky));
    list.commit = [this] { mSettings = sanitize(mSettings); };  // as ui() does after a change
    return list;
}

ToneTraits TonePercentile::traits() const
{
    ToneTraits traits;
    traits.scansInCurve = true;
    traits.localAdaptationRadius = localAdaptationRadius();
    traits.meteringMask = mSettings.meteringMask;
    traits.displayTransform = displayTransformCode(mSettings.display.curve);
    traits.curveCarriesExposure = true;
    return traits;
}

bool TonePercentile::describeForReference(const ToneVerifyFrame& frame, ref::ToneCheckInputs& check) const
{
    check.curve.settings = mSettings;
    const std::vector<float> state = mState.readAll<float>(percentile_state::kWords);
    if (state[percentile_state::kValid] != 0.0f) {
        check.curve.previousExposureEv = state[percentile_state::kExposure];
        check.curve.dtSeconds = 0.0;  // no adaptation step: the curve at the current exposure
        check.numbers["target-ev"] = state[percentile_state::kTarget];
        if (state[percentile_state::kMeanValid] != 0.0f)
            check.numbers["mean-log2"] = state[percentile_state::kMeanLog2];
    }
    const gl::Buffer* cdf = meteringCdf();
    if (!cdf)
        return true;
    check.words["metering-cdf"] = cdf->readAll<std::uint32_t>(check.curve.bins.size());
    const MeteringSettings& m = mSettings.meteringMask;
    if (m.mask == MeteringMaskType::Texture) {
        try {
            MeteringWeights weights = loadMeteringWeights(m.texturePath);
            check.numbers["mask-width"] = weights.width;
            check.numbers["mask-height"] = weights.height;
            check.floats["metering-mask"] = std::move(weights.values);
        } catch (const std::exception&) {
            // the operator meters the whole frame then, as the reference does without values
        }
    }
    if (m.excludeSky && frame.depth && frame.depth->size() == frame.frameSize) {
        std::vector<float> depth(std::size_t(frame.frameSize.x) * std::size_t(frame.frameSize.y));
        glGetTextureImage(frame.depth->id(), 0, GL_DEPTH_COMPONENT, GL_FLOAT, GLsizei(depth.size() * sizeof(float)),
                          depth.data());
        check.numbers["depth-width"] = frame.frameSize.x;
        check.numbers["depth-height"] = frame.frameSize.y;
        check.floats["depth"] = std::move(depth);
    }
    return true;
}

std::string TonePercentile::runNote() const
{
    return mMeteringProblem.empty() ? std::string() : "metering: " + mMeteringProblem;
}

}  // namespace post
