#include "reference/TonePercentileRef.h"

#include "reference/Metering.h"
#include "reference/Scan.h"
#include "reference/ToneExposureRef.h"
#include "util/Log.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace ref {

std::optional<double> percentileBin(std::span<const std::uint32_t> cdf, double fraction)
{
    if (cdf.empty() || cdf.back() == 0u)
        return std::nullopt;
    const double total = cdf.back();
    const double t = std::clamp(fraction, 0.0, 1.0) * total;
    for (std::size_t i = 0; i < cdf.size(); ++i) {
        if (cdf[i] == 0u || double(cdf[i]) < t)
            continue;
        const double before = i > 0 ? double(cdf[i - 1]) : 0.0;
        const double count = double(cdf[i]) - before;
        const double inside = count > 0.0 ? std::clamp((t - before) / count, 0.0, 1.0) : 0.0;
        return double(i) + inside;
    }
    return double(cdf.size());
}

std::optional<double> percentile(std::span<const std::uint32_t> cdf, double percent, double logMin, double logMax)
{
    const std::optional<double> bin = percentileBin(cdf, percent / 100.0);
    if (!bin)
        return std::nullopt;
    return logMin + *bin * (logMax - logMin) / double(cdf.size());
}

std::optional<double> bandMeanLog2(std::span<const std::uint32_t> cdf,
                                   double lowPercent,
                                   double highPercent,
                                   double logMin,
                                   double logMax)
{
    if (cdf.empty() || cdf.back() == 0u)
        return std::nullopt;
    if (highPercent < lowPercent)
        std::swap(lowPercent, highPercent);
    const double total = cdf.back();
    const double lo = std::clamp(lowPercent / 100.0, 0.0, 1.0) * total;
    const double hi = std::clamp(highPercent / 100.0, 0.0, 1.0) * total;
    if (hi <= lo)
        return percentile(cdf, lowPercent, logMin, logMax);
    const double width = (logMax - logMin) / double(cdf.size());
    double weighted = 0.0;
    double mass = 0.0;
    double before = 0.0;
    for (std::size_t i = 0; i < cdf.size(); ++i) {
        const double after = cdf[i];
        const double count = after - before;
        const double a = std::max(before, lo);
        const double b = std::min(after, hi);
        if (count > 0.0 && b > a) {
            // The share [a, b] of this bin's cumulative interval sits, on average, at the middle of
            // the positions it occupies when the bin's mass is spread uniformly.
            const double middle = double(i) + ((a + b) * 0.5 - before) / count;
            weighted += (b - a) * (logMin + middle * width);
            mass += b - a;
        }
        before = after;
    }
    if (!(mass > 0.0))
        return std::nullopt;
    return weighted / mass;
}

PercentileTarget percentileExposure(std::span<const std::uint32_t> cdf,
                                    double logMin,
                                    double logMax,
                                    const post::PercentileSettings& raw)
{
    const post::PercentileSettings s = post::sanitize(raw);
    PercentileTarget result;
    double target = 0.0;
    if (s.metering == post::PercentileMetering::Key) {
        const std::optional<double> metered = percentile(cdf, s.percentile, logMin, logMax);
        const std::optional<double> high = percentile(cdf, s.highPercentile, logMin, logMax);
        if (!metered || !high)
            return result;
        result.meteredLog2 = *metered;
        result.highLog2 = *high;
        const double keyTarget = std::log2(double(s.key)) - *metered;
        target = keyTarget;
        if (s.limitHighlights) {
            // The highlight limit may only darken, and by at most maxHighlightPullEv (Valve's median floor).
            target = std::min(target, std::log2(double(s.whitePoint)) - *high);
            target = std::max(target, keyTarget - double(s.maxHighlightPullEv));
        }
    } else {
        const std::optional<double> mean = bandMeanLog2(cdf, s.bandLow, s.bandHigh, logMin, logMax);
        if (!mean)
            return result;
        result.meteredLog2 = *mean;
        target = std::log2(double(s.key)) - *mean;
    }
    result.curveEv = double(post::compensationAt(s.compensationCurve, float(result.meteredLog2)));
    target = std::clamp(target + s.compensationEv + result.curveEv, double(s.minEv), double(s.maxEv));
    if (!std::isfinite(target))
        return result;
    result.valid = true;
    result.targetEv = target;
    return result;
}

namespace {
/// UE's slope modifier M: at dt = 1/60 s an exponential step at the transition distance equals the
/// linear step there (M = eps speed / ((1 - 2^(-eps speed)) T), eps = 1/60 s).
double unrealSlopeModifier(double speed, double transition)
{
    const double eps = 1.0 / 60.0;
    return eps * speed / ((1.0 - std::exp2(-eps * speed)) * transition);
}
}  // namespace

double adaptExposure(double currentEv, double targetEv, double dtSeconds, const post::PercentileSettings& raw)
{
    const post::PercentileSettings s = post::sanitize(raw);
    if (!(dtSeconds > 0.0) || !std::isfinite(targetEv))
        return currentEv;
    if (!std::isfinite(currentEv))
        return targetEv;
    double dt = std::min(dtSeconds, post::kMaxAdaptationDtSeconds);
    const double delta = targetEv - currentEv;
    if (delta == 0.0)
        return currentEv;
    const double direction = delta > 0.0 ? 1.0 : -1.0;
    // A falling exposure means the scene got brighter: the (faster) "up" speed.
    const double speed = delta < 0.0 ? s.speedUpEv : s.speedDownEv;
    double distance = std::abs(delta);
    const double transition = s.transitionEv;
    switch (s.adaptationCurve) {
        case post::AdaptationCurve::Exponential:  // HDRP's ComputeLuminanceAdaptation
            return currentEv + delta * (1.0 - std::exp2(-dt * speed));
        case post::AdaptationCurve::UnrealSteps:  // UE's ComputeEyeAdaptation
            if (distance > transition || !(transition > 0.0))
                return currentEv + direction * std::min(speed * dt, distance);
            return currentEv + delta * (1.0 - std::exp2(-dt * speed)) * unrealSlopeModifier(speed, transition);
        case post::AdaptationCurve::BevySteps:  // Bevy's compute_average
            if (!(transition > 0.0))
                return currentEv + direction * std::min(speed * dt, distance);
            return currentEv + direction * std::min(speed * dt, distance * speed * dt / transition);
        case post::AdaptationCurve::LinearThenExponential:
            break;
    }
    if (distance > transition) {
        const double linearTime = (distance - transition) / speed;
        if (dt <= linearTime)
            return currentEv + direction * speed * dt;
        dt -= linearTime;
        distance = transition;
    }
    if (!(transition > 0.0))
        return targetEv;  // linear all the way and it arrived within dt
    return targetEv - direction * distance * std::exp(-speed * dt / transition);
}

PercentileState stepPercentile(const PercentileState& previous,
                               std::span<const std::uint32_t> cdf,
                               double logMin,
                               double logMax,
                               double dtSeconds,
                               const post::PercentileSettings& settings,
                               bool footage)
{
    const post::PercentileSettings s = post::sanitize(settings);
    const PercentileTarget target = percentileExposure(cdf, logMin, logMax, s);
    if (!target.valid) {
        PercentileState kept = previous;
        kept.cut = false;
        return kept;
    }
    PercentileState next;
    next.valid = true;
    next.cutCount = previous.cutCount;
    const bool detect = footage && s.cutThresholdEv > 0.0f;
    const std::optional<double> mean = detect ? histogramMeanLog2(cdf, logMin, logMax) : std::nullopt;
    if (mean && std::isfinite(*mean)) {
        if (previous.meanLog2) {
            next.cutDistanceEv = std::abs(*mean - *previous.meanLog2);
            next.cut = next.cutDistanceEv > double(s.cutThresholdEv);
        }
        next.meanLog2 = mean;
    }
    next.cutCount += next.cut ? 1u : 0u;
    if (!previous.valid || !std::isfinite(previous.exposureEv) || !s.adapt || (next.cut && s.snapAtCuts))
        next.exposureEv = target.targetEv;
    else
        next.exposureEv = adaptExposure(previous.exposureEv, target.targetEv, dtSeconds, settings);
    return next;
}

std::optional<double> histogramMeanLog2(std::span<const std::uint32_t> cdf, double logMin, double logMax)
{
    if (cdf.empty() || cdf.back() == 0u)
        return std::nullopt;
    double centreSum = 0.0;
    for (std::size_t i = 0; i < cdf.size(); ++i) {
        const double count = double(cdf[i]) - (i > 0 ? double(cdf[i - 1]) : 0.0);
        centreSum += count * (double(i) + 0.5);
    }
    return logMin + centreSum / double(cdf.back()) * (logMax - logMin) / double(cdf.size());
}

std::vector<float> percentileCurveValues(double exposureEv,
                                         double logMin,
                                         double logMax,
                                         const post::PercentileSettings& raw)
{
    const post::PercentileSettings s = post::sanitize(raw);
    const std::uint32_t n = post::kPercentileCurveSamples;
    std::vector<float> values(n);
    for (std::uint32_t i = 0; i < n; ++i) {
        const double x = logMin + (i + 0.5) * (logMax - logMin) / n;
        values[i] = float(exposureDisplay(x, exposureEv, s.display));
    }
    return values;
}

namespace {

/// EV tolerance of the GPU percentile target against the CPU reference (float vs double metering).
constexpr double kTargetToleranceEv = 1e-3;

}  // namespace

std::vector<ToneCheckResult> percentileChecks(const ToneCheckInputs& in)
{
    std::vector<ToneCheckResult> lines;
    const post::PercentileSettings settings = settingsOr<post::PercentileSettings>(in.curve);
    const CurveInputs& curve = in.curve;
    const auto gpuCdf = in.words.find("metering-cdf");
    const bool masked = gpuCdf != in.words.end();
    const std::uint32_t bins = std::uint32_t(curve.bins.size());
    if (masked && in.histogramImage) {
        const post::MeteringSettings& m = settings.meteringMask;
        MeteringScene scene;
        scene.luminance = curve.luminance;
        scene.width = in.histogramWidth;
        scene.height = in.histogramHeight;
        scene.topDownRows = in.topDownRows;
        if (const auto mask = in.floats.find("metering-mask"); mask != in.floats.end()) {
            scene.maskValues = mask->second.data();
            scene.maskWidth = int(in.numbers.at("mask-width"));
            scene.maskHeight = int(in.numbers.at("mask-height"));
        }
        if (const auto depth = in.floats.find("depth"); depth != in.floats.end()) {
            scene.depth = depth->second.data();
            scene.depthWidth = int(in.numbers.at("depth-width"));
            scene.depthHeight = int(in.numbers.at("depth-height"));
        }
        const WeightedHistogram cpu =
            weightedHistogram(in.histogramImage, m, scene, curve.logMin, curve.logMax, bins, in.outOfRangePolicy);
        // sqrt and pow may move a weight by one 1/65535 step (MeteringMask.h); 1 for the double division.
        std::uint64_t pixelsInBins = 0;
        for (std::uint32_t count : cpu.pixels)
            pixelsInBins += count;
        const bool exact = m.mask == post::MeteringMaskType::Average || m.mask == post::MeteringMaskType::Texture;
        const double tolerance =
            1.0 + (exact || cpu.total == 0
                       ? 0.0
                       : std::ceil(double(hd::kMeteringCdfTotal) * double(pixelsInBins) / double(cpu.total)));
        double maxDifference = 0.0;
        for (std::uint32_t i = 0; i < bins; ++i)
            maxDifference = std::max(maxDifference, std::abs(double(gpuCdf->second[i]) - double(cpu.cdf[i])));
        const bool ok = maxDifference <= tolerance;
        std::ostringstream text;
        text << "metering mask: weighted CDF vs CPU reference: max difference " << maxDifference << " of 2^30"
             << (ok ? "" : util::format(" (ABOVE {})", tolerance));
        lines.push_back({text.str(), ok});
    }
    // With a metering mask the meter read the weighted CDF (its own CPU reference: ref::weightedHistogram).
    const auto target = in.numbers.find("target-ev");
    const std::vector<std::uint32_t> cdf = masked ? gpuCdf->second : inclusiveScan(curve.bins);
    const PercentileTarget expected = percentileExposure(cdf, curve.logMin, curve.logMax, settings);
    const auto gpuMean = in.numbers.find("mean-log2");
    if (const std::optional<double> mean = histogramMeanLog2(cdf, curve.logMin, curve.logMax);
        mean && gpuMean != in.numbers.end()) {
        const bool ok = std::abs(gpuMean->second - *mean) <= kTargetToleranceEv;
        std::ostringstream text;
        text << "percentile cut detection: histogram mean log2 L gpu " << gpuMean->second << ", cpu " << *mean
             << (ok ? "" : util::format(" (DIFFERS BY MORE THAN {} EV)", kTargetToleranceEv));
        lines.push_back({text.str(), ok});
    }
    if (expected.valid && target != in.numbers.end()) {
        const double gpu = target->second;
        const bool ok = std::abs(gpu - expected.targetEv) <= kTargetToleranceEv;
        std::ostringstream text;
        text << "percentile target exposure: gpu " << gpu << " EV, cpu " << expected.targetEv << " EV"
             << (ok ? "" : util::format(" (DIFFERS BY MORE THAN {} EV)", kTargetToleranceEv));
        lines.push_back({text.str(), ok});
    }
    return lines;
}

}  // namespace ref
