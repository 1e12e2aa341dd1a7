// ToneWardExact.h: a bit-exact CPU model of Ward's frame-sampling fit as tonemap/WardCurveSpread.comp
// and WardCurve.comp run it (Ward Larson, Rushmeier & Piatko 1997 as Radiance pcond comphist + mkbrmap
// do it). The GPU fit sums in whole or fixed-point numbers and takes every transcendental and division
// from HostDevice.h's exact float functions, so this serial loop reproduces its every word: the
// histogram, the state, the curve and the view. It is the oracle for that kernel's determinism (GL test,
// --verify); what the fit means is checked against the independent double-precision model (ToneWardRef),
// with tolerances. Input: the foveal image the GPU made (RGBA float, cd/m^2), or a histogram and range
// for the ceiling stage (a selected method's bins, a fed histogram).
// Limits: histogram totals below 2^32; the fixed point keeps 2^(24 - bit length of the total) of a
// count (a ceiling is rounded down to it), so the trimmed totals differ from pcond's float ones by
// less than one count per bin and pass.
#pragma once

#include "shared/HostDevice.h"
#include "tone/ToneCurveInputs.h"
#include "tone/ToneSettings.h"

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace ref {

struct WardExactRange
{
    float bwmin = 0.0f;  ///< ln cd/m^2 of the lower edge of bin 0
    float bwmax = 0.0f;
    float bwavg = 0.0f;    ///< mean ln Lw of the counted samples (2^-16 fixed point, exact mean)
    float samples = 0.0f;  ///< samples counted in the log-average
    bool valid = false;
    bool duplicated = false;
};

struct WardExactFit
{
    WardExactRange range;
    std::vector<std::uint32_t> bins;                          ///< the histogram the fit used
    std::array<std::uint32_t, hd::kCounterCount> counters{};  ///< out-of-range counters (full fit only)
    std::uint32_t outcome = 0;                                ///< ref::WardOutcome order
    std::uint32_t passes = 0;
    float histot = 0.0f;      ///< counts (fixed point back to counts)
    float finalTotal = 0.0f;  ///< T of the last pass
    float ceilingFraction = 0.0f;
    bool converged = true;
    float linearScale = 0.0f;  ///< display per cd/m^2
    // The curve buffer's words.
    float curveLogMin = 0.0f;
    float curveLogMax = 0.0f;
    float curveMode = 0.0f;
    float curveScale = 0.0f;
    std::vector<float> curve;  ///< the LUT samples
    // The view buffer.
    std::vector<float> trimmed;
    std::vector<float> ceiling;
    std::vector<float> cumf;  ///< n + 1
};

/// Range, log-average and histogram of a gw x gh foveal image (RGBA floats, row-major), then the fit.
WardExactFit wardFrameFitExact(std::span<const float> fovealRgba,
                               int gridWidth,
                               int gridHeight,
                               const post::WardSettings& settings,
                               std::uint32_t bins,
                               const hd::LuminanceWeights& weights,
                               std::uint32_t curveSamples);

/// The ceiling stage alone on a histogram over a range found earlier.
WardExactFit wardCeilingFitExact(std::span<const std::uint32_t> bins,
                                 const WardExactRange& range,
                                 const post::WardSettings& settings,
                                 std::uint32_t curveSamples);

/// --verify's further check of Ward's frame fit (its row in reference/ToneReference.cpp): the GPU's
/// fit against this serial model, bit for bit: the fit's state words and the curve. Reads from
/// `inputs` (filled by post::ToneWard's verification): numbers "bins", "luma-r/g/b", "exact-bins"
/// (1: refit from the foveal image; 0: the ceiling stage on the GPU's bins), "foveal-width/height",
/// the state words by name ("outcome", "passes", "bwmin", "bwmax", "bwavg", "samples", "range-valid",
/// "duplicated", "final-total", "linear-scale"); words "histogram"; floats "foveal". No line when
/// "bins" is absent (no frame fit ran).
std::vector<ToneCheckResult> wardChecks(const ToneCheckInputs& inputs);

}  // namespace ref
