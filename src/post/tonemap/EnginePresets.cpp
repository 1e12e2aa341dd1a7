#include "post/tonemap/EnginePresets.h"

#include "post/PipelineSettings.h"

#include <array>
#include <cmath>

namespace post {

namespace {

/// HDRP and UE's physical-camera relation: EV100 = log2(L S / K), S = 100, K = 12.5 (HDRP "Grey125").
constexpr float kEv100ToLog2L = -3.0f;

std::array<EnginePreset, 3> makePresets()
{
    std::array<EnginePreset, 3> presets;

    // Unreal Engine 5 (engines.md b): 64 bins over log2 L -8..4 (HistogramLogMin/Max, Scene.cpp), the
    // mean log2 L between the 10th and 90th percentiles (ComputeAverageLuminanceWithoutOutlier) to
    // 18 % grey, average luminance limited to Min/MaxBrightness 0.03..8, speed up 3 / down 1 EV/s,
    // linear beyond r.EyeAdaptation.ExponentialTransitionDistance 1.5 EV, UE's exp2 step within.
    EnginePreset& ue = presets[0];
    ue.id = "unreal";
    ue.label = "Unreal Engine 5";
    ue.description =
        "Unreal Engine 5 histogram auto-exposure defaults (engines.md b): 64 bins over log2 L -8..4, mean log2 L "
        "between the 10th and 90th percentiles exposed to 0.18, average luminance limited to 0.03..8 cd/m2 "
        "(exposure -5.47..+2.58 EV), speed up 3 / down 1 EV/s, linear beyond 1.5 EV then UE's per-frame "
        "exponential step. Not reproduced: UE splats each sample bilinearly over two bins (hdrlab: nearest bin), "
        "ignores bin 0 (BlackHistogramBucketInfluence 0; hdrlab counts it), places a bin at its index position "
        "(hdrlab: inside the bin), and its lens attenuation / calibration constants.";
    ue.histogram = {64u, -8.0f, 4.0f};
    ue.settings.metering = PercentileMetering::BandAverage;
    ue.settings.bandLow = 10.0f;
    ue.settings.bandHigh = 90.0f;
    ue.settings.key = 0.18f;
    ue.settings.minEv = float(std::log2(0.18 / 8.0));   // brightest average allowed: 8
    ue.settings.maxEv = float(std::log2(0.18 / 0.03));  // darkest: 0.03
    ue.settings.speedUpEv = 3.0f;
    ue.settings.speedDownEv = 1.0f;
    ue.settings.transitionEv = 1.5f;
    ue.settings.adaptationCurve = AdaptationCurve::UnrealSteps;
    ue.settings.compensationCurve = {};  // AutoExposureBiasCurve is unset by default: no compensation curve
    // UE's default tonemapper is its ACES-fitted filmic curve (per channel in AP1): the ACES fit stands in.
    ue.settings.display.curve = DisplayCurve::AcesFit;
    // UE 5's new-project templates turn local exposure on: highlight and shadow contrast 0.8 (the
    // post-process defaults are 1, 1: none).
    ue.localExposure.method = LocalExposureMethod::Bilateral;
    ue.localExposure.highlightContrastScale = 0.8f;
    ue.localExposure.shadowContrastScale = 0.8f;

    // Unity HDRP (engines.md b): 128 bins (HISTOGRAM_BINS) over the exposure limits -1..14 EV100, the
    // 40th..90th percentile band (histogramPercentages), exposure 1 / (1.2 2^EV100) with K = 12.5, so
    // the metered mean is exposed to 1 / (1.2 * 8) = 0.104; exponential adaptation (PhysicalCamera.hlsl
    // ComputeLuminanceAdaptation), dark-to-light 3, light-to-dark 1; centre-weighted metering (its
    // default meteringMode, engines.md a and b). UE's and Bevy's defaults meter every pixel alike.
    EnginePreset& hdrp = presets[1];
    hdrp.id = "unity-hdrp";
    hdrp.label = "Unity HDRP";
    hdrp.description =
        "Unity HDRP Automatic Histogram defaults (engines.md b): 128 bins over the limits -1..14 EV100 (log2 L "
        "-4..11, EV100 = log2 L + 3 with K = 12.5), mean between the 40th and 90th percentiles exposed to 0.104 "
        "(exposure = 1 / (1.2 2^EV100)), exposure -14.26..+0.74 EV, exponential adaptation prev + d (1 - "
        "2^(-dt speed)), dark-to-light 3, light-to-dark 1, HDRP's default centre-weighted metering mask. Not "
        "reproduced: its half-resolution metering, curve remapping, and a bin placed at its index position "
        "(hdrlab: inside the bin).";
    hdrp.histogram = {128u, -1.0f + kEv100ToLog2L, 14.0f + kEv100ToLog2L};
    hdrp.settings.metering = PercentileMetering::BandAverage;
    hdrp.settings.bandLow = 40.0f;
    hdrp.settings.bandHigh = 90.0f;
    const double hdrpKey = 1.0 / (1.2 * 8.0);
    hdrp.settings.key = float(hdrpKey);
    hdrp.settings.minEv = float(std::log2(hdrpKey) - hdrp.histogram.logMax);  // EV100 14: the brightest
    hdrp.settings.maxEv = float(std::log2(hdrpKey) - hdrp.histogram.logMin);  // EV100 -1: the darkest
    hdrp.settings.speedUpEv = 3.0f;
    hdrp.settings.speedDownEv = 1.0f;
    hdrp.settings.adaptationCurve = AdaptationCurve::Exponential;
    hdrp.settings.compensationCurve = {};  // histogramUseCurveRemapping is off by default: no curve
    hdrp.settings.meteringMask.mask = MeteringMaskType::CentreWeighted;  // HDRP's default meteringMode
    // HDRP's Tonemapping override in ACES mode, as its default volume profile sets it: the ACES fit stands in.
    hdrp.settings.display.curve = DisplayCurve::AcesFit;

    // Bevy 0.14+ (engines.md b): 64 bins over log2 L -8..8 (settings.rs), filter 10..90 %, target =
    // -average log2 L (key 1), speed brighten 3 / darken 1 EV/s, linear beyond 1.5 EV with one Euler
    // step per frame, no exposure clamp.
    EnginePreset& bevy = presets[2];
    bevy.id = "bevy";
    bevy.label = "Bevy";
    bevy.description =
        "Bevy AutoExposure defaults (engines.md b): 64 bins over log2 L -8..8, mean of the 10th..90th percentile "
        "band exposed to 1.0 (target = -average log2 L; Bevy's camera exposure applies on top and is taken as 1), "
        "brighten 3 / darken 1 EV/s, linear beyond 1.5 EV then exponential as Bevy's one Euler step per frame, "
        "no exposure clamp. Not reproduced: Bevy keeps bin 0 for luminance below the range and spreads the range "
        "over bins 1..63 (hdrlab: all 64 bins, below-range samples clamped into bin 0), its 16-level metering "
        "mask, and its start from exposure 0 (hdrlab snaps to the first frame's target).";
    bevy.histogram = {64u, -8.0f, 8.0f};
    bevy.settings.metering = PercentileMetering::BandAverage;
    bevy.settings.bandLow = 10.0f;
    bevy.settings.bandHigh = 90.0f;
    bevy.settings.key = 1.0f;
    bevy.settings.minEv = -32.0f;  // no clamp: the histogram range bounds the target to -8..8 anyway
    bevy.settings.maxEv = 32.0f;
    bevy.settings.speedUpEv = 3.0f;
    bevy.settings.speedDownEv = 1.0f;
    bevy.settings.transitionEv = 1.5f;
    bevy.settings.adaptationCurve = AdaptationCurve::BevySteps;
    bevy.settings.compensationCurve = {};  // AutoExposureCompensationCurve::default(): flat 0
    // Bevy's default is TonyMcMapface, a 3D LUT hdrlab does not ship. Plain Reinhard x / (1 + x) stands
    // in: Tony's non-linearity "resembles Reinhard" (its README) and nears white without reaching it.
    // AgX stood in before issue 35; its log encoding ends 4 EV above the key and clipped everything
    // above to white (8 % of the default room under Bevy's key 1).
    bevy.settings.display.curve = DisplayCurve::Reinhard;
    bevy.settings.display.reinhardWhite = 0.0f;

    for (EnginePreset& preset : presets)
        preset.settings = sanitize(preset.settings);
    return presets;
}

}  // namespace

std::span<const EnginePreset> enginePresets()
{
    static const std::array<EnginePreset, 3> presets = makePresets();
    return presets;
}

const EnginePreset* findEnginePreset(std::string_view id)
{
    for (const EnginePreset& preset : enginePresets())
        if (preset.id == id)
            return &preset;
    return nullptr;
}

std::string enginePresetIds()
{
    std::string ids;
    for (const EnginePreset& preset : enginePresets())
        ids += (ids.empty() ? "" : ", ") + std::string(preset.id);
    return ids;
}

EnginePresetResult applyEnginePreset(std::string_view id, PercentileSettings& settings)
{
    EnginePresetResult result;
    const EnginePreset* preset = findEnginePreset(id);
    if (!preset) {
        result.error = "unknown engine preset '" + std::string(id) + "' (valid: " + enginePresetIds() + ")";
        return result;
    }
    // Everything that meters and adapts comes from the preset, and its engine's default display
    // transform (or hdrlab's stand-in, docs/TONE_OPERATORS.md); local adaptation stays.
    PercentileSettings next = preset->settings;
    next.localAdaptation = settings.localAdaptation;
    next.localBlend = settings.localBlend;
    next.localRadius = settings.localRadius;
    settings = sanitize(next);
    result.ok = true;
    result.histogram = preset->histogram;
    result.localExposure = preset->localExposure;
    return result;
}

EnginePresetResult applyEnginePreset(std::string_view id, PercentileSettings& settings, PipelineSettings& pipeline)
{
    EnginePresetResult result = applyEnginePreset(id, settings);
    if (!result.ok)
        return result;
    applyHistogramRequest(
        {result.histogram.bins, result.histogram.logMin, result.histogram.logMax, result.localExposure}, pipeline);
    return result;
}

void applyHistogramRequest(const HistogramRequest& request, PipelineSettings& pipeline)
{
    pipeline.spec.binCount = request.bins;
    pipeline.spec.outOfRange = OutOfRange::Clamp;  // the engines clamp into their end bins
    pipeline.rangeMode = RangeMode::Manual;
    pipeline.logMin = request.logMin;
    pipeline.logMax = request.logMax;
    if (request.localExposure) {  // the grid's structure is hdrlab's own choice: kept
        const LocalExposureStructure structure = pipeline.localExposure.structure;
        pipeline.localExposure = *request.localExposure;
        pipeline.localExposure.structure = structure;
    }
}

}  // namespace post
