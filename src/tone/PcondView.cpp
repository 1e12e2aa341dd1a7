#include "tone/PcondView.h"

#include <algorithm>
#include <cmath>

namespace ref {

namespace {

constexpr double kPi = 3.14159265358979323846;         // Radiance PI (M_PI)
constexpr double kFtiny = 1e-6;                        // Radiance FTINY (double build)
constexpr double kFovealDiameter = 1.0 * kPi / 180.0;  // pcond FOVDIA
constexpr double kLmin = 1e-7;                         // pcond LMIN
constexpr double kLmax = 1e7;                          // pcond LMAX

/// setview's hn2 (or vn2) before squaring, for one axis of `degrees`; false where setview fails.
bool viewExtent(char type, double degrees, bool horizontal, double& extent)
{
    switch (type) {
        case 'v':
            if (degrees >= 180.0 - kFtiny)
                return false;
            extent = 2.0 * std::tan(degrees * (kPi / 180.0 / 2.0));
            return true;
        case 'c':
            if (horizontal) {
                if (degrees > 360.0 + kFtiny)
                    return false;
                extent = degrees * (kPi / 180.0);
            } else {
                if (degrees >= 180.0 - kFtiny)
                    return false;
                extent = 2.0 * std::tan(degrees * (kPi / 180.0 / 2.0));
            }
            return true;
        case 'a':
            if (degrees > 360.0 + kFtiny)
                return false;
            extent = degrees * (kPi / 180.0);
            return true;
        case 'h':
            if (degrees > 180.0 + kFtiny)
                return false;
            extent = 2.0 * std::sin(degrees * (kPi / 180.0 / 2.0));
            return true;
        case 's':
            if (degrees >= 360.0 - kFtiny)
                return false;
            extent = 2. * std::sin(degrees * (kPi / 180.0 / 2.0)) / (1.0 + std::cos(degrees * (kPi / 180.0 / 2.0)));
            return true;
        default:
            return false;
    }
}

PcondView defaultView(int width, int height, double pixelAspect)
{
    PcondView view;
    view.given = true;
    view.type = 'v';
    if (pixelAspect * height < width) {
        view.horizontal = 40.0;
        view.vertical = 2. * 180. / kPi * std::atan(.3639702 * pixelAspect * height / width);
    } else {
        view.vertical = 40.0;
        view.horizontal = 2. * 180. / kPi * std::atan(.3639702 * width / pixelAspect / height);
    }
    return view;
}

bool viewUsable(const PcondView& view)
{
    if (!view.given || view.type == 'l' || !(view.horizontal > 5.) || !(view.vertical > 5.))
        return false;
    double extent = 0.0;
    return viewExtent(view.type, view.horizontal, true, extent) && viewExtent(view.type, view.vertical, false, extent);
}

int gridCount(double extent)
{
    const double hn2 = extent * extent;  // setview squares it, pcond takes the root
    const int n = int(std::sqrt(hn2) / kFovealDiameter + 0.5);
    return n < 2 ? 2 : n;
}

}  // namespace

PcondView pcondEffectiveView(int width, int height, const PcondView& view, double pixelAspect)
{
    if (viewUsable(view))
        return view;
    return defaultView(std::max(width, 1), std::max(height, 1), pixelAspect > 0.0 ? pixelAspect : 1.0);
}

PcondGrid pcondFovealGrid(int width, int height, const PcondView& view, double pixelAspect)
{
    const PcondView v = pcondEffectiveView(width, height, view, pixelAspect);
    double horizontal = 0.0;
    double vertical = 0.0;
    viewExtent(v.type, v.horizontal, true, horizontal);
    viewExtent(v.type, v.vertical, false, vertical);
    return {gridCount(horizontal), gridCount(vertical)};
}

PcondHistogram pcondHistogramFromBins(const std::vector<std::pair<double, double>>& bins, const post::WardSettings& raw)
{
    const post::WardSettings settings = post::sanitize(raw);
    const int histres = int(settings.bins);
    const int n = int(bins.size());
    PcondHistogram h;
    h.bins.assign(std::size_t(histres), 0.0);
    if (n < 2)
        return h;
    const double histart = bins[0].first;
    const double histep = bins[1].first - bins[0].first;
    int i = 0;
    for (i = 0; i < n && bins[std::size_t(i)].second <= kFtiny; i++) {
    }
    double bwmin = histart + (i - .001) * histep;
    for (i = n; i-- && bins[std::size_t(i)].second <= kFtiny;) {
    }
    double bwmax = histart + (i + 1.001) * histep;
    if (bwmax > std::log(kLmax))
        bwmax = std::log(kLmax);
    if (bwmin < std::log(kLmin))
        bwmin = std::log(kLmin);
    else  // duplicate bottom bin
        bwmin = bwmax - (bwmax - bwmin) * histres / (histres - 1);
    if (!(bwmax > bwmin))
        return h;
    double bwavg = 0.;
    double histot = 0.;
    double b = histart;
    for (i = 0; i < n; i++, b += histep) {
        if (b < bwmin + kFtiny)
            continue;
        if (b >= bwmax - kFtiny)
            break;
        const double w = bins[std::size_t(i)].second;
        bwavg += w * b;
        const int bin = int(histres * (b - bwmin) / (bwmax - bwmin));
        h.bins[std::size_t(std::clamp(bin, 0, histres - 1))] += w;
        histot += w;
    }
    h.bwmin = bwmin;
    h.bwmax = bwmax;
    h.lwmin = std::exp(bwmin);
    h.lwmax = std::exp(bwmax);
    h.histot = histot;
    h.valid = histot > 0.0;
    h.bwavg = h.valid ? bwavg / histot : 0.0;
    if (bwmin > std::log(kLmin) + kFtiny && histres >= 2) {  // add false samples at bottom
        h.bins[1] *= 0.5;
        h.bins[0] += h.bins[1];
        h.duplicated = true;
    }
    return h;
}

}  // namespace ref
