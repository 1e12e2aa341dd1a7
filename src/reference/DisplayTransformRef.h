// DisplayTransformRef.h: CPU reference of the per-channel RGB display transforms (AgX with its base
// and punchy looks, Khronos PBR Neutral), in double precision, written from their published
// definitions (docs/TONE_OPERATORS.md, "Display transforms"), not from the shaders. Input: exposed
// linear Rec. 709 RGB (negative channels count as 0); output: display-linear RGB, not yet clamped.
#pragma once

#include "tone/ToneSettings.h"

#include <array>

namespace ref {

using Rgb = std::array<double, 3>;

/// AgX (Sobotka; Blender's default view) through its polynomial sigmoid; `punchy`: the punchy CDL look.
Rgb agx(const Rgb& exposed, bool punchy);
/// Khronos PBR Neutral.
Rgb pbrNeutral(const Rgb& exposed);
/// The transform of `curve` (post::isRgbTransform); any other curve returns the colour unchanged.
Rgb displayTransform(const Rgb& exposed, post::DisplayCurve curve);
/// The grey response the curve LUT holds: Rec. 709 luminance of the transform of (x, x, x), in [0, 1].
double displayTransformGrey(double x, post::DisplayCurve curve);

}  // namespace ref
