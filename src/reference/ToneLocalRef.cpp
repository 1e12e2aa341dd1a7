#include "reference/ToneLocalRef.h"

#include "reference/Image.h"
#include "reference/ToneReference.h"
#include "reference/ToneWardExact.h"
#include "util/Log.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace ref {

TileGrid tileGrid(int width, int height, std::uint32_t tilesX, std::uint32_t tilesY)
{
    TileGrid grid;
    grid.tilesX = int(post::effectiveTiles(tilesX, width));
    grid.tilesY = int(post::effectiveTiles(tilesY, height));
    grid.tileWidth = hd::hdTileSize(std::max(width, 1), grid.tilesX);
    grid.tileHeight = hd::hdTileSize(std::max(height, 1), grid.tilesY);
    return grid;
}

std::vector<std::uint32_t> tileHistograms(const float* rgba,
                                          int width,
                                          int height,
                                          const TileGrid& grid,
                                          float logMin,
                                          float logMax,
                                          std::uint32_t bins,
                                          std::uint32_t outOfRange,
                                          const hd::LuminanceWeights& weights)
{
    std::vector<std::uint32_t> counts(std::size_t(grid.count()) * bins, 0u);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            const float* p = rgba + (std::size_t(y) * std::size_t(width) + std::size_t(x)) * 4;
            const float L = hd::hdLuminanceWeighted(p[0], p[1], p[2], weights.r, weights.g, weights.b);
            const int code = hd::hdBinOf(L, logMin, logMax, bins, outOfRange);
            if (code < 0)
                continue;
            const int tile = (y / grid.tileHeight) * grid.tilesX + x / grid.tileWidth;
            ++counts[std::size_t(tile) * bins + std::size_t(code)];
        }
    return counts;
}

std::vector<std::uint32_t> claheClip(std::span<const std::uint32_t> bins, std::uint32_t clipSteps)
{
    std::vector<std::uint32_t> h(bins.begin(), bins.end());
    const std::uint32_t n = std::uint32_t(h.size());
    std::uint64_t total = 0;
    for (std::uint32_t v : h)
        total += v;
    const std::uint32_t limit = post::claheClipLimit(clipSteps, std::uint32_t(total), n);
    if (limit == 0u || n == 0u)
        return h;
    std::uint32_t clipped = 0;
    for (std::uint32_t v : h)
        clipped += v > limit ? v - limit : 0u;
    // OpenCV's clip and batch + residual-step redistribution, written once in shared/Clahe.h.
    for (std::uint32_t t = 0; t < n; ++t)
        h[t] = std::uint32_t(hd::hdClaheRedistributed(int(h[t]), int(t), int(n), int(limit), int(clipped)));
    return h;
}

std::vector<float> claheCurveValues(std::span<const std::uint32_t> bins, const post::ClaheSettings& settings)
{
    const std::vector<std::uint32_t> h = claheClip(bins, post::claheClipSteps(settings.clip));
    std::uint64_t total = 0;
    for (std::uint32_t v : h)
        total += v;
    std::vector<float> values(h.size());
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < h.size(); ++i) {
        sum += h[i];
        const float level = total == 0 ? post::kEqualizeDegenerateValue : hd::hdDivide(float(sum), float(total));
        double display = level;
        if (settings.encodedLevels)
            display = level <= 0.04045f ? level / 12.92 : std::pow((double(level) + 0.055) / 1.055, 2.4);
        values[i] = float(display);
    }
    return values;
}

std::vector<float> claheWords(const CurveInputs& inputs)
{
    const post::ClaheSettings s = post::sanitize(settingsOr<post::ClaheSettings>(inputs));
    const std::uint32_t n = std::uint32_t(inputs.bins.size());
    std::vector<float> words = makeCurveWords(inputs.logMin, inputs.logMax, n, 1);
    const std::vector<float> values = claheCurveValues(inputs.bins, s);
    std::copy(values.begin(), values.end(), words.begin() + hd::kCurveHeaderWords);
    return words;
}

double tiledDisplayValue(const float* tileCurves, const float* globalCurve, int x, int y, double Lw)
{
    const int tilesX = int(tileCurves[hd::kTileTilesX]);
    const int tilesY = int(tileCurves[hd::kTileTilesY]);
    const float invW = 1.0f / tileCurves[hd::kTileWidth];
    const float invH = 1.0f / tileCurves[hd::kTileHeight];
    const float fx = hd::hdTileBlendPosition(x, invW);
    const float fy = hd::hdTileBlendPosition(y, invH);
    const int x1 = hd::hdTileBlendFirst(fx), x2 = hd::hdTileBlendSecond(fx, tilesX);
    const int y1 = hd::hdTileBlendFirst(fy), y2 = hd::hdTileBlendSecond(fy, tilesY);
    // Every curve's value clamped to the display's [0, 1] before the blend, as TileCurveLookup.glsl.
    const auto evaluate = [&](const float* words) {
        const double v = evaluateCurve(words, 0, Lw);
        return v > 0.0 ? std::min(v, 1.0) : 0.0;
    };
    const auto at = [&](int tx, int ty) {
        return evaluate(tileCurves + hd::hdTileCurveBase(std::uint32_t(ty * tilesX + tx)));
    };
    const double xa = hd::hdTileBlendWeight(fx);
    const double ya = hd::hdTileBlendWeight(fy);
    const auto lerp = [](double a, double b, double t) {
        return t == 0.0 ? a : t == 1.0 ? b : a == b ? a : a + t * (b - a);
    };
    const double local = lerp(lerp(at(x1, y1), at(x2, y1), xa), lerp(at(x1, y2), at(x2, y2), xa), ya);
    const double global = evaluate(globalCurve);
    return lerp(global, local, tileCurves[hd::kTileStrength]);
}

std::vector<std::uint8_t> applyTileCurves(const float* rgba,
                                          int width,
                                          int height,
                                          const float* tileCurves,
                                          const float* globalCurve,
                                          const hd::LuminanceWeights& weights,
                                          float cdPerUnit)
{
    std::vector<std::uint8_t> out(std::size_t(width) * std::size_t(height) * 4, 0);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            const std::size_t i = std::size_t(y) * std::size_t(width) + std::size_t(x);
            const float* p = rgba + i * 4;
            const float Lw = hd::hdLuminanceWeighted(p[0], p[1], p[2], weights.r, weights.g, weights.b);
            std::uint8_t* o = out.data() + i * 4;
            o[3] = 255;
            if (!(Lw > 0.0f))
                continue;
            const double Ld = tiledDisplayValue(tileCurves, globalCurve, x, y, Lw);
            for (int c = 0; c < 3; ++c) {
                const double value = std::isinf(Lw) ? Ld : p[c] * (Ld * cdPerUnit / Lw);
                o[c] = std::uint8_t(std::lround(encodeSrgb(value) * 255.0));
            }
        }
    return out;
}

std::vector<ToneCheckResult> claheChecks(const ToneCheckInputs& in)
{
    if (!in.numbers.count("tiles-x") || !in.histogramImage)
        return {};
    const post::ClaheSettings s = post::sanitize(settingsOr<post::ClaheSettings>(in.curve));
    const std::uint32_t n = std::uint32_t(in.curve.bins.size());
    // The grid the operator used (chosen on the full frame), cut over the histogram image.
    TileGrid grid;
    grid.tilesX = int(in.numbers.at("tiles-x"));
    grid.tilesY = int(in.numbers.at("tiles-y"));
    grid.tileWidth = hd::hdTileSize(std::max(in.histogramWidth, 1), grid.tilesX);
    grid.tileHeight = hd::hdTileSize(std::max(in.histogramHeight, 1), grid.tilesY);
    const std::vector<std::uint32_t> expected =
        tileHistograms(in.histogramImage, in.histogramWidth, in.histogramHeight, grid, in.curve.logMin, in.curve.logMax,
                       n, in.outOfRangePolicy, in.curve.luminance);
    const std::vector<std::uint32_t>& gpu = in.words.at("tile-histograms");
    std::size_t firstDifferent = expected.size();
    for (std::size_t i = 0; i < expected.size(); ++i)
        if (i >= gpu.size() || gpu[i] != expected[i]) {
            firstDifferent = i;
            break;
        }
    std::vector<ToneCheckResult> lines;
    lines.push_back(
        {util::format("tile histograms ({}x{} tiles of {}x{}, {} bins) vs CPU: {}", grid.tilesX, grid.tilesY,
                      grid.tileWidth, grid.tileHeight, n,
                      firstDifferent == expected.size()
                          ? std::string("exact")
                          : util::format("DIFFERENT (tile {}, bin {})", firstDifferent / n, firstDifferent % n)),
         firstDifferent == expected.size()});
    const std::vector<float>& curves = in.floats.at("tile-curves");
    // Smoothing: the previous frame's tile curve at each sample's log2 L, moved by alpha toward the new value.
    const double alpha = in.numbers.count("alpha") ? in.numbers.at("alpha") : 1.0;
    const std::vector<float>* previous =
        alpha < 1.0 && in.floats.count("previous-tile-curves") ? &in.floats.at("previous-tile-curves") : nullptr;
    double worst = 0.0;
    for (int t = 0; t < grid.count(); ++t) {
        const std::span<const std::uint32_t> bins(expected.data() + std::size_t(t) * n, n);
        const std::vector<float> values = claheCurveValues(bins, s);
        const std::uint32_t base = hd::hdTileCurveBase(std::uint32_t(t));
        for (std::uint32_t i = 0; i < n; ++i) {
            double value = values[i];
            if (previous) {
                const double span = in.curve.logMax > in.curve.logMin ? double(in.curve.logMax) - in.curve.logMin : 1.0;
                const double log2L = in.curve.logMin + (i + 0.5) * span / n;
                const double p = std::clamp(evaluateCurve(previous->data() + base, 0, std::exp2(log2L)), 0.0, 1.0);
                value = p + alpha * (value - p);
            }
            worst = std::max(worst, std::abs(double(curves[base + hd::kCurveHeaderWords + i]) - value));
        }
    }
    lines.push_back({util::format("clahe tile curves vs CPU{}: max difference {}{}",
                                  previous ? util::format(" (smoothed, alpha {})", alpha) : std::string(), worst,
                                  worst <= 1e-4 ? "" : " (ABOVE 1e-4)"),
                     worst <= 1e-4});
    return lines;
}

std::vector<ToneCheckResult> wardLocalChecks(const ToneCheckInputs& in)
{
    std::vector<ToneCheckResult> lines = wardChecks(in);
    if (!in.numbers.count("tiles-x") || !in.floats.count("foveal"))
        return lines;
    const auto number = [&](const char* name) { return in.numbers.at(name); };
    const post::WardSettings s = settingsOr<post::WardSettings>(in.curve);
    const std::uint32_t n = std::uint32_t(number("bins"));
    const hd::LuminanceWeights weights{float(number("luma-r")), float(number("luma-g")), float(number("luma-b"))};
    const int gw = int(number("foveal-width"));
    const int gh = int(number("foveal-height"));
    const int tilesX = int(number("tiles-x"));
    const int tilesY = int(number("tiles-y"));
    const int frameW = int(number("frame-width"));
    const int frameH = int(number("frame-height"));
    const std::vector<float>& foveal = in.floats.at("foveal");
    const std::vector<float>& curves = in.floats.at("tile-curves");
    // Smoothing (WardLocalSmooth.comp): each LUT tile's samples moved from the previous frame's tile
    // curve at the sample's log2 L by alpha; compared within 1e-4, the headers still bit for bit.
    const double alpha = in.numbers.count("alpha") ? in.numbers.at("alpha") : 1.0;
    const std::vector<float>* previous =
        alpha < 1.0 && in.floats.count("previous-tile-curves") ? &in.floats.at("previous-tile-curves") : nullptr;
    double worst = 0.0;
    std::string difference;
    for (int ty = 0; ty < tilesY && difference.empty(); ++ty)
        for (int tx = 0; tx < tilesX && difference.empty(); ++tx) {
            const auto [x0, x1] = post::fovealTileSpan(tx, tilesX, frameW, gw);
            const auto [y0, y1] = post::fovealTileSpan(ty, tilesY, frameH, gh);
            const float* tile = curves.data() + hd::hdTileCurveBase(std::uint32_t(ty * tilesX + tx));
            std::vector<float> expected(hd::kCurveHeaderWords + post::kWardCurveSamples, 0.0f);
            if (x1 <= x0 || y1 <= y0) {  // no foveal sample: the global curve
                std::copy_n(in.gpuCurve.begin(), expected.size(), expected.begin());
            } else {
                std::vector<float> samples;
                for (int y = y0; y < y1; ++y)
                    for (int x = x0; x < x1; ++x)
                        for (int c = 0; c < 4; ++c)
                            samples.push_back(foveal[(std::size_t(y) * std::size_t(gw) + std::size_t(x)) * 4 + c]);
                const WardExactFit fit =
                    wardFrameFitExact(samples, x1 - x0, y1 - y0, s, n, weights, post::kWardCurveSamples);
                expected[hd::kCurveLogMin] = fit.curveLogMin;
                expected[hd::kCurveLogMax] = fit.curveLogMax;
                expected[hd::kCurveMode] = fit.curveMode;
                expected[hd::kCurveScale] = fit.curveScale;
                std::copy(fit.curve.begin(), fit.curve.end(), expected.begin() + hd::kCurveHeaderWords);
            }
            for (std::uint32_t w : {hd::kCurveLogMin, hd::kCurveLogMax, hd::kCurveMode, hd::kCurveScale})
                if (std::bit_cast<std::uint32_t>(tile[w]) != std::bit_cast<std::uint32_t>(expected[w]))
                    difference = util::format("tile {},{} header word {}: {} vs {}", tx, ty, w, tile[w], expected[w]);
            if (previous && expected[hd::kCurveMode] != hd::kCurveModeLinearScale) {
                const std::uint32_t base = hd::hdTileCurveBase(std::uint32_t(ty * tilesX + tx));
                const std::size_t samples = std::size_t(tile[hd::kCurveSampleCount]);  // as the shader reads it
                const double lo = expected[hd::kCurveLogMin], hi = expected[hd::kCurveLogMax];
                const double span = hi > lo ? hi - lo : 1.0;
                for (std::size_t i = 0; i < samples && i + hd::kCurveHeaderWords < expected.size(); ++i) {
                    const double log2L = lo + (double(i) + 0.5) * span / double(samples);
                    const double p = std::clamp(evaluateCurve(previous->data() + base, 0, std::exp2(log2L)), 0.0, 1.0);
                    const double value = p + alpha * (double(expected[hd::kCurveHeaderWords + i]) - p);
                    worst = std::max(worst, std::abs(double(tile[hd::kCurveHeaderWords + i]) - value));
                }
                continue;
            }
            for (std::size_t i = hd::kCurveHeaderWords; i < expected.size() && difference.empty(); ++i)
                if (std::bit_cast<std::uint32_t>(tile[i]) != std::bit_cast<std::uint32_t>(expected[i]))
                    difference = util::format("tile {},{} LUT sample {}: {} vs {}", tx, ty, i - hd::kCurveHeaderWords,
                                              tile[i], expected[i]);
        }
    lines.push_back({"ward-local tile fits vs the serial CPU model per tile: " +
                         (difference.empty() ? std::string(previous ? "headers bit-exact" : "bit-exact")
                                             : "DIFFERENT (" + difference + ")"),
                     difference.empty()});
    if (previous)
        lines.push_back({util::format("ward-local tile curves (smoothed, alpha {}) vs CPU: max difference {}{}", alpha,
                                      worst, worst <= 1e-4 ? "" : " (ABOVE 1e-4)"),
                         worst <= 1e-4});
    return lines;
}

}  // namespace ref
