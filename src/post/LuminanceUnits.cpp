#include "post/LuminanceUnits.h"

#include "image/RadianceColour.h"

#include <cmath>
#include <cstdio>

namespace post {

namespace {

std::string number(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", value);
    return text;
}

}  // namespace

std::string_view toString(UnitsMode mode)
{
    switch (mode) {
        case UnitsMode::Auto:
            return "auto";
        case UnitsMode::Radiance:
            return "radiance";
        case UnitsMode::Plain:
            return "plain";
    }
    return "auto";
}

std::optional<UnitsMode> parseUnitsMode(std::string_view text)
{
    for (UnitsMode mode : {UnitsMode::Auto, UnitsMode::Radiance, UnitsMode::Plain})
        if (text == toString(mode))
            return mode;
    return std::nullopt;
}

hd::LuminanceWeights LuminanceUnits::effectiveWeights() const
{
    auto scaled = [&](float w) { return std::ldexp(float(double(w) * efficacy / exposure), -preExposure); };
    return {scaled(weights[0]), scaled(weights[1]), scaled(weights[2])};
}

std::string LuminanceUnits::scaleText() const
{
    return "1 unit = " + number(cdPerUnit()) + " cd/m^2";
}

std::string LuminanceUnits::probeNote() const
{
    return origin.empty() ? std::string() : scaleText() + ", " + origin;
}

std::string LuminanceUnits::describe() const
{
    std::string text = origin.empty() ? "" : origin + ": ";
    if (origin == "Radiance picture" || origin == "Radiance XYZE picture")
        text += "1 unit = " + number(efficacy) + "/EXPOSURE(=" + number(exposure) + ") = " + number(cdPerUnit()) +
                " cd/m^2";
    else
        text += scaleText();
    const std::array<float, 3> rec709{hd::kLumaR, hd::kLumaG, hd::kLumaB};
    if (weights == rec709 && weightsOrigin == "Rec. 709") {
        text += ", Rec. 709 weights";
    } else {
        char values[64];
        std::snprintf(values, sizeof values, ", weights %.4f/%.4f/%.4f", double(weights[0]), double(weights[1]),
                      double(weights[2]));
        text += values + (" (" + weightsOrigin + ")");
    }
    return text;
}

LuminanceUnits resolveLuminanceUnits(UnitsMode mode,
                                     double cdPerUnit,
                                     const std::optional<image::RadianceHeader>& radiance)
{
    LuminanceUnits units;
    if (mode == UnitsMode::Auto)
        mode = radiance ? UnitsMode::Radiance : UnitsMode::Plain;
    if (mode == UnitsMode::Plain) {
        units.origin = radiance ? "input.units=plain" : "";
    } else {
        const bool xyz = radiance && radiance->xyz;
        const bool primaries = radiance && radiance->primaries && !xyz;  // XYZE pixels use the default primaries
        // The loader refuses primaries without weights; the default stands in should one get here.
        units.weights = image::radianceLuminanceWeights(primaries ? radiance->primaries : std::nullopt)
                            .value_or(*image::radianceLuminanceWeights(std::nullopt));
        units.weightsOrigin = primaries ? "the picture's PRIMARIES" : "Radiance's default primaries";
        units.efficacy = xyz ? 1.0 : image::kRadianceWhiteEfficacy;  // XYZE: Y is cd/m^2 already
        units.exposure = radiance ? radiance->exposure : 1.0;
        units.origin = !radiance ? "input.units=radiance" : xyz ? "Radiance XYZE picture" : "Radiance picture";
    }
    if (cdPerUnit > 0.0) {
        units.efficacy = cdPerUnit;
        units.exposure = 1.0;
        units.origin = "input.cd_per_unit";
    }
    return units;
}

}  // namespace post
