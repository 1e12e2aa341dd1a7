// ToneLocalRef.h: CPU references of the local histogram tone operators (post::ToneClahe "clahe",
// post::ToneWardLocal "ward-local"): the tile grid (shared/LocalTiles.h), the exact per-tile
// histograms of log2 luminance (hd::hdBinOf, integer counts: the GPU's must be equal), CLAHE's clip,
// redistribution and curve per tile (Zuiderveld 1994 as OpenCV's clahe.cpp clips: local-methods.md
// section 1, steps 4-7, on the tile's own total), Ward's frame fit per tile of the foveal image
// (reference/ToneWardExact, bit for bit) and the apply pass's blend of four tile curves.
// Limits: the curves' sRGB decode and the blend are float/double on the CPU; the GPU's curves are
// compared within a tolerance (the tile histograms and Ward's tile curves exactly).
#pragma once

#include "shared/HostDevice.h"
#include "shared/LocalTiles.h"
#include "tone/DisplayOutput.h"
#include "tone/LocalToneSettings.h"
#include "tone/ToneCurveInputs.h"

#include <cstdint>
#include <span>
#include <vector>

namespace ref {

/// The tile grid of a w x h frame (post::effectiveTiles applied).
struct TileGrid
{
    int tilesX = 1;
    int tilesY = 1;
    int tileWidth = 1;  ///< ceil(w / tilesX)
    int tileHeight = 1;
    int count() const { return tilesX * tilesY; }
};

TileGrid tileGrid(int width, int height, std::uint32_t tilesX, std::uint32_t tilesY);

/// Per-tile histograms (tile-major, `bins` words per tile) of an RGBA float image, binned exactly as
/// the GPU bins (hdBinOf of the luminance under `weights`; out-of-range codes are not counted).
std::vector<std::uint32_t> tileHistograms(const float* rgba,
                                          int width,
                                          int height,
                                          const TileGrid& grid,
                                          float logMin,
                                          float logMax,
                                          std::uint32_t bins,
                                          std::uint32_t outOfRange,
                                          const hd::LuminanceWeights& weights);

/// CLAHE's clip and redistribution of one histogram (integer counts; OpenCV's rule on the total).
std::vector<std::uint32_t> claheClip(std::span<const std::uint32_t> bins, std::uint32_t clipSteps);

/// The LUT samples (one per bin centre) of CLAHE's curve of one histogram: the clipped inclusive CDF
/// over the total (0.5 for an empty histogram), through the sRGB EOTF with encodedLevels.
std::vector<float> claheCurveValues(std::span<const std::uint32_t> bins, const post::ClaheSettings& settings);

/// "clahe"'s global curve (the pipeline's curve buffer): CLAHE of the pipeline's histogram.
std::vector<float> claheWords(const CurveInputs& inputs);

/// The display bytes of the tiled apply (Apply.comp kApplyTiles): per pixel the four tile curves of
/// `tileCurves` (the GPU's tile-curve buffer layout) evaluated at Lw (ref::evaluateCurve), blended
/// bilinearly, then toward `globalCurve` by the header's strength; RGB x Ld / Lw, sRGB-encoded.
std::vector<std::uint8_t> applyTileCurves(const float* rgba,
                                          int width,
                                          int height,
                                          const float* tileCurves,
                                          const float* globalCurve,
                                          const hd::LuminanceWeights& weights,
                                          float cdPerUnit);

/// The display value at one pixel of the tiled apply (the probe and applyTileCurves).
double tiledDisplayValue(const float* tileCurves, const float* globalCurve, int x, int y, double Lw);

/// --verify's further checks of "clahe": the GPU's tile histograms equal tileHistograms (words
/// "tile-histograms"), each tile curve within 1e-4 of claheCurveValues (floats "tile-curves"; numbers
/// "tiles-x", "tiles-y", "clip", "encoded").
std::vector<ToneCheckResult> claheChecks(const ToneCheckInputs& inputs);

/// --verify's further checks of "ward-local": Ward's global checks, then every tile's curve words equal
/// to ToneWardExact's frame fit of the tile's foveal samples (floats "foveal", "tile-curves"; numbers
/// "foveal-width/height", "tiles-x/y", "frame-width/height", "bins", "luma-r/g/b").
std::vector<ToneCheckResult> wardLocalChecks(const ToneCheckInputs& inputs);

}  // namespace ref
