#include "reference/LocalExposureRef.h"

#include "shared/LocalExposure.h"

#include <algorithm>
#include <cmath>

namespace ref {

namespace {

std::size_t cellWord(const LocalExposureGrid& grid, int tx, int ty, int bin)
{
    return (std::size_t(ty * grid.tilesX + tx) * hd::kLocalExposureBins + std::size_t(bin)) * 2;
}

double scaleOf(float logMin, float logMax)
{
    return double(hd::hdBinScale(logMin, logMax, hd::kLocalExposureBins));
}

}  // namespace

LocalExposureGrid localExposureGrid(const float* rgba,
                                    int width,
                                    int height,
                                    float logMin,
                                    float logMax,
                                    const hd::LuminanceWeights& weights)
{
    LocalExposureGrid grid;
    grid.tilesX = hd::hdLocalExposureTiles(width);
    grid.tilesY = hd::hdLocalExposureTiles(height);
    grid.words.assign(std::size_t(grid.tilesX) * std::size_t(grid.tilesY) * hd::kLocalExposureBins * 2, 0u);
    const float scale = hd::hdBinScale(logMin, logMax, hd::kLocalExposureBins);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            const float* p = rgba + (std::size_t(y) * std::size_t(width) + std::size_t(x)) * 4;
            const int code = hd::hdLocalExposureCode(hd::hdLuminance(p[0], p[1], p[2], weights), logMin, scale);
            if (code < 0)
                continue;
            const std::size_t w = cellWord(grid, x / hd::kLocalExposureTile, y / hd::kLocalExposureTile, code >> 11);
            grid.words[w] += 1u;
            grid.words[w + 1] += std::uint32_t(code & 2047);
        }
    return grid;
}

LocalExposureBlur localExposureBlur(const LocalExposureGrid& grid,
                                    int width,
                                    float kernelSizePercent,
                                    float logMin,
                                    float logMax)
{
    const int nx = grid.tilesX, ny = grid.tilesY;
    const std::size_t tiles = std::size_t(nx) * std::size_t(ny);
    std::vector<double> count(tiles, 0.0), position(tiles, 0.0);
    LocalExposureBlur out;
    double totalPosition = 0.0;
    for (std::size_t t = 0; t < tiles; ++t) {
        double binSum = 0.0, qSum = 0.0;
        for (std::uint32_t b = 0; b < hd::kLocalExposureBins; ++b) {
            const std::size_t w = (t * hd::kLocalExposureBins + b) * 2;
            count[t] += double(grid.words[w]);
            binSum += double(grid.words[w]) * double(b);
            qSum += double(grid.words[w + 1]);
        }
        position[t] = count[t] > 0.0 ? binSum + (qSum + 0.5 * count[t]) / double(hd::kLocalExposureFractionSteps) : 0.0;
        out.frameCount += count[t];
        totalPosition += position[t];
    }
    const double scale = scaleOf(logMin, logMax);
    const double inverseScale = scale > 0.0 ? 1.0 / scale : 0.0;
    out.frameMean = out.frameCount > 0.0 ? double(logMin) + totalPosition / out.frameCount * inverseScale : logMin;
    const double sigma = double(hd::hdLocalExposureSigmaTiles(width, kernelSizePercent));
    const int radius = std::min(int(std::ceil(3.0 * sigma)), 1024);
    const auto gauss = [&](int d) { return radius == 0 ? 1.0 : std::exp(-double(d * d) * 0.5 / (sigma * sigma)); };
    std::vector<double> hCount(tiles, 0.0), hPosition(tiles, 0.0);
    for (int y = 0; y < ny; ++y)
        for (int x = 0; x < nx; ++x)
            for (int d = -radius; d <= radius; ++d) {
                const std::size_t o = std::size_t(y * nx + hd::hdLocalExposureMirror(x + d, nx));
                hCount[std::size_t(y * nx + x)] += gauss(d) * count[o];
                hPosition[std::size_t(y * nx + x)] += gauss(d) * position[o];
            }
    out.blurred.assign(tiles, out.frameMean);
    for (int y = 0; y < ny; ++y)
        for (int x = 0; x < nx; ++x) {
            double n = 0.0, p = 0.0;
            for (int d = -radius; d <= radius; ++d) {
                const std::size_t o = std::size_t(hd::hdLocalExposureMirror(y + d, ny) * nx + x);
                n += gauss(d) * hCount[o];
                p += gauss(d) * hPosition[o];
            }
            if (n > 0.0)
                out.blurred[std::size_t(y * nx + x)] = double(logMin) + p / n * inverseScale;
        }
    return out;
}

LocalExposureTerms localExposureTerms(const LocalExposureGrid& grid,
                                      const LocalExposureBlur& blur,
                                      const post::LocalExposureSettings& s,
                                      const LocalExposureMid& mid,
                                      float logMin,
                                      float logMax,
                                      int x,
                                      int y,
                                      double Lw)
{
    LocalExposureTerms t;
    t.valid = !std::isnan(Lw) && Lw >= double(hd::kMinLuminance) && !std::isinf(Lw);
    if (!t.valid)
        return t;
    t.logL = std::log2(Lw);
    const double scale = scaleOf(logMin, logMax);
    const double inverseScale = scale > 0.0 ? 1.0 / scale : 0.0;
    const double fx = double(hd::hdLocalExposureTilePosition(x)), fy = double(hd::hdLocalExposureTilePosition(y));
    const double bx = std::floor(fx), by = std::floor(fy);
    const int x0 = std::max(int(bx), 0), y0 = std::max(int(by), 0);
    const int x1 = std::min(int(bx) + 1, grid.tilesX - 1), y1 = std::min(int(by) + 1, grid.tilesY - 1);
    const double wx = fx - bx, wy = fy - by;
    const double z = std::clamp((t.logL - double(logMin)) * scale, 0.0, double(hd::kLocalExposureBins)) - 0.5;
    const double bz = std::floor(z);
    const int last = int(hd::kLocalExposureBins) - 1;
    const int b0 = std::clamp(int(bz), 0, last), b1 = std::clamp(int(bz) + 1, 0, last);
    const double wz = z - bz;
    double count = 0.0, position = 0.0;
    for (int corner = 0; corner < 4; ++corner) {
        const int tx = (corner & 1) ? x1 : x0, ty = (corner & 2) ? y1 : y0;
        const double wxy = ((corner & 1) ? wx : 1.0 - wx) * ((corner & 2) ? wy : 1.0 - wy);
        for (const auto& [bin, weight] : {std::pair{b0, 1.0 - wz}, std::pair{b1, wz}}) {
            const std::size_t w = cellWord(grid, tx, ty, bin);
            const double n = double(grid.words[w]);
            count += wxy * weight * n;
            position +=
                wxy * weight *
                (n * double(bin) + (double(grid.words[w + 1]) + 0.5 * n) / double(hd::kLocalExposureFractionSteps));
        }
    }
    t.bilateral = count > 0.0 ? double(logMin) + position / count * inverseScale : t.logL;
    const auto blurAt = [&](int tx, int ty) { return blur.blurred[std::size_t(ty * grid.tilesX + tx)]; };
    const double top = blurAt(x0, y0) + wx * (blurAt(x1, y0) - blurAt(x0, y0));
    const double bottom = blurAt(x0, y1) + wx * (blurAt(x1, y1) - blurAt(x0, y1));
    t.blurred = top + wy * (bottom - top);
    t.base = t.bilateral + double(s.blurredLuminanceBlend) * (t.blurred - t.bilateral);
    t.mid = (mid.fromCurve && mid.curveScale > 0.0 ? std::log2(double(hd::kLocalExposureMiddleGrey) / mid.curveScale)
                                                   : blur.frameMean) +
            double(s.middleGreyBias);
    const double contrast = t.base > t.mid ? s.highlightContrastScale : s.shadowContrastScale;
    const double target = t.mid + (t.base - t.mid) * contrast + (t.logL - t.base) * double(s.detailStrength);
    t.ev = target - t.logL;
    return t;
}

std::vector<float> localExposureEv(const float* rgba,
                                   int width,
                                   int height,
                                   const LocalExposureGrid& grid,
                                   const LocalExposureBlur& blur,
                                   const post::LocalExposureSettings& settings,
                                   const LocalExposureMid& mid,
                                   float logMin,
                                   float logMax,
                                   const hd::LuminanceWeights& weights)
{
    std::vector<float> ev(std::size_t(width) * std::size_t(height), 0.0f);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            const std::size_t i = std::size_t(y) * std::size_t(width) + std::size_t(x);
            const float* p = rgba + i * 4;
            const LocalExposureTerms t = localExposureTerms(grid, blur, settings, mid, logMin, logMax, x, y,
                                                            double(hd::hdLuminance(p[0], p[1], p[2], weights)));
            ev[i] = t.valid ? float(t.ev) : 0.0f;
        }
    return ev;
}

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
                                            const hd::LuminanceWeights& weights)
{
    std::vector<std::uint8_t> out(std::size_t(width) * std::size_t(height) * 4, 0);
    const double span = std::max(double(logMax) - double(logMin), 1e-6);
    const double range = double(hd::kLocalExposureViewRangeEv);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            const std::size_t i = std::size_t(y) * std::size_t(width) + std::size_t(x);
            const float* p = rgba + i * 4;
            const LocalExposureTerms t = localExposureTerms(grid, blur, settings, mid, logMin, logMax, x, y,
                                                            double(hd::hdLuminance(p[0], p[1], p[2], weights)));
            double grey = 0.0;
            if (t.valid) {
                grey = view == hd::kLocalExposureViewBase      ? (t.base - double(logMin)) / span
                       : view == hd::kLocalExposureViewBlurred ? (t.blurred - double(logMin)) / span
                       : view == hd::kLocalExposureViewDetail  ? 0.5 + 0.5 * (t.logL - t.base) / range
                                                               : 0.5 + 0.5 * t.ev / range;
            }
            const auto byte = std::uint8_t(std::lround(std::clamp(grey, 0.0, 1.0) * 255.0));
            out[i * 4] = out[i * 4 + 1] = out[i * 4 + 2] = byte;
            out[i * 4 + 3] = 255;
        }
    return out;
}

}  // namespace ref
