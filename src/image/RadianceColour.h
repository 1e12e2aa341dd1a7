// RadianceColour.h: Radiance's colour arithmetic that decides what a Radiance picture's pixels mean:
// the luminance weights of its RGB (the Y row of the RGB -> XYZ matrix that pcond and ra_xyze use)
// and the XYZ -> RGB matrix for 32-bit_rle_xyze pictures.
//
// Source: Radiance (NREL/Radiance), src/common/color.h (CIE_D, CIE_C_rD... and the default
// "nominal CRT" primaries R 0.640 0.330, G 0.290 0.600, B 0.150 0.060, equal-energy white) and
// src/common/spec_rgb.c (comprgb2xyzmat, compxyzWBmat with the "Sharp" von Kries matrices vkmat and
// ivkmat, comprgb2xyzWBmat, multcolormat, colortrans). Re-derived from those formulas with the same
// mix of float and double arithmetic as the C code (x86-64, no FMA), so the weights are Radiance's
// to the last bit: without a PRIMARIES line 0.26510582, 0.67010582, 0.06478836 (as floats).
// Limits: the scotopic luminance and pcond's colour warping are not modelled.
#pragma once

#include <array>
#include <optional>

namespace image {

/// Radiance's luminous efficacy of uniform white (WHTEFFICACY): cd/m^2 = 179 * (Y of W/sr/m^2).
inline constexpr double kRadianceWhiteEfficacy = 179.0;

/// The luminance weights of a Radiance RGB picture: row 1 (Y) of comprgb2xyzWBmat for the picture's
/// PRIMARIES (rx ry gx gy bx by wx wy, as parsed into floats), von Kries white-balanced to equal
/// energy when the white point is not (1/3, 1/3) within 1e-4; without PRIMARIES, the Y row of
/// Radiance's precomputed rgb2xyzmat. nullopt when the primaries give no matrix (Radiance's failure
/// cases: a white point or a determinant within 1e-4 of zero).
std::optional<std::array<float, 3>> radianceLuminanceWeights(const std::optional<std::array<float, 8>>& primaries);

/// Radiance's xyz2rgbmat (XYZ to RGB of the default primaries, no white balance), float.
std::array<std::array<float, 3>, 3> radianceXyzToRgbMatrix();

/// One XYZ colour to RGB through `matrix` as Radiance's colortrans does (float arithmetic).
std::array<float, 3> radianceColourTransform(const std::array<std::array<float, 3>, 3>& matrix,
                                             const std::array<float, 3>& colour);

}  // namespace image
