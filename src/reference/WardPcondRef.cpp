#include "reference/WardPcondRef.h"

#include "util/Drand48.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

// Every expression below is written in pcond's (and pfilt's) order with pcond's types: float where a
// Radiance COLOR is float, double elsewhere. The file is compiled with -ffp-contract=off
// (reference/sources.cmake) so no multiply-add is fused.

namespace ref {

namespace {

constexpr double kFtiny = 1e-6;     // Radiance FTINY (double build)
constexpr double kLmin = 1e-7;      // pcond LMIN
constexpr double kLmax = 1e7;       // pcond LMAX
constexpr double kCvRatio = 0.025;  // pcond CVRATIO
constexpr double kLn10 = 2.30258509299404568402;
constexpr double kWhiteEfficacy = 179.0;  // Radiance WHTEFFICACY

/// A channel as a Radiance picture holds it: negative, non-finite and denormal values are 0 (RGBE
/// has no sign and no NaN; GPUs flush denormals, so the GPU path does the same).
float radianceChannel(float c)
{
    return (std::isfinite(c) && c >= 1.17549435e-38f) ? c : 0.0f;
}

/// pcond htcontrs with its exp10 macro.
double htcontrs(double La)
{
    if (La < 1.148e-4)
        return 1.38e-3;
    const double l10La = std::log10(La);
    double l10dL = 0.0;
    if (l10La < -1.44)
        l10dL = std::pow(.405 * l10La + 1.6, 2.18) - 2.86;
    else if (l10La < -.0184)
        l10dL = l10La - .395;
    else if (l10La < 1.9)
        l10dL = std::pow(.249 * l10La + .65, 2.7) - .72;
    else
        l10dL = l10La - 1.255;
    return std::exp(kLn10 * l10dL);
}

/// The mapping state mkbrmap works on (pcond's globals).
struct Brightness
{
    int bins = 100;
    double bwmin = 0.0;
    double bwmax = 0.0;
    double Bldmin = 0.0;
    double Bldmax = 0.0;
    bool humanContrast = false;
    const std::vector<double>* cumf = nullptr;

    double cf(double b) const
    {
        double x = bins * (b - bwmin) / (bwmax - bwmin);
        const int i = int(x);
        x -= double(i);
        return (*cumf)[std::size_t(i)] * (1. - x) + (*cumf)[std::size_t(i) + 1] * x;
    }

    double BLw(double Lw) const
    {
        double b = 0.0;
        if (Lw <= kLmin || (b = std::log(Lw)) <= bwmin + kFtiny)
            return Bldmin;
        if (b >= bwmax - kFtiny)
            return Bldmax;
        return Bldmin + cf(b) * (Bldmax - Bldmin);
    }

    double clampf(double Lw) const
    {
        const double bLw = BLw(Lw);
        const double ratio = humanContrast ? htcontrs(std::exp(bLw)) / htcontrs(Lw) : std::exp(bLw) / Lw;
        return ratio / (std::exp(bLw) * (Bldmax - Bldmin) * (1.0 / Lw));
    }
};

}  // namespace

std::array<float, 3> radianceRgbeRoundTrip(float red, float green, float blue)
{
    // setcolr(clr, r, g, b) takes doubles.
    const double r = red, g = green, b = blue;
    double d = r > g ? r : g;
    if (b > d)
        d = b;
    if (d <= 1e-32)
        return {0.0f, 0.0f, 0.0f};
    int e = 0;
    d = std::frexp(d, &e) * 256.0 / d;
    const unsigned mantissa[3] = {r > 0.0 ? unsigned(r * d) : 0u, g > 0.0 ? unsigned(g * d) : 0u,
                                  b > 0.0 ? unsigned(b * d) : 0u};
    const int exponentByte = (e + 128) & 0xff;  // COLXS; an unsigned char in Radiance
    if (exponentByte == 0)
        return {0.0f, 0.0f, 0.0f};
    // colr_color: f = ldexp(1.0, exp - (COLXS + 8)); col = (m + 0.5) * f.
    const double f = std::ldexp(1.0, exponentByte - (128 + 8));
    return {float((mantissa[0] + 0.5) * f), float((mantissa[1] + 0.5) * f), float((mantissa[2] + 0.5) * f)};
}

double pcondLuminance(const PcondPicture& picture, float r, float g, float b)
{
    // rgblum: WHTEFFICACY * (r*w0 + g*w1 + b*w2) with the sum in float; plum divides by inpexp.
    const float red = picture.weights[0] * radianceChannel(r);
    const float green = picture.weights[1] * radianceChannel(g);
    const float blue = picture.weights[2] * radianceChannel(b);
    const float sum = (red + green) + blue;
    return picture.efficacy * double(sum) / picture.exposure;
}

std::vector<float> pcondFovealImage(const PcondPicture& picture, PcondGrid grid)
{
    const int xres = picture.width;
    const int yres = picture.height;
    const int ncols = grid.width;
    const int nrows = grid.height;
    if (xres <= 0 || yres <= 0 || ncols <= 0 || nrows <= 0 || picture.rgba == nullptr)
        throw std::invalid_argument("pcondFovealImage: empty picture or grid");
    const double x_c = double(ncols) / xres;
    const double y_r = double(nrows) / yres;
    const int xbrad = xres / ncols / 2 + 1;
    const int ybrad = yres / nrows / 2 + 1;
    std::vector<float> out(std::size_t(ncols) * std::size_t(nrows) * 3);
    for (int r = 0; r < nrows; ++r) {
        const int ycent = int((r + .5) * yres / nrows);
        for (int c = 0; c < ncols; ++c) {
            const int xcent = int((c + .5) * xres / ncols);
            float csum[3] = {0.0f, 0.0f, 0.0f};
            int wsum = 0;
            for (int y = ycent + 1 - ybrad; y <= ycent + ybrad; y++) {
                if (y < 0)
                    continue;
                if (y >= yres)
                    break;
                double d = y_r < 1.0 ? y_r * y - (r + .5) : double(y - ycent);
                if (d < -0.5)
                    continue;
                if (d >= 0.5)
                    break;
                const float* row = picture.rgba + std::size_t(y) * std::size_t(xres) * 4;
                for (int x = xcent + 1 - xbrad; x <= xcent + xbrad; x++) {
                    if (x < 0 || x >= xres)
                        continue;  // pfilt wraps only 360-degree cylindrical views
                    d = x_c < 1.0 ? x_c * x - (c + .5) : double(x - xcent);
                    if (d < -0.5)
                        continue;
                    if (d >= 0.5)
                        break;
                    wsum++;
                    for (int k = 0; k < 3; ++k)
                        csum[k] += radianceChannel(row[std::size_t(x) * 4 + std::size_t(k)]);
                }
            }
            if (wsum > 1) {
                const double d = 1.0 / wsum;
                for (float& v : csum)
                    v = float(double(v) * d);
            }
            const std::array<float, 3> stored = radianceRgbeRoundTrip(csum[0], csum[1], csum[2]);
            const std::size_t o = (std::size_t(r) * std::size_t(ncols) + std::size_t(c)) * 3;
            out[o] = stored[0];
            out[o + 1] = stored[1];
            out[o + 2] = stored[2];
        }
    }
    return out;
}

int pcondPointSampleCount(int width, int height, PcondGrid grid)
{
    const long long wanted = 16LL * grid.width * grid.height;
    const long long pixels = (long long)std::max(width, 0) * std::max(height, 0);
    return int(std::min(wanted, pixels));
}

std::vector<std::pair<int, int>> pcondSamplePixels(int width, int height, int count)
{
    std::vector<std::pair<int, int>> picked;
    if (width <= 0 || height <= 0 || count <= 0)
        return picked;
    picked.reserve(std::size_t(count));
    util::Drand48 random;
    long npleft = long(width) * height;
    int x = 0;  // pixels left in the current scanline
    int scanline = -1;
    int n = count;
    while (n > 0) {
        if (x <= 0) {  // freadcolrs: the next scanline
            if (++scanline >= height)
                break;  // cannot happen while n <= npleft; pcond would report a read error
            x = width;
        }
        const double rval = random.next();  // random distance to the next sample
        int sv = 0;
        double cumprob = 0;
        while ((cumprob += (1. - cumprob) * n / double(npleft - sv)) < rval)
            sv++;
        if (x < ++sv) {  // out of pixels in this scanline: the draw is spent
            npleft -= x;
            x = 0;
            continue;
        }
        x -= sv;
        picked.emplace_back(x, scanline);
        --n;
        npleft -= sv;
    }
    return picked;
}

PcondHistogram pcondHistogramOf(const PcondPicture& picture,
                                const std::vector<float>& foveal,
                                PcondGrid grid,
                                const std::vector<float>& pointLuminances,
                                const post::WardSettings& raw)
{
    const post::WardSettings settings = post::sanitize(raw);
    const int histres = int(settings.bins);
    const std::size_t fovealCount = std::size_t(grid.width) * std::size_t(grid.height);
    if (foveal.size() != fovealCount * 3)
        throw std::invalid_argument("pcondHistogramOf: foveal image of the wrong size");
    const auto fovealLuminance = [&](std::size_t i) {
        return pcondLuminance(picture, foveal[i * 3], foveal[i * 3 + 1], foveal[i * 3 + 2]);
    };
    PcondHistogram h;
    h.bins.assign(std::size_t(histres), 0.0);
    double lwmin = 1e10;  // find extrema
    double lwmax = 0.;
    for (std::size_t i = 0; i < fovealCount; ++i) {
        const double l = fovealLuminance(i);
        if (l < lwmin)
            lwmin = l;
        if (l > lwmax)
            lwmax = l;
    }
    const int nlumsamp = int(pointLuminances.size());
    for (float sample : pointLuminances) {
        const double l = sample;
        if (l < lwmin)
            lwmin = l;
        if (l > lwmax)
            lwmax = l;
    }
    lwmax *= 1.01;
    if (lwmax > kLmax)
        lwmax = kLmax;
    const double bwmax = std::log(lwmax);
    double bwmin = 0.0;
    if (lwmin < kLmin) {
        lwmin = kLmin;
        bwmin = std::log(kLmin);
    } else {  // duplicate bottom bin
        bwmin = bwmax - (bwmax - std::log(lwmin)) * histres / (histres - 1);
        lwmin = std::exp(bwmin);
    }
    h.bwmin = bwmin;
    h.bwmax = bwmax;
    h.lwmin = lwmin;
    h.lwmax = lwmax;
    const auto bwhi = [&](double b) {
        const int i = int(histres * (b - bwmin) / (bwmax - bwmin));
        return std::size_t(std::clamp(i, 0, histres - 1));  // pcond's own skips keep it in range
    };
    double bwavg = 0.;
    double histot = 0.;
    for (std::size_t i = 0; i < fovealCount; ++i) {  // scanline order, as comphist loops y then x
        const double l = fovealLuminance(i);
        if (l < lwmin + kFtiny)
            continue;
        if (l >= lwmax - kFtiny)
            continue;
        const double b = std::log(l);
        const double w = 1.;
        bwavg += w * b;
        h.bins[bwhi(b)] += w;
        histot += w;
        ++h.fovealSamples;
    }
    const double w = 1. * histot / nlumsamp;  // the point samples weigh as much as the foveal ones
    for (float sample : pointLuminances) {    // in the order drawn (pcond walks its array backwards)
        const double l = sample;
        if (l < lwmin + kFtiny)
            continue;
        if (l >= lwmax - kFtiny)
            continue;
        const double b = std::log(l);
        bwavg += w * b;
        h.bins[bwhi(b)] += w;
        histot += w;
        ++h.pointSamples;
    }
    h.histot = histot;
    h.valid = histot > 0.0 && std::isfinite(bwmax) && bwmax > bwmin;
    h.bwavg = h.valid ? bwavg / histot : 0.0;
    if (lwmin > kLmin + kFtiny && histres >= 2) {  // add false samples at bottom
        h.bins[1] *= 0.5;
        h.bins[0] += h.bins[1];
        h.duplicated = true;
    }
    return h;
}

PcondHistogram pcondHistogram(const PcondPicture& picture, const post::WardSettings& settings)
{
    const PcondGrid grid = pcondFovealGrid(picture.width, picture.height, picture.view, picture.pixelAspect);
    const std::vector<float> foveal = pcondFovealImage(picture, grid);
    const int count = pcondPointSampleCount(picture.width, picture.height, grid);
    std::vector<float> points;
    points.reserve(std::size_t(count));
    for (const auto& [x, y] : pcondSamplePixels(picture.width, picture.height, count)) {
        const float* p = picture.rgba + (std::size_t(y) * std::size_t(picture.width) + std::size_t(x)) * 4;
        points.push_back(float(pcondLuminance(picture, p[0], p[1], p[2])));  // ls[] is float
    }
    return pcondHistogramOf(picture, foveal, grid, points, settings);
}

PcondMapping pcondMapping(const PcondHistogram& histogram, const post::WardSettings& raw)
{
    const post::WardSettings settings = post::sanitize(raw);
    const int histres = int(histogram.bins.size());
    PcondMapping m;
    m.bwmin = histogram.bwmin;
    m.bwmax = histogram.bwmax;
    m.Bldmin = std::log(double(settings.displayMin));
    m.Bldmax = std::log(double(settings.displayMax));
    m.histot = histogram.histot;
    m.humanContrast = settings.humanContrast;
    m.modhist = histogram.bins;
    m.ceiling.assign(std::size_t(histres), 0.0);
    m.cumf.assign(std::size_t(histres) + 1, 0.0);
    if (!histogram.valid || histres < 2) {
        m.outcome = PcondOutcome::NoSamples;
        return m;
    }
    Brightness brightness{histres, m.bwmin, m.bwmax, m.Bldmin, m.Bldmax, m.humanContrast, &m.cumf};
    const auto mkcumf = [&] {
        m.mhistot = 0.;
        for (int i = 0; i < histres; i++)
            m.mhistot += m.modhist[std::size_t(i)];
        double sum = 0.;
        for (int i = 0; i < histres; i++) {
            m.cumf[std::size_t(i)] = sum / m.mhistot;
            sum += m.modhist[std::size_t(i)];
        }
        m.cumf[std::size_t(histres)] = 1.;
    };
    bool linear = false;
    if (m.bwmax - m.bwmin <= m.Bldmax - m.Bldmin) {  // check2do: within the display range
        m.outcome = PcondOutcome::RangeFits;
        mkcumf();
        linear = true;
    } else {
        const double s = (m.bwmax - m.bwmin) / histres;  // delta b
        double trimmings = 0.0;
        do {
            mkcumf();  // sync brightness mapping
            if (m.mhistot <= m.histot * kCvRatio) {
                m.outcome = PcondOutcome::Failed;
                linear = true;
                break;
            }
            const double Tdb = m.mhistot * s;
            trimmings = 0.;  // clip to envelope
            double b = m.bwmin + .5 * s;
            for (int i = 0; i < histres; i++, b += s) {
                const double ceiling = Tdb * brightness.clampf(std::exp(b));
                m.ceiling[std::size_t(i)] = ceiling;
                if (m.modhist[std::size_t(i)] > ceiling) {
                    trimmings += m.modhist[std::size_t(i)] - ceiling;
                    m.modhist[std::size_t(i)] = ceiling;
                }
            }
            ++m.passes;
        } while (trimmings > m.mhistot * kCvRatio && m.passes < int(post::kWardMaxPasses));
        if (!linear)
            m.outcome = PcondOutcome::Histogram;
    }
    if (linear) {
        const double middle = std::exp(0.5 * (m.Bldmax + m.Bldmin));
        m.scalef = m.humanContrast ? htcontrs(middle) / htcontrs(std::exp(histogram.bwavg))
                                   : middle / std::exp(histogram.bwavg);
    }
    return m;
}

double pcondDisplayLuminance(const PcondMapping& m, const post::WardSettings& raw, double Lw)
{
    const post::WardSettings settings = post::sanitize(raw);
    const double ldmin = settings.displayMin;
    const double ldmax = settings.displayMax;
    switch (m.outcome) {
        case PcondOutcome::Histogram: {
            Brightness brightness{int(m.modhist.size()), m.bwmin, m.bwmax, m.Bldmin, m.Bldmax,
                                  m.humanContrast,       &m.cumf};
            return std::exp(brightness.BLw(Lw));
        }
        case PcondOutcome::RangeFits:
        case PcondOutcome::Failed:
            return std::clamp(m.scalef * Lw, ldmin, ldmax);
        case PcondOutcome::NoSamples:
            break;
    }
    return ldmin;
}

std::vector<std::pair<double, double>> pcondPrintedMapping(const PcondMapping& m, const post::WardSettings& raw)
{
    const post::WardSettings settings = post::sanitize(raw);
    std::vector<std::pair<double, double>> out;
    if (m.outcome == PcondOutcome::NoSamples)
        return out;
    const int histres = int(m.modhist.size());
    const double ldmax = settings.displayMax;
    const double ldmin = settings.displayMin;
    const double sf = m.scalef * (kWhiteEfficacy / ldmax);  // pcond: scalef * inpexp after mapimage's factor
    const bool linear = m.outcome != PcondOutcome::Histogram;
    Brightness brightness{histres, m.bwmin, m.bwmax, m.Bldmin, m.Bldmax, m.humanContrast, &m.cumf};
    const double s = (m.bwmax - m.bwmin) / histres;
    double b = m.bwmin + .5 * s;
    for (int i = 0; i < histres; i++, b += s) {
        const double wlum = std::exp(b);
        if (linear) {
            double dlum = sf * wlum;
            if (dlum > ldmax)
                dlum = ldmax;
            else if (dlum < ldmin)
                dlum = ldmin;
            out.emplace_back(wlum, dlum);
        } else {
            out.emplace_back(wlum, std::exp(brightness.BLw(wlum)));
        }
    }
    return out;
}

}  // namespace ref
