// LuminanceUnits.h: what one unit of the input's pixels means, i.e. the luminance definition every
// pass of the pipeline uses (histogram, automatic range, tone curves, apply, probe, false colour,
// metering, local adaptation): L = wr R + wg G + wb B in cd/m^2.
//
// The rule (docs/USAGE.md, "Units"): a Radiance picture stores radiance in W/sr/m^2 times its
// EXPOSURE, so L = 179 (Radiance's WHTEFFICACY) x (Radiance's luminance of the stored RGB) /
// EXPOSURE, Radiance's luminance being the Y row of its RGB -> XYZ matrix for the picture's
// PRIMARIES (or its default primaries: 0.2651, 0.6701, 0.0648), exactly as pcond computes it; an
// XYZE picture's Y is already cd/m^2 times EXPOSURE (pcond's cielum). Every other input (OpenEXR,
// PNG, the live scene) is 1 unit = 1 cd/m^2 with the Rec. 709 weights. The settings input.units
// (auto | radiance | plain) and input.cd_per_unit override the rule.
//
// The passes see the effective weights float(w x efficacy / exposure): with the default definition
// they are exactly hd::kLumaR/G/B, so every result is bit for bit what it was before units existed.
//
// Pre-exposure (scene/PreExposure.h): a half-float frame stores the scene times 2^k. The pipeline
// sets `preExposure` = k per frame and the passes then see float(w x efficacy / exposure) x 2^-k:
// multiplying by a power of two is exact, so hdLuminanceWeighted(stored, w 2^-k) equals
// hdLuminanceWeighted(stored 2^-k, w) bit for bit while the products stay normal floats (they do for
// every half-float value and |k| <= hd::kMaxPreExposure), and every pass sees the scene's own
// luminance without knowing k.
#pragma once

#include "image/Image.h"
#include "shared/HostDevice.h"

#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>

namespace post {

enum class UnitsMode {
    Auto,      ///< radiance for a Radiance picture, plain for anything else
    Radiance,  ///< 179 / EXPOSURE cd/m^2 per unit, Radiance's weights (the picture's PRIMARIES, if any)
    Plain,     ///< 1 unit = 1 cd/m^2, Rec. 709 weights
};

std::string_view toString(UnitsMode mode);
std::optional<UnitsMode> parseUnitsMode(std::string_view text);

struct LuminanceUnits
{
    std::array<float, 3> weights{hd::kLumaR, hd::kLumaG, hd::kLumaB};  ///< relative luminance per channel
    double efficacy = 1.0;  ///< cd/m^2 per unit of weighted luminance (179: Radiance's white efficacy)
    double exposure = 1.0;  ///< what the values were multiplied by (a Radiance picture's EXPOSURE product)
    /// What decided the definition: "" (the default), "Radiance picture", "Radiance XYZE picture",
    /// "input.units=radiance", "input.units=plain" or "input.cd_per_unit".
    std::string origin;
    std::string weightsOrigin = "Rec. 709";  ///< where the weights come from, for messages
    /// The frame's pre-exposure k: its texels are the input's values times 2^k (post::ImageInput);
    /// set per frame by the pipeline, 0 for the definition itself (describe() leaves it out).
    int preExposure = 0;

    /// cd/m^2 per unit of a stored channel: efficacy / exposure x 2^-preExposure.
    double cdPerUnit() const { return std::ldexp(efficacy / exposure, -preExposure); }
    /// What the stored values were multiplied by in all: exposure x 2^preExposure (Ward's pcond
    /// sampling divides by it, as pcond divides by a picture's EXPOSURE).
    double storedExposure() const { return std::ldexp(exposure, preExposure); }
    /// What a stored channel is multiplied by to be in the input's own units: 2^-preExposure.
    float storedScale() const { return std::ldexp(1.0f, -preExposure); }
    /// The weights the passes use: float(double(weights[c]) * efficacy / exposure) x 2^-preExposure
    /// (the power of two applied after the rounding to float, so it is exact).
    hd::LuminanceWeights effectiveWeights() const;
    /// One line, e.g. "Radiance picture: 1 unit = 179/EXPOSURE(=2) = 89.5 cd/m^2, weights
    /// 0.2651/0.6701/0.0648 (Radiance's default primaries)" or "1 unit = 1 cd/m^2, Rec. 709 weights".
    std::string describe() const;
    /// "1 unit = 89.5 cd/m^2".
    std::string scaleText() const;
    /// What a probe line adds after its luminance: "" for the default (1 unit = 1 cd/m^2, Rec. 709),
    /// else e.g. "1 unit = 89.5 cd/m^2, Radiance picture".
    std::string probeNote() const;
    bool operator==(const LuminanceUnits&) const = default;
};

/// The definition for an input whose Radiance header is `radiance` (nullopt: not a Radiance
/// picture), under input.units = `mode` and input.cd_per_unit = `cdPerUnit` (> 0 replaces
/// efficacy / exposure; 0 keeps the rule's).
LuminanceUnits resolveLuminanceUnits(UnitsMode mode,
                                     double cdPerUnit,
                                     const std::optional<image::RadianceHeader>& radiance);

}  // namespace post
