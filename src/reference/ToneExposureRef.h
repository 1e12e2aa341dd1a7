// ToneExposureRef.h: CPU reference of the display curves (clamp, Reinhard, Hable filmic, ACES fit;
// the grey response of the RGB transforms, reference/DisplayTransformRef) and of the fixed-exposure
// operator's curve. Plain double-precision code, written from the
// formulas (see docs/TONE_OPERATORS.md), not from the shaders.
#pragma once

#include "tone/ToneSettings.h"

#include <vector>

namespace ref {

/// Display luminance (0..1) of exposed luminance x >= 0 through the selected curve.
double displayCurve(double x, const post::DisplayCurveSettings& settings);

/// Hable's Uncharted 2 polynomial ratio before normalisation by the white (A..F = 0.15, 0.50, 0.10,
/// 0.20, 0.02, 0.30).
double hableRaw(double x);

/// Display luminance of world luminance 2^log2Lw under a fixed exposure.
double exposureDisplay(double log2Lw, double exposureEv, const post::DisplayCurveSettings& settings);

/// The exposure operator's curve: range and samples as the GPU writes them (kExposureCurveSamples
/// samples over exposed luminance 2^kExposureCurveLowEv .. 2^kExposureCurveHighEv).
struct ExposureCurve
{
    double logMin = 0.0;
    double logMax = 0.0;
    bool linearScale = false;  ///< the clamp curve uses the LinearScale mode
    double scale = 0.0;
    std::vector<float> values;
};
ExposureCurve exposureCurve(const post::ExposureSettings& settings);

}  // namespace ref
