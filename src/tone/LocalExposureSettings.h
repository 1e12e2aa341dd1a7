// LocalExposureSettings.h: the settings of local exposure (docs/TONE_OPERATORS.md, "Local exposure"),
// Unreal Engine 5's post-process "Local Exposure" controls under hdrlab's keys `local_exposure.*`,
// shared by the pipeline (post/localexposure/) and its CPU reference (reference/LocalExposureRef).
// Plain data; sanitize() turns absurd values into usable ones. Defaults are Unreal's (1, 1, 1, 0.6, 50,
// 0): with method Bilateral and these defaults the picture is the global one except where the detail
// and the base disagree (none at all for detail 1 and contrast 1: the exposure is exactly 1).
#pragma once

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>

namespace post {

/// local_exposure.method: off (the default: the apply pass is today's, bit for bit), bilateral (Unreal's
/// "Bilateral": a bilateral grid and a blurred luminance), fusion (Unreal 5.5's "Fusion": exposure fusion,
/// a pass of its own, post/localexposure/ExposureFusion).
enum class LocalExposureMethod { Off, Bilateral, Fusion };
/// local_exposure.structure: where the bilateral grid is built: fused (in the histogram pass's own read of
/// the frame where the histogram method can; otherwise the separate pass) or separate (a compute pass of
/// its own reading the frame, as Unreal runs it: the reference structure).
enum class LocalExposureStructure { Fused, Separate };

struct LocalExposureSettings
{
    LocalExposureMethod method = LocalExposureMethod::Off;
    LocalExposureStructure structure = LocalExposureStructure::Fused;
    float highlightContrastScale = 1.0f;  ///< base contrast kept above middle grey (0..1; < 1 compresses)
    float shadowContrastScale = 1.0f;     ///< base contrast kept below middle grey
    float detailStrength = 1.0f;          ///< detail (log2 L - base) kept (0..4)
    float blurredLuminanceBlend = 0.6f;   ///< 0: the bilateral base, 1: the blurred luminance
    float kernelSizePercent = 50.0f;      ///< the blur's kernel (its +-3 sigma) as a percentage of the view's width
    float middleGreyBias = 0.0f;          ///< EV added to the metered middle grey

    bool operator==(const LocalExposureSettings&) const = default;
    bool active() const { return method != LocalExposureMethod::Off; }
};

inline std::string_view toString(LocalExposureMethod method)
{
    return method == LocalExposureMethod::Bilateral ? "bilateral"
           : method == LocalExposureMethod::Fusion  ? "fusion"
                                                    : "off";
}

inline std::optional<LocalExposureMethod> parseLocalExposureMethod(std::string_view text)
{
    if (text == "off")
        return LocalExposureMethod::Off;
    if (text == "bilateral")
        return LocalExposureMethod::Bilateral;
    if (text == "fusion")
        return LocalExposureMethod::Fusion;
    return std::nullopt;
}

inline std::string_view toString(LocalExposureStructure structure)
{
    return structure == LocalExposureStructure::Separate ? "separate" : "fused";
}

inline std::optional<LocalExposureStructure> parseLocalExposureStructure(std::string_view text)
{
    if (text == "fused")
        return LocalExposureStructure::Fused;
    if (text == "separate")
        return LocalExposureStructure::Separate;
    return std::nullopt;
}

inline LocalExposureSettings sanitize(LocalExposureSettings s)
{
    const auto finite = [](float v, float fallback, float lo, float hi) {
        return std::isfinite(v) ? std::clamp(v, lo, hi) : fallback;
    };
    s.highlightContrastScale = finite(s.highlightContrastScale, 1.0f, 0.0f, 1.0f);
    s.shadowContrastScale = finite(s.shadowContrastScale, 1.0f, 0.0f, 1.0f);
    s.detailStrength = finite(s.detailStrength, 1.0f, 0.0f, 4.0f);
    s.blurredLuminanceBlend = finite(s.blurredLuminanceBlend, 0.6f, 0.0f, 1.0f);
    s.kernelSizePercent = finite(s.kernelSizePercent, 50.0f, 1.0f, 100.0f);
    s.middleGreyBias = finite(s.middleGreyBias, 0.0f, -15.0f, 15.0f);
    return s;
}

}  // namespace post
