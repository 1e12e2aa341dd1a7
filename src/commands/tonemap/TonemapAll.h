// TonemapAll.h: `hdrlab tonemap IN --operator all` and `--preset ID|none|all`: every tone operator (or
// the percentile operator under every engine preset) on one image, each run exactly as the single
// `tonemap --operator ID` (or `--preset ID`) runs it; `--operator all` adds the percentile operator
// with each RGB display transform ("percentile+agx", "percentile+agx-punchy", "percentile+pbr-neutral")
// (tonemapToFrame: the same settings, one frame from a reset state), composed into one contact sheet
// (commands/tonemap/ContactSheet.h) with --curve-out writing every curve into one CSV, a column per run. `--preset
// ID|none` alone is one run: the plain tonemap of the percentile operator with that preset. A preset is applied as the
// first --set (after --settings and the dedicated flags), so later --set keys refine it, as in a settings file; `none`
// is the percentile operator with its own settings. Limits: an 8-bit grey PNG goes through the HDR pipeline for every
// operator (no exact 8-bit equalize tile); the histogram panel shows the first run's histogram (with --preset all,
// `none`'s); options that concern one operator's pipeline (--probe, --view, --verify) are refused.
#pragma once

#include "commands/tonemap/TonemapCommand.h"
#include "gl/Program.h"
#include "post/PostTypes.h"

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace app {

/// True when `options` ask for a selection: --operator all, or --preset.
bool isTonemapSelection(const TonemapOptions& options);

/// One run of a selection: what its tile is called and the options of the single tonemap it is.
struct TonemapRun
{
    std::string name;        ///< the operator or preset id ("none": the percentile operator without a preset)
    TonemapOptions options;  ///< a plain tonemap of one operator (no "all", no preset)
};

/// The runs a selection stands for, in registry (or preset) order. Throws std::invalid_argument with
/// one line for bad combinations (--operator all with --preset, --probe, --view other than tonemapped,
/// --verify, --set tonemap.operator=...; a preset with --bins or --range, or with --set
/// percentile.preset=...; an unknown preset; a tile width outside 128..4096).
std::vector<TonemapRun> tonemapRuns(const TonemapOptions& options);

/// Runs the selection on the current context: one run is the plain tonemap; several make the contact
/// sheet at options.output, print its layout (a `tile N NAME: ...` line per tile, then the histogram
/// panel's line) and write the CSVs. Throws std::invalid_argument or image::ImageError with one line.
int tonemapSelection(const TonemapOptions& options,
                     gl::ShaderLibrary& shaders,
                     const post::GpuCaps& caps,
                     std::ostream& out,
                     std::ostream& err);

/// Every curve in one CSV: the log2_Lw column of the first curve's single-run --curve-out (its LUT's
/// sample positions, or 256 positions over [histogramLogMin, histogramLogMax] for a linear-scale
/// curve), then one column per curve named after it (NAME_r, NAME_g, NAME_b for per-channel curves),
/// each curve's display value there through the apply pass's lookup (ref::evaluateCurve;
/// exactly its samples where its LUT has the first one's positions).
std::string combinedCurveCsv(const std::vector<std::string>& names,
                             const std::vector<std::vector<float>>& curves,
                             float histogramLogMin,
                             float histogramLogMax);

/// "exposure +1.25 EV", "log-average 0.197 (-2.34 EV)", "median: none", or "no key value".
std::string describeKeyValue(const std::string& name, std::optional<float> ev);

}  // namespace app
