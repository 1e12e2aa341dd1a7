#include "reference/ToneWardRef.h"

#include "shared/HostDevice.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace ref {

double htcontrs(double La)
{
    if (La < 1.148e-4)
        return 1.38e-3;
    const double l = std::log10(La);
    double logDl = 0.0;
    if (l < -1.44)
        logDl = std::pow(0.405 * l + 1.6, 2.18) - 2.86;
    else if (l < -0.0184)
        logDl = l - 0.395;
    else if (l < 1.9)
        logDl = std::pow(0.249 * l + 0.65, 2.7) - 0.72;
    else
        logDl = l - 1.255;
    return std::pow(10.0, logDl);
}

double wardCeilingFactor(double Lw, double Ld)
{
    return htcontrs(Ld) / htcontrs(Lw) * (Lw / Ld);
}

FovealGrid fovealGridSize(int width, int height, double fovYDegrees)
{
    width = std::max(width, 1);
    height = std::max(height, 1);
    const double aspect = double(width) / double(height);
    const double degree = std::numbers::pi / 180.0;
    double tanHalfY = 0.0;
    double tanHalfX = 0.0;
    if (std::isfinite(fovYDegrees) && fovYDegrees > 5.0 && fovYDegrees < 179.0) {
        tanHalfY = std::tan(fovYDegrees * degree / 2.0);
        tanHalfX = tanHalfY * aspect;
    } else if (width >= height) {  // pcond's default view: 40 degrees on the longer axis
        tanHalfX = std::tan(20.0 * degree);
        tanHalfY = tanHalfX / aspect;
    } else {
        tanHalfY = std::tan(20.0 * degree);
        tanHalfX = tanHalfY * aspect;
    }
    auto samples = [&](double tanHalf, int pixels) {
        const double n = std::floor(2.0 * tanHalf / degree + 0.5);
        return int(std::clamp(n, 2.0, double(std::max(pixels, 2))));
    };
    FovealGrid grid;
    grid.width = std::min(samples(tanHalfX, width), std::max(width, 1));
    grid.height = std::min(samples(tanHalfY, height), std::max(height, 1));
    return grid;
}

std::vector<double> wardFovealLuminance(const float* rgba,
                                        int width,
                                        int height,
                                        FovealGrid grid,
                                        double sceneScale,
                                        const hd::LuminanceWeights& weights)
{
    std::vector<double> out(std::size_t(grid.width) * std::size_t(grid.height));
    for (int gy = 0; gy < grid.height; ++gy) {
        for (int gx = 0; gx < grid.width; ++gx) {
            const int x0 = int(std::int64_t(gx) * width / grid.width);
            const int x1 = int(std::int64_t(gx + 1) * width / grid.width);
            const int y0 = int(std::int64_t(gy) * height / grid.height);
            const int y1 = int(std::int64_t(gy + 1) * height / grid.height);
            double r = 0.0, g = 0.0, b = 0.0;
            int count = 0;
            for (int y = y0; y < y1; ++y) {
                for (int x = x0; x < x1; ++x) {
                    const float* p = rgba + (std::size_t(y) * width + x) * 4;
                    if (!std::isfinite(p[0]) || !std::isfinite(p[1]) || !std::isfinite(p[2]))
                        continue;
                    r += p[0];
                    g += p[1];
                    b += p[2];
                    ++count;
                }
            }
            double value = std::numeric_limits<double>::quiet_NaN();
            if (count > 0)
                value = sceneScale * (weights.r * r + weights.g * g + weights.b * b) / count;
            out[std::size_t(gy) * grid.width + gx] = value;
        }
    }
    return out;
}

WardHistogram wardHistogram(std::span<const double> samples, const post::WardSettings& raw)
{
    const post::WardSettings settings = post::sanitize(raw);
    const std::uint32_t n = settings.bins;
    WardHistogram h;
    double lwmin = std::numeric_limits<double>::infinity();
    double lwmax = -std::numeric_limits<double>::infinity();
    for (double L : samples) {
        if (!std::isfinite(L))
            continue;
        L = std::max(L, 0.0);
        lwmin = std::min(lwmin, L);
        lwmax = std::max(lwmax, L);
    }
    h.bins.assign(n, 0.0);
    lwmax = std::min(lwmax * 1.01, post::kWardLmax);
    if (!(lwmax > post::kWardLmin))
        return h;  // nothing above LMIN: every pixel maps to black
    h.bwmax = std::log(lwmax);
    if (lwmin < post::kWardLmin) {
        lwmin = post::kWardLmin;
        h.bwmin = std::log(post::kWardLmin);
    } else if (settings.duplicateBottomBin) {
        h.bwmin = h.bwmax - (h.bwmax - std::log(lwmin)) * n / (n - 1.0);
        lwmin = std::exp(h.bwmin);
        h.duplicateBottom = true;
    } else {
        h.bwmin = std::log(lwmin);
    }
    double sumLog = 0.0;
    double count = 0.0;
    for (double L : samples) {
        if (!std::isfinite(L) || L < lwmin || L >= lwmax)
            continue;
        const double b = std::log(L);
        int bin = int(n * (b - h.bwmin) / (h.bwmax - h.bwmin));
        bin = std::clamp(bin, 0, int(n) - 1);
        h.bins[std::size_t(bin)] += 1.0;
        sumLog += b;
        count += 1.0;
    }
    if (count > 0.0) {
        h.valid = true;
        h.bwavg = sumLog / count;
    }
    return h;
}

const char* toString(WardOutcome outcome)
{
    switch (outcome) {
        case WardOutcome::Histogram:
            return "histogram";
        case WardOutcome::RangeFits:
            return "range fits";
        case WardOutcome::Failed:
            return "failed";
        case WardOutcome::NoSamples:
            return "no samples";
    }
    return "?";
}

namespace {

double linearScaleOf(const WardHistogram& h, const post::WardSettings& s)
{
    const double geometricDisplay = std::sqrt(double(s.displayMin) * s.displayMax);
    const double average = std::exp(h.bwavg);
    const double scalef = s.humanContrast ? htcontrs(geometricDisplay) / htcontrs(average) : geometricDisplay / average;
    return scalef / s.displayMax;
}

}  // namespace

WardResult wardCurve(const WardHistogram& histogram, const post::WardSettings& raw)
{
    const post::WardSettings s = post::sanitize(raw);
    const std::size_t n = histogram.bins.size();
    WardResult r;
    r.bwmin = histogram.bwmin;
    r.bwmax = histogram.bwmax;
    std::vector<double> modhist = histogram.bins;
    if (histogram.duplicateBottom && n >= 2) {  // pcond: "add false samples at bottom"
        modhist[1] *= 0.5;
        modhist[0] += modhist[1];
    }
    double histot = 0.0;
    for (double v : modhist)
        histot += v;
    r.originalTotal = histot;
    r.trimmed = modhist;
    r.ceiling.assign(n, 0.0);
    r.cumf.assign(n + 1, 0.0);
    if (!histogram.valid || !(histot > 0.0) || n < 2) {
        r.outcome = WardOutcome::NoSamples;
        r.linearScale = 0.0;
        return r;
    }
    const double lnLdmin = std::log(double(s.displayMin));
    const double lnLdmax = std::log(double(s.displayMax));
    const double displayRange = lnLdmax - lnLdmin;
    const double worldRange = histogram.bwmax - histogram.bwmin;
    const double db = worldRange / double(n);
    r.ceilingFraction = db / displayRange;
    if (worldRange <= displayRange) {
        r.outcome = WardOutcome::RangeFits;
        r.linearScale = linearScaleOf(histogram, s);
        return r;
    }
    for (;;) {
        double mhistot = 0.0;
        for (double v : modhist)
            mhistot += v;
        double running = 0.0;
        for (std::size_t i = 0; i < n; ++i) {
            r.cumf[i] = running / mhistot;
            running += modhist[i];
        }
        r.cumf[n] = 1.0;
        r.finalTotal = mhistot;
        if (mhistot <= post::kWardCvRatio * histot) {
            r.outcome = WardOutcome::Failed;
            r.linearScale = linearScaleOf(histogram, s);
            r.trimmed = modhist;
            return r;
        }
        double trimmings = 0.0;
        for (std::size_t i = 0; i < n; ++i) {
            const double b = histogram.bwmin + (double(i) + 0.5) * db;
            double clampf = 1.0 / displayRange;
            if (s.humanContrast) {
                const double Lw = std::exp(b);
                const double P = 0.5 * (r.cumf[i] + r.cumf[i + 1]);
                const double Ld = std::exp(lnLdmin + P * displayRange);
                clampf = wardCeilingFactor(Lw, Ld) / displayRange;
            }
            const double ceiling = mhistot * db * clampf;
            r.ceiling[i] = ceiling;
            if (modhist[i] > ceiling) {
                trimmings += modhist[i] - ceiling;
                modhist[i] = ceiling;
            }
        }
        ++r.passes;
        if (trimmings <= post::kWardCvRatio * mhistot)
            break;
    }
    r.outcome = WardOutcome::Histogram;
    r.trimmed = modhist;
    return r;
}

double wardDisplay(const WardResult& r, const post::WardSettings& raw, double LwCd)
{
    const post::WardSettings s = post::sanitize(raw);
    if (r.outcome != WardOutcome::Histogram)
        return r.linearScale * LwCd;
    const double lnLdmin = std::log(double(s.displayMin));
    const double lnLdmax = std::log(double(s.displayMax));
    double Bd = lnLdmin;
    const double b = std::log(LwCd);
    if (LwCd <= post::kWardLmin || b <= r.bwmin + post::kWardFtiny) {
        Bd = lnLdmin;
    } else if (b >= r.bwmax - post::kWardFtiny) {
        Bd = lnLdmax;
    } else {
        const std::size_t n = r.cumf.size() - 1;
        const double x = double(n) * (b - r.bwmin) / (r.bwmax - r.bwmin);
        const std::size_t i = std::min(std::size_t(x), n - 1);
        const double f = x - double(i);
        Bd = lnLdmin + (r.cumf[i] * (1.0 - f) + r.cumf[i + 1] * f) * (lnLdmax - lnLdmin);
    }
    return (std::exp(Bd) - s.displayMin) / (double(s.displayMax) - s.displayMin);
}

}  // namespace ref
