#include "reference/ToneWardExact.h"

#include "util/Log.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace ref {

namespace {

constexpr std::uint32_t kOutcomeHistogram = 0;
constexpr std::uint32_t kOutcomeFits = 1;
constexpr std::uint32_t kOutcomeFailed = 2;
constexpr std::uint32_t kOutcomeNoSamples = 3;

float luminanceOf(std::span<const float> rgba, std::size_t index, const hd::LuminanceWeights& w)
{
    const float* p = rgba.data() + 4 * index;
    return hd::hdLuminanceWeighted(p[0], p[1], p[2], w.r, w.g, w.b);
}

bool usable(float L)
{
    return !std::isnan(L) && !std::isinf(L);
}

/// WardCurve.comp computeRange + buildHistogram.
WardExactFit rangeAndHistogram(std::span<const float> rgba,
                               std::size_t count,
                               std::uint32_t n,
                               const post::WardSettings& s,
                               const post::WardFitConstants& c,
                               const hd::LuminanceWeights& w)
{
    WardExactFit fit;
    float lmin = 3.0e38f;
    float lmax = -3.0e38f;
    for (std::size_t i = 0; i < count; ++i) {
        float L = luminanceOf(rgba, i, w);
        if (!usable(L))
            continue;
        L = std::max(L, 0.0f);
        lmin = std::min(lmin, L);
        lmax = std::max(lmax, L);
    }
    float lwmin = lmin;
    const float grown = lmax * c.growth;
    float lwmax = std::min(grown, c.lmax);
    const bool valid = lwmax > c.lmin;
    float bwmax = hd::hdLn(std::max(lwmax, c.lmin));
    float bwmin = hd::hdLn(c.lmin);
    bool duplicated = false;
    if (lwmin < c.lmin) {
        lwmin = c.lmin;
    } else if (s.duplicateBottomBin) {
        const float span = (bwmax - hd::hdLn(lwmin)) * c.duplicateFactor;
        bwmin = bwmax - span;
        lwmin = hd::hdExp(bwmin);
        duplicated = true;
    } else {
        bwmin = hd::hdLn(lwmin);
    }
    if (!valid) {
        bwmin = hd::hdLn(c.lmin);
        bwmax = bwmin + 1.0f;
        lwmin = c.lmin;
        lwmax = hd::hdExp(bwmax);
    }
    if (!valid)
        lwmax = 0.0f;
    // The log-average in 2^-16 fixed point: exact, whatever the order of the sum.
    std::int64_t sum = 0;
    std::uint32_t counted = 0;
    for (std::size_t i = 0; i < count; ++i) {
        const float L = luminanceOf(rgba, i, w);
        if (!usable(L) || L < lwmin || L >= lwmax)
            continue;
        const float scaled = hd::hdLn(L) * 65536.0f + 0.5f;
        sum += std::int64_t(std::floor(scaled));
        ++counted;
    }
    fit.range.bwmin = bwmin;
    fit.range.bwmax = bwmax;
    fit.range.valid = valid;
    fit.range.duplicated = duplicated;
    fit.range.samples = float(counted);
    fit.range.bwavg = counted > 0 ? float(double(sum) / (double(counted) * 65536.0)) : 0.0f;

    const float logMin = bwmin * hd::kInvLn2f;
    const float logMax = bwmax * hd::kInvLn2f;
    const float scale = hd::hdBinScale(logMin, logMax, n);
    fit.bins.assign(n, 0u);
    for (std::size_t i = 0; i < count; ++i) {
        const int code = hd::hdBinOfScaled(luminanceOf(rgba, i, w), logMin, logMax, scale, n, hd::kOutOfRangeSeparate);
        if (code >= 0)
            ++fit.bins[std::size_t(code)];
        else
            ++fit.counters[hd::hdCounterOfCode(code)];
    }
    return fit;
}

/// Exclusive prefix sums (mod 2^32, as the GPU's uint scan) and the total.
std::uint32_t scan(const std::vector<std::uint32_t>& hist, std::vector<std::uint32_t>& prefix)
{
    std::uint32_t running = 0;
    for (std::size_t i = 0; i < hist.size(); ++i) {
        prefix[i] = running;
        running += hist[i];
    }
    return running;
}

void makeCumf(const std::vector<std::uint32_t>& prefix, std::uint32_t total, std::vector<float>& cumf)
{
    for (std::size_t i = 0; i < prefix.size(); ++i)
        cumf[i] = total > 0 ? hd::hdDivide(float(prefix[i]), float(total)) : 0.0f;
    cumf[prefix.size()] = 1.0f;
}

/// WardCurve.comp from the histogram on (the ceiling loop, the linear operator, the curve, the view).
void ceilingFit(WardExactFit& fit,
                const post::WardSettings& s,
                const post::WardFitConstants& c,
                std::uint32_t curveSamples)
{
    const std::uint32_t n = std::uint32_t(fit.bins.size());
    std::uint32_t raw = 0;
    for (std::uint32_t v : fit.bins)
        raw += v;
    const int F = std::clamp(24 - int(std::bit_width(std::max(raw, 1u))), 0, 16);
    const float bwmin = fit.range.bwmin;
    const float bwmax = fit.range.bwmax;
    const float db = (bwmax - bwmin) * c.invBins;

    std::vector<std::uint32_t> hist(n);
    for (std::uint32_t i = 0; i < n; ++i)
        hist[i] = fit.bins[i] << F;
    if (fit.range.duplicated) {
        hist[1] >>= 1u;
        hist[0] += hist[1];
    }
    std::uint32_t histot = 0;
    for (std::uint32_t v : hist)
        histot += v;

    std::vector<std::uint32_t> prefix(n);
    std::vector<float> cumf(n + 1, 0.0f);
    std::vector<float> ceilings(n, 0.0f);
    std::uint32_t outcome = kOutcomeHistogram;
    std::uint32_t passes = 0;
    bool converged = true;
    std::uint32_t mhistot = histot;
    bool scanned = false;
    if (!fit.range.valid || histot == 0u) {
        outcome = kOutcomeNoSamples;
    } else if (bwmax - bwmin <= c.displayRange) {
        outcome = kOutcomeFits;
    } else {
        converged = false;
        for (std::uint32_t pass = 0; pass < post::kWardMaxPasses; ++pass) {
            mhistot = scan(hist, prefix);
            makeCumf(prefix, mhistot, cumf);
            scanned = true;
            if (mhistot <= histot / 40u) {
                outcome = kOutcomeFailed;
                converged = true;
                break;
            }
            const float Tdb = float(mhistot) * db;
            std::uint32_t trimmed = 0;
            for (std::uint32_t i = 0; i < n; ++i) {
                float clampf = c.invDisplayRange;
                if (s.humanContrast) {
                    const float b = bwmin + (float(i) + 0.5f) * db;
                    const float Lw = hd::hdExp(b);
                    const float P = 0.5f * (cumf[i] + cumf[i + 1]);
                    const float Bd = c.lnLdmin + P * c.displayRange;
                    const float Ld = hd::hdExp(Bd);
                    const float factor =
                        hd::hdDivide(hd::hdWardThreshold(Ld), hd::hdWardThreshold(Lw)) * hd::hdDivide(Lw, Ld);
                    clampf = factor * c.invDisplayRange;
                }
                const float ceilingValue = Tdb * clampf;
                const std::uint32_t ceiling = ceilingValue >= 16777216.0f ? 16777216u : std::uint32_t(ceilingValue);
                if (hist[i] > ceiling) {
                    trimmed += hist[i] - ceiling;
                    hist[i] = ceiling;
                }
                ceilings[i] = std::ldexp(float(ceiling), -F);
            }
            ++passes;
            if (trimmed <= mhistot / 40u) {
                converged = true;
                break;
            }
        }
    }
    if (!scanned)
        makeCumf(prefix, scan(hist, prefix), cumf);

    const float average = hd::hdExp(fit.range.bwavg);
    const float scalef = s.humanContrast ? hd::hdDivide(hd::hdWardThreshold(c.geometric), hd::hdWardThreshold(average))
                                         : hd::hdDivide(c.geometric, average);
    const float linearScale = outcome == kOutcomeNoSamples ? 0.0f : scalef * c.invLdmax;
    const bool linear = outcome != kOutcomeHistogram;

    fit.outcome = outcome;
    fit.passes = passes;
    fit.histot = std::ldexp(float(histot), -F);
    fit.finalTotal = std::ldexp(float(mhistot), -F);
    fit.ceilingFraction = db * c.invDisplayRange;
    fit.converged = converged;
    fit.linearScale = linearScale;
    fit.curveLogMin = (bwmin - c.lnScale) * hd::kInvLn2f;
    fit.curveLogMax = (bwmax - c.lnScale) * hd::kInvLn2f;
    fit.curveMode = linear ? hd::kCurveModeLinearScale : hd::kCurveModeLut;
    fit.curveScale = linearScale * post::sanitize(s).sceneScale;

    fit.curve.assign(curveSamples, 0.0f);
    const float span = (bwmax - bwmin) * c.invCurveSamples;
    for (std::uint32_t j = 0; j < curveSamples; ++j) {
        const float b = bwmin + (float(j) + 0.5f) * span;
        const float Lw = hd::hdExp(b);
        float value;
        if (linear) {
            value = std::min(linearScale * Lw, 1.0f);
        } else {
            float Bd;
            if (Lw <= c.lmin || b <= bwmin + c.ftiny) {
                Bd = c.lnLdmin;
            } else if (b >= bwmax - c.ftiny) {
                Bd = c.lnLdmax;
            } else {  // WardCurve.comp cumfAt
                const float offset = float(n) * (b - bwmin);
                const float width = bwmax - bwmin;
                const float x = hd::hdDivide(offset, width);
                const std::uint32_t i = std::min(std::uint32_t(x), n - 1u);
                const float f = x - float(i);
                const float P = cumf[i] * (1.0f - f) + cumf[i + 1] * f;
                Bd = c.lnLdmin + P * c.displayRange;
            }
            const float above = std::max(hd::hdExp(Bd) - c.ldmin, 0.0f);
            value = above * c.invLdRange;
        }
        fit.curve[j] = value;
    }
    fit.trimmed.resize(n);
    fit.ceiling.resize(n);
    const float linearCeiling = float(histot) * db * c.invDisplayRange;
    for (std::uint32_t i = 0; i < n; ++i) {
        fit.trimmed[i] = std::ldexp(float(hist[i]), -F);
        fit.ceiling[i] = linear ? std::ldexp(linearCeiling, -F) : ceilings[i];
    }
    fit.cumf = cumf;
}

}  // namespace

WardExactFit wardFrameFitExact(std::span<const float> fovealRgba,
                               int gridWidth,
                               int gridHeight,
                               const post::WardSettings& settings,
                               std::uint32_t bins,
                               const hd::LuminanceWeights& weights,
                               std::uint32_t curveSamples)
{
    const post::WardSettings s = post::sanitize(settings);
    const std::uint32_t n = std::clamp(bins, 2u, post::kWardMaxBins);
    const post::WardFitConstants c = post::wardFitConstants(s, n, curveSamples);
    const std::size_t count = std::size_t(std::max(gridWidth, 0)) * std::size_t(std::max(gridHeight, 0));
    WardExactFit fit = rangeAndHistogram(fovealRgba.first(std::min(fovealRgba.size(), 4 * count)),
                                         std::min(count, fovealRgba.size() / 4), n, s, c, weights);
    ceilingFit(fit, s, c, curveSamples);
    return fit;
}

WardExactFit wardCeilingFitExact(std::span<const std::uint32_t> bins,
                                 const WardExactRange& range,
                                 const post::WardSettings& settings,
                                 std::uint32_t curveSamples)
{
    const post::WardSettings s = post::sanitize(settings);
    const std::uint32_t n = std::uint32_t(std::clamp<std::size_t>(bins.size(), 2, post::kWardMaxBins));
    const post::WardFitConstants c = post::wardFitConstants(s, n, curveSamples);
    WardExactFit fit;
    fit.range = range;
    fit.bins.assign(n, 0u);
    std::copy_n(bins.begin(), std::min<std::size_t>(bins.size(), n), fit.bins.begin());
    ceilingFit(fit, s, c, curveSamples);
    return fit;
}

std::vector<ToneCheckResult> wardChecks(const ToneCheckInputs& in)
{
    const auto& numbers = in.numbers;
    if (!numbers.count("bins"))
        return {};
    const auto number = [&](const char* name) { return float(numbers.at(name)); };
    const post::WardSettings s = settingsOr<post::WardSettings>(in.curve);
    const std::uint32_t n = std::uint32_t(numbers.at("bins"));
    const hd::LuminanceWeights weights{number("luma-r"), number("luma-g"), number("luma-b")};
    const std::vector<std::uint32_t>& bins = in.words.at("histogram");
    WardExactFit expected;
    if (numbers.at("exact-bins") != 0.0) {  // the same bins either way
        expected = wardFrameFitExact(in.floats.at("foveal"), int(numbers.at("foveal-width")),
                                     int(numbers.at("foveal-height")), s, n, weights, post::kWardCurveSamples);
    } else {  // a method that may move samples between bins: the ceiling stage on its bins
        WardExactRange range;
        range.bwmin = number("bwmin");
        range.bwmax = number("bwmax");
        range.bwavg = number("bwavg");
        range.samples = number("samples");
        range.valid = number("range-valid") != 0.0f;
        range.duplicated = number("duplicated") != 0.0f;
        expected = wardCeilingFitExact(bins, range, s, post::kWardCurveSamples);
    }
    const std::vector<float>& curve = in.gpuCurve;
    const auto differs = [](float a, float b) {
        return std::bit_cast<std::uint32_t>(a) != std::bit_cast<std::uint32_t>(b);
    };
    const std::pair<const char*, std::pair<float, float>> words[] = {
        {"outcome", {number("outcome"), float(expected.outcome)}},
        {"passes", {number("passes"), float(expected.passes)}},
        {"bwmin", {number("bwmin"), expected.range.bwmin}},
        {"bwmax", {number("bwmax"), expected.range.bwmax}},
        {"bwavg", {number("bwavg"), expected.range.bwavg}},
        {"final total", {number("final-total"), expected.finalTotal}},
        {"linear scale", {number("linear-scale"), expected.linearScale}},
        {"curve log min", {curve[hd::kCurveLogMin], expected.curveLogMin}},
        {"curve log max", {curve[hd::kCurveLogMax], expected.curveLogMax}},
        {"curve scale", {curve[hd::kCurveScale], expected.curveScale}},
    };
    std::string difference;
    for (const auto& [name, pair] : words)
        if (difference.empty() && differs(pair.first, pair.second))
            difference = util::format("{} {} vs {}", name, pair.first, pair.second);
    if (difference.empty() && bins != expected.bins)
        difference = "histogram";
    for (std::size_t i = 0; difference.empty() && i < expected.curve.size(); ++i)
        if (differs(curve[hd::kCurveHeaderWords + i], expected.curve[i]))
            difference =
                util::format("LUT sample {}: {} vs {}", i, curve[hd::kCurveHeaderWords + i], expected.curve[i]);
    return {{"ward frame fit vs its serial CPU model (reference/ToneWardExact): " +
                 (difference.empty() ? std::string("bit-exact") : "DIFFERENT (" + difference + ")"),
             difference.empty()}};
}

}  // namespace ref
