// LocalExposureRef.h: the CPU reference of the bilateral local exposure (post::BilateralLocalExposure,
// shared/LocalExposure.h, docs/TONE_OPERATORS.md "Local exposure"): the grid (integers: equal to the
// GPU's, word for word), the blurred log2 L per tile (double; the GPU sums in float), the per-pixel
// terms (bilateral base, blurred, base, mid, local exposure; double) and the final picture (through
// ref::applyCurve with the per-pixel exposure) and the views.
#pragma once

#include "shared/HostDevice.h"
#include "tone/LocalExposureSettings.h"

#include <cstdint>
#include <vector>

namespace ref {

struct LocalExposureGrid
{
    int tilesX = 0;
    int tilesY = 0;
    std::vector<std::uint32_t> words;  ///< per (tile, bin): count, sum of q (the GPU buffer's layout)
};

/// The grid of an RGBA float image (row 0 first, as GL stores it) under `weights`, over [logMin, logMax].
LocalExposureGrid localExposureGrid(const float* rgba,
                                    int width,
                                    int height,
                                    float logMin,
                                    float logMax,
                                    const hd::LuminanceWeights& weights = {});

struct LocalExposureBlur
{
    double frameMean = 0.0;       ///< mean log2 L of the counted pixels (logMin when none)
    double frameCount = 0.0;      ///< pixels counted
    std::vector<double> blurred;  ///< per tile, the Gaussian's count-weighted mean log2 L
};

/// GridBlur.comp's arithmetic in double: tile means, the mirrored Gaussian (sigma from the width), the frame mean.
LocalExposureBlur localExposureBlur(const LocalExposureGrid& grid,
                                    int width,
                                    float kernelSizePercent,
                                    float logMin,
                                    float logMax);

struct LocalExposureTerms
{
    bool valid = false;
    double logL = 0.0;
    double bilateral = 0.0;
    double blurred = 0.0;
    double base = 0.0;
    double mid = 0.0;
    double ev = 0.0;  ///< the local exposure's log2
};

/// Where mid comes from: the curve's exposure (curveScale = 2^E > 0: log2(0.18 / 2^E)) or the frame's mean.
struct LocalExposureMid
{
    bool fromCurve = false;
    double curveScale = 0.0;
};

/// The terms of pixel (x, y) (GL rows) of luminance Lw (cd/m^2).
LocalExposureTerms localExposureTerms(const LocalExposureGrid& grid,
                                      const LocalExposureBlur& blur,
                                      const post::LocalExposureSettings& settings,
                                      const LocalExposureMid& mid,
                                      float logMin,
                                      float logMax,
                                      int x,
                                      int y,
                                      double Lw);

/// Every pixel's local exposure log2 (0 where the luminance is not usable), for ref::applyCurve.
std::vector<float> localExposureEv(const float* rgba,
                                   int width,
                                   int height,
                                   const LocalExposureGrid& grid,
                                   const LocalExposureBlur& blur,
                                   const post::LocalExposureSettings& settings,
                                   const LocalExposureMid& mid,
                                   float logMin,
                                   float logMax,
                                   const hd::LuminanceWeights& weights = {});

/// The view of one term (hd::kLocalExposureView*) as RGBA8 (LocalExposureApply.glsl's localExposureView).
std::vector<std::uint8_t> localExposureView(const float* rgba,
                                            int width,
                                            int height,
                                            const LocalExposureGrid& grid,
                                            const LocalExposureBlur& blur,
                                            const post::LocalExposureSettings& settings,
                                            const LocalExposureMid& mid,
                                            float logMin,
                                            float logMax,
                                            std::uint32_t view,
                                            const hd::LuminanceWeights& weights = {});

}  // namespace ref
