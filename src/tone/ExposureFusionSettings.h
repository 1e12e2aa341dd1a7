// ExposureFusionSettings.h: the settings of the "fusion" local exposure (exposure fusion as a local
// tone mapper, Unreal Engine 5.5's Fusion method; post/localexposure/ExposureFusion.h) and the geometry
// both its GPU pass and its CPU reference (reference/ExposureFusion.h) derive from them: the bracket
// of the synthetic exposures, the size of the pyramid's base and the number of levels. Plain data.
#pragma once

#include "shared/ExposureFusion.h"

#include <algorithm>
#include <cmath>

namespace post {

struct FusionSettings
{
    /// Unreal's LocalExposureHighlightContrastScale / ShadowContrastScale (0..1; Unreal's default 1,
    /// its new-project templates 0.8): 1 keeps the frame, lower values bracket it with exposures
    /// (1 - scale) x 6 EV darker (highlights) and brighter (shadows). Clamped to 0..1; non-finite: 1.
    float highlightContrastScale = 1.0f;
    float shadowContrastScale = 1.0f;
    /// Unreal's LocalExposureMiddleGreyBias (EV): moves the grey that encodes to 0.5, the well-exposed value.
    float middleGreyBias = 0.0f;
    /// The pyramid's base is the frame's luminance in blocks of reduction x reduction pixels (1..16).
    int reduction = 4;
    /// At most this many pyramid levels (1..16); fewer where the base is small (levelCount).
    int maxLevels = hd::kFusionMaxLevels;
    /// The luminance weights (cd/m^2 per channel unit), the frame's pre-exposure folded in as the
    /// pipeline does (HistogramSpec::luminance).
    hd::LuminanceWeights luminance{};
};

/// The EVs of the synthetic exposures: highlights at -highlightEv, shadows at +shadowEv.
struct FusionBracket
{
    float highlightEv = 0.0f;
    float shadowEv = 0.0f;
};

inline float fusionContrastScale(float scale)
{
    return std::isfinite(scale) ? std::clamp(scale, 0.0f, 1.0f) : 1.0f;
}

inline FusionBracket fusionBracket(const FusionSettings& s)
{
    return {(1.0f - fusionContrastScale(s.highlightContrastScale)) * hd::kFusionMaxBracketEv,
            (1.0f - fusionContrastScale(s.shadowContrastScale)) * hd::kFusionMaxBracketEv};
}

inline int fusionReduction(const FusionSettings& s)
{
    return std::clamp(s.reduction, 1, 16);
}

/// The pyramid's base (and the adjustment texture's) size for a w x h frame: ceil(w / r) x ceil(h / r).
inline int fusionBaseSide(int side, int reduction)
{
    return (std::max(side, 1) + reduction - 1) / reduction;
}

/// The side of pyramid level `level` (0: the base): each level halves, rounding up.
inline int fusionLevelSide(int baseSide, int level)
{
    int side = baseSide;
    for (int i = 0; i < level; ++i)
        side = (side + 1) / 2;
    return side;
}

/// Levels for a base of w x h: floor(log2(min(w, h))) + 1 (the coarsest level at least 1 pixel on
/// its short side, as Unreal clamps it), at most maxLevels (1..16).
inline int fusionLevelCount(int baseWidth, int baseHeight, int maxLevels)
{
    int shortSide = std::max(std::min(baseWidth, baseHeight), 1);
    int levels = 1;
    while (shortSide >= 2) {
        shortSide /= 2;
        ++levels;
    }
    return std::min(levels, std::clamp(maxLevels, 1, hd::kFusionMaxLevels));
}

/// The EV offset of every pixel: exposureLog2 - log2(0.18) - middleGreyBias (hdFusionPixelEv's `offset`).
inline float fusionEvOffset(float exposureLog2, const FusionSettings& s)
{
    const float bias = std::isfinite(s.middleGreyBias) ? s.middleGreyBias : 0.0f;
    const float exposure = std::isfinite(exposureLog2) ? exposureLog2 : 0.0f;
    return exposure - hd::kFusionLog2MiddleGrey - bias;
}

}  // namespace post
