// Equalize8.h: CPU reference of 8-bit histogram equalization (Bugetti, "Histogram Equalization",
// section 2; the Wikipedia cdf_min formula).
//
// level(v) = ((cdf(v) - cdf_min) * (L - 1) + (N - cdf_min) / 2) / (N - cdf_min) in integer
// arithmetic (round half up), cdf_min = the smallest non-zero CDF value, N = pixel count; a uniform
// image (N == cdf_min) is returned unchanged. This integer form reproduces the report's 8x8 example
// exactly (the printed floor formula does not; see research/algorithms.md 3.1a).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ref {

enum class EqualizeFormula {
    CdfMinRoundHalfUp,  ///< Bugetti / Wikipedia, integer round half up (the one hdrlab uses)
    GonzalezWoods,      ///< round((L - 1) * cdf / N), half up: the textbook variant, for comparison
};

/// Output level of each of the `levels` input levels, from their pixel counts (histogram).
/// Levels below cdf_min (no pixels) map to 0 in the cdf_min formula.
std::vector<std::uint32_t> equalizationLevels(const std::vector<std::uint32_t>& histogram,
                                              std::uint32_t levels,
                                              EqualizeFormula formula = EqualizeFormula::CdfMinRoundHalfUp);

/// Equalizes `count` 8-bit grey pixels with the cdf_min formula (L = 256).
std::vector<std::uint8_t> equalize8(const std::uint8_t* pixels, std::size_t count);

}  // namespace ref
