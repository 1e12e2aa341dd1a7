// EnginePresets.h: engine presets for the percentile operator: one call sets the histogram (bins,
// log2 range) and the PercentileSettings (band percentiles, key, exposure limits, adaptation speeds
// and curve) to reproduce the histogram auto-exposure defaults of Unreal Engine 5, Unity HDRP and
// Bevy, as ../shared/research/engines.md (sections a and b) reports them from the engines' sources:
// UE PostProcessHistogramCommon.ush / PostProcessEyeAdaptation.cpp / Scene.cpp, HDRP Exposure.cs /
// HistogramExposureCommon.hlsl / PhysicalCamera.hlsl, Bevy auto_exposure settings.rs / WGSL.
// Units: hdrlab's luminance is scene-linear cd/m^2; EV100 = log2(L * 100 / 12.5) = log2 L + 3; the key
// is the exposed luminance the metered mean is mapped to. Limits (also in each description and in
// docs/TONE_OPERATORS.md): hdrlab bins to the nearest bin and places a bin's mass by position inside
// the bin, meters the whole frame evenly and counts bin 0, so UE's bilinear two-bin splat and
// ignored black bin, HDRP's centre-weighted mask and half-resolution metering, and Bevy's metering
// mask are not reproduced.
#pragma once

#include "post/tonemap/ToneOperator.h"
#include "tone/ToneSettings.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace post {

struct PipelineSettings;

/// The histogram a preset needs: bin count and a manual log2-luminance range, out-of-range samples
/// clamped into the end bins (as the three engines do).
struct EngineHistogram
{
    std::uint32_t bins = 64;
    float logMin = -8.0f;
    float logMax = 8.0f;
};

struct EnginePreset
{
    std::string_view id;           ///< "unreal", "unity-hdrp", "bevy"
    std::string_view label;        ///< shown in the UI
    std::string_view description;  ///< the sources and what is not reproduced, shown as a tooltip
    EngineHistogram histogram;
    PercentileSettings
        settings;  ///< with the engine's default display curve; local adaptation at its default (not applied)
    /// The engine's local exposure as its new projects have it (Unreal's templates: bilateral, highlight
    /// and shadow contrast 0.8); off for the engines without one (HDRP, Bevy).
    LocalExposureSettings localExposure;
};

/// The presets, in UI order.
std::span<const EnginePreset> enginePresets();
/// nullptr when no preset has this id.
const EnginePreset* findEnginePreset(std::string_view id);
/// "unreal, unity-hdrp, bevy", for error messages and help.
std::string enginePresetIds();

struct EnginePresetResult
{
    bool ok = false;
    std::string error;  ///< one line naming the bad id and the valid ones when !ok
    EngineHistogram histogram;
    LocalExposureSettings localExposure;  ///< the preset's (EnginePreset::localExposure)
};

/// Sets the preset's metering, percentiles, key, compensation, limits, adaptation and display curve
/// (the engine's default transform or its stand-in) in `settings` (local adaptation is kept) and returns the histogram
/// the caller must set too. An unknown id changes nothing and returns the error.
EnginePresetResult applyEnginePreset(std::string_view id, PercentileSettings& settings);

/// Sets `pipeline` to a histogram an operator asked for (ToneOperator::takeHistogramRequest): bins,
/// manual range, out-of-range samples clamped into the end bins. Used by the pipeline panel.
void applyHistogramRequest(const HistogramRequest& request, PipelineSettings& pipeline);

/// The same as applyEnginePreset above, also setting the pipeline's bin count, manual range and clamp policy: the
/// function the settings key `percentile.preset=unreal|unity-hdrp|bevy` binds to (the caller still applies `pipeline`
/// with PostPipeline::applySettings and the settings with TonePercentile::setSettings).
EnginePresetResult applyEnginePreset(std::string_view id, PercentileSettings& settings, PipelineSettings& pipeline);

}  // namespace post
