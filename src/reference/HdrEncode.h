// HdrEncode.h: CPU reference of the HDR10 output's colour conversion: the Rec. 709 (sRGB) to
// ITU-R BT.2020 primaries matrix, derived here in double from the two sets of primaries and D65
// (the RGB-to-XYZ matrices of SMPTE RP 177), so the shader's hard-coded ITU-R BT.2087 coefficients
// are checked against an independent derivation. (The PQ curve itself is image/HdrPng's.)
#pragma once

#include <array>

namespace ref {

using Matrix3 = std::array<std::array<double, 3>, 3>;  ///< rows: out[i] = dot(row i, in)

/// Linear Rec. 709 RGB to linear BT.2020 RGB (same white, D65).
Matrix3 rec709ToBt2020();

}  // namespace ref
