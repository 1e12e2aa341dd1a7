// ToneEqualizeRef.h: CPU reference of histogram equalization of log-luminance bins, in the cdf_min
// form of Bugetti's equation (1) (the Wikipedia variant) without rounding:
// T[v] = (cdf(v) - cdf_min) / (N - cdf_min), cdf the inclusive CDF, cdf_min its first non-zero value,
// N the total; bins below the first occupied one give 0. N == cdf_min (one occupied bin, a uniform
// image) and N == 0 give kEqualizeDegenerateValue everywhere.
#pragma once

#include "tone/ToneSettings.h"

#include <cstdint>
#include <span>
#include <vector>

namespace ref {

/// One value in [0, 1] per bin (sample i of the curve sits at bin i's centre).
std::vector<float> equalizeCurve(std::span<const std::uint32_t> bins, bool encodedOutput = false);

/// The same from an inclusive CDF.
std::vector<float> equalizeCurveFromCdf(std::span<const std::uint32_t> cdf, bool encodedOutput = false);

/// IEC 61966-2-1 sRGB EOTF (encoded level 0..1 -> linear), used by the encoded-output option.
double decodeSrgb(double encoded);

}  // namespace ref
