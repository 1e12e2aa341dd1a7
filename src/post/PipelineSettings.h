// PipelineSettings.h: the plain structs of the post pipeline that its helpers share without the
// pipeline itself: what the pipeline is set to (PipelineSettings; the settings keys map onto it in
// post/PipelineParameters) and what the histogram view reads back (HistogramSnapshot).
#pragma once

#include "post/DisplayAntiAliasing.h"
#include "post/LuminanceUnits.h"
#include "post/PostTypes.h"
#include "tone/DisplayOutput.h"
#include "tone/LocalExposureSettings.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace post {

enum class RangeMode { Manual, Auto };

struct PipelineSettings
{
    std::string histogramMethod = "compute-shared-atomic";
    std::string scanMethod = "in-curve";
    std::string toneOperator = "ward";
    HistogramSpec spec;
    RangeMode rangeMode = RangeMode::Manual;
    float logMin = -10.0f;  ///< manual range, log2 of scene-linear luminance (EV)
    float logMax = 20.0f;
    float autoRangeSpeed = 4.0f;  ///< smoothing of the automatic range, 1/s (0 = no smoothing)
    int downsample = 1;           ///< histogram input: full frame (1) or box-downsampled 1/2, 1/4, 1/8
    /// tonemap.one_pass: the histogram pass also applies the previous frame's curve (one read of the
    /// frame, a frame of curve latency, as engines run it); where the method cannot (it does not
    /// appliesCurve(), a downsampled histogram, local adaptation, no curve yet) the frame runs two passes.
    bool onePass = false;
    /// tonemap.curve_in_histogram: with the scan "in-curve", an operator that offers its curve
    /// (percentile, equalize on luminance) has it built by the histogram pass's last workgroup where the
    /// method buildsCurve() (the default GL method): no curve dispatch. Off: the curve's own dispatch.
    bool curveInHistogram = true;
    bool viewLocalMean = false;  ///< show the local mean log2 L (CUDA summed-area table) instead of the frame
    UnitsMode inputUnits = UnitsMode::Auto;  ///< input.units: what one unit of the input is (post/LuminanceUnits.h)
    double cdPerUnit = 0.0;                  ///< input.cd_per_unit: > 0 overrides cd/m^2 per unit; 0 keeps the rule's
    /// display.aa: anti-aliasing of the display image. It runs only on frames that come with a scene
    /// depth (setSceneDepth: a rendered scene, whose geometry edges alias); still images are shown as
    /// they are. The tone-mapped image before it stays toneMappedTexture() (--verify compares that).
    AntiAliasing antiAliasing = AntiAliasing::Fxaa;
    /// display.target, display.peak: SDR (sRGB, RGBA8) or HDR10 (PQ, BT.2020) for a display of that peak.
    DisplaySettings display;
    /// local_exposure.*: Unreal Engine 5's local exposure before the operator's display curve
    /// (tone/LocalExposureSettings.h; off by default).
    LocalExposureSettings localExposure;
};

/// Histogram and curve data for the view, read back asynchronously (frames late, never stalling).
/// A local operator's selected tile (the tile under the first probe point inside the frame: the
/// mouse in the app, --probe headless): its histogram and curve, read back with the pipeline's own
/// asynchronous ring, a few frames late.
struct TileSnapshot
{
    std::uint64_t frame = 0;
    std::array<int, 2> tile{0, 0};    ///< column, row (texel rows: row 0 the frame's first texel row)
    std::array<int, 2> tiles{1, 1};   ///< the grid
    std::vector<std::uint32_t> bins;  ///< the tile's histogram (the pipeline's bins; empty for ward-local)
    float curveLogMin = 0.0f;
    float curveLogMax = 0.0f;
    std::vector<float> curve;  ///< the tile curve's display values (0..1) over [curveLogMin, curveLogMax]
};

struct HistogramSnapshot
{
    std::uint64_t frame = 0;
    std::uint32_t binCount = 0;
    float logMin = 0.0f;
    float logMax = 0.0f;
    std::vector<std::uint32_t> bins;
    std::array<std::uint32_t, hd::kCounterCount> counters{};
    bool countersValid = true;
    float curveLogMin = 0.0f;
    float curveLogMax = 0.0f;
    std::vector<float> curve;                            ///< display luminance per curve sample (luminance channel)
    std::vector<std::uint32_t> displayBins;              ///< histogram of the displayed image's luma (64 bins)
    std::vector<std::pair<std::string, float>> markers;  ///< named positions on the log2 axis (percentiles...)
    std::optional<TileSnapshot> tile;                    ///< a local operator's selected tile, if any
};

}  // namespace post
