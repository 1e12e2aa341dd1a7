// Metering.h: CPU reference of the percentile operator's metering masks (post/tonemap/MeteringMask.h
// has the formulas): the weight of one pixel, quantised as the GPU quantises it
// (hd::hdQuantiseMeteringWeight), the weighted histogram in uint64, its CDF normalised to
// hd::kMeteringCdfTotal, and the metering view's colour of a pixel. Plain loops in float in the
// order the shaders evaluate (sqrt and pow may still differ from the GPU's in the last bit: one
// 1/65535 step of a weight at most).
#pragma once

#include "shared/HostDevice.h"
#include "tone/ToneSettings.h"

#include <array>
#include <cstdint>
#include <vector>

namespace ref {

/// What the weights of one image depend on besides the settings.
struct MeteringScene
{
    int width = 0;  ///< the image the weights are for (the histogram image)
    int height = 0;
    bool topDownRows = false;           ///< texel row 0 is the picture's top
    const float* maskValues = nullptr;  ///< (Texture) weights, row 0 = picture top; nullptr: average
    int maskWidth = 0;
    int maskHeight = 0;
    const float* depth = nullptr;  ///< the frame's depth in texel rows, or nullptr: no sky exclusion
    int depthWidth = 0;
    int depthHeight = 0;
    hd::LuminanceWeights luminance{};  ///< the luminance definition (the params' hd::kParamLuma* words)
};

/// The weight in [0, 1] (before quantisation) of texel (x, y) with luminance L.
float meteringWeight(const post::MeteringSettings& settings, const MeteringScene& scene, int x, int y, float luminance);
/// hd::hdQuantiseMeteringWeight of it.
std::uint32_t meteringWeightQuantised(const post::MeteringSettings& settings,
                                      const MeteringScene& scene,
                                      int x,
                                      int y,
                                      float luminance);

struct WeightedHistogram
{
    std::vector<std::uint64_t> bins;    ///< summed quantised weights per bin
    std::vector<std::uint32_t> pixels;  ///< pixels per bin (how far a bin may differ: one step per pixel)
    std::uint64_t total = 0;
    std::vector<std::uint32_t> cdf;  ///< normalisedCdf(bins)
};

/// The weighted histogram of an RGBA float image (scene.width x scene.height) binned by hd::hdBinOf.
WeightedHistogram weightedHistogram(const float* rgba,
                                    const post::MeteringSettings& settings,
                                    const MeteringScene& scene,
                                    float logMin,
                                    float logMax,
                                    std::uint32_t binCount,
                                    std::uint32_t outOfRange);

/// cdf[i] = floor(cum_i * 2^30 / total + 0.5) in double; all zero when the total is zero.
std::vector<std::uint32_t> normalisedCdf(const std::vector<std::uint64_t>& bins);

/// The metering view's RGBA bytes of a pixel whose tone-mapped bytes are `toned` and quantised weight `q`.
std::array<std::uint8_t, 4> meteringViewPixel(const std::uint8_t* toned, std::uint32_t q);

}  // namespace ref
