// TonePercentileRef.h: CPU reference of percentile auto-exposure: percentiles of a histogram's CDF
// (linear interpolation inside a bin, i.e. a uniform density within each bin), the band mean of
// log2 L between two percentiles, the target exposure (Key: the percentile to the key, lowered by the
// highlight limit by at most maxHighlightPullEv, plus the compensation and the compensation curve's
// value at the metered log2 L), the temporal adaptation (linear far from the target, exponential
// within the transition distance, integrated exactly over dt) and the cut detection (the histogram's
// mean log2 L against the previous usable frame's; a cut counts and, with snapAtCuts, snaps).
#pragma once

#include "tone/ToneCurveInputs.h"
#include "tone/ToneSettings.h"

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace ref {

/// Position, in bins (0 = lower edge of bin 0, n = upper edge of the last), where the inclusive CDF
/// reaches `fraction` (0..1) of its total: the first bin i with cdf[i] >= t (t = fraction * total)
/// and cdf[i] > 0, plus (t - cdf[i-1]) / count_i. nullopt when the CDF is empty.
std::optional<double> percentileBin(std::span<const std::uint32_t> cdf, double fraction);

/// The same as log2 luminance over [logMin, logMax]; `percent` is 0..100.
std::optional<double> percentile(std::span<const std::uint32_t> cdf, double percent, double logMin, double logMax);

/// Mean log2 L of the mass between the low and high percentiles (0..100), each bin's share placed at
/// the mean position of that share under a uniform density within the bin (a whole bin counts at
/// its centre). Equals percentile(low) when low == high. nullopt when the CDF is empty.
std::optional<double> bandMeanLog2(std::span<const std::uint32_t> cdf,
                                   double lowPercent,
                                   double highPercent,
                                   double logMin,
                                   double logMax);

struct PercentileTarget
{
    bool valid = false;        ///< false for an empty histogram or a non-finite result
    double targetEv = 0.0;     ///< after compensation and the min/max limits
    double meteredLog2 = 0.0;  ///< the percentile (Key) or the band mean (BandAverage)
    double highLog2 = 0.0;     ///< the high percentile (Key)
    double curveEv = 0.0;      ///< the compensation curve's value at meteredLog2
};
PercentileTarget percentileExposure(std::span<const std::uint32_t> cdf,
                                    double logMin,
                                    double logMax,
                                    const post::PercentileSettings& settings);

/// One adaptation step from `currentEv` toward `targetEv` over `dtSeconds` (dt <= 0 or NaN: no
/// change; dt clamped to kMaxAdaptationDtSeconds). LinearThenExponential: exact solution of
/// dE/dt = speed * sign within the linear zone and dE/dt = speed * delta / transition within the
/// exponential zone; the other curves take the engine's per-frame step (post::AdaptationCurve).
double adaptExposure(double currentEv, double targetEv, double dtSeconds, const post::PercentileSettings& settings);

/// Mean log2 L of the histogram given as its inclusive CDF, each bin's mass at the bin's centre (the cut
/// detection's measure); nullopt when the CDF is empty.
std::optional<double> histogramMeanLog2(std::span<const std::uint32_t> cdf, double logMin, double logMax);

/// The operator's state between frames.
struct PercentileState
{
    bool valid = false;  ///< false until the first usable frame (which snaps to the target)
    double exposureEv = 0.0;
    std::optional<double> meanLog2;  ///< the last usable frame's histogram mean, while cut detection is on
    bool cut = false;                ///< this frame was a cut
    double cutDistanceEv = 0.0;      ///< |mean - the previous frame's mean| (0 without a previous mean)
    std::uint64_t cutCount = 0;
};

/// One frame: meter the CDF, detect a cut (on footage, settings.cutThresholdEv > 0: the operator's
/// ToneInputs::footage), then snap (first frame, or a cut with snapAtCuts) or adapt; an unusable
/// frame keeps the state (and is no cut).
PercentileState stepPercentile(const PercentileState& previous,
                               std::span<const std::uint32_t> cdf,
                               double logMin,
                               double logMax,
                               double dtSeconds,
                               const post::PercentileSettings& settings,
                               bool footage = false);

/// The curve LUT: kPercentileCurveSamples samples over [logMin, logMax] of displayCurve(Lw * 2^E).
std::vector<float> percentileCurveValues(double exposureEv,
                                         double logMin,
                                         double logMax,
                                         const post::PercentileSettings& settings);

/// --verify's further checks of the percentile operator (its row in reference/ToneReference.cpp):
/// with a metering mask, the GPU's weighted CDF (words "metering-cdf") against ref::weightedHistogram
/// of the histogram image (the mask's values: floats "metering-mask" with numbers "mask-width/height";
/// the depth: floats "depth" with numbers "depth-width/height"); then the GPU's target exposure
/// (numbers "target-ev", absent while the GPU state is not valid) against percentileExposure of that
/// CDF (or of the pipeline's bins without a mask).
std::vector<ToneCheckResult> percentileChecks(const ToneCheckInputs& inputs);

}  // namespace ref
