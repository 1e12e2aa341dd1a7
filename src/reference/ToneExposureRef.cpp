#include "reference/ToneExposureRef.h"

#include "reference/DisplayTransformRef.h"

#include <algorithm>
#include <cmath>

namespace ref {

double hableRaw(double x)
{
    const double a = 0.15, b = 0.50, c = 0.10, d = 0.20, e = 0.02, f = 0.30;
    return (x * (a * x + c * b) + d * e) / (x * (a * x + b) + d * f) - e / f;
}

double displayCurve(double x, const post::DisplayCurveSettings& settings)
{
    if (!(x > 0.0))
        return 0.0;
    switch (settings.curve) {
        case post::DisplayCurve::Clamp:
            return std::min(x, 1.0);
        case post::DisplayCurve::Reinhard: {
            const double white = settings.reinhardWhite;
            if (!(white > 0.0))
                return std::isinf(x) ? 1.0 : x / (1.0 + x);
            if (x >= white)
                return 1.0;
            return x * (1.0 + x / (white * white)) / (1.0 + x);
        }
        case post::DisplayCurve::Hable: {
            const double white = 11.2;
            if (x >= white)
                return 1.0;
            return std::clamp(hableRaw(x) / hableRaw(white), 0.0, 1.0);
        }
        case post::DisplayCurve::AcesFit: {
            if (std::isinf(x))
                return 1.0;
            const double y = x * (2.51 * x + 0.03) / (x * (2.43 * x + 0.59) + 0.14);
            return std::clamp(y, 0.0, 1.0);
        }
        case post::DisplayCurve::AgX:
        case post::DisplayCurve::AgXPunchy:
        case post::DisplayCurve::PbrNeutral:
            return displayTransformGrey(x, settings.curve);
    }
    return 0.0;
}

double exposureDisplay(double log2Lw, double exposureEv, const post::DisplayCurveSettings& settings)
{
    return displayCurve(std::exp2(log2Lw + exposureEv), settings);
}

ExposureCurve exposureCurve(const post::ExposureSettings& raw)
{
    const post::ExposureSettings settings = post::sanitize(raw);
    ExposureCurve curve;
    curve.logMin = double(post::kExposureCurveLowEv) - settings.exposureEv;
    curve.logMax = double(post::kExposureCurveHighEv) - settings.exposureEv;
    curve.linearScale = settings.display.curve == post::DisplayCurve::Clamp;
    curve.scale = std::exp2(double(settings.exposureEv));
    const std::uint32_t n = post::kExposureCurveSamples;
    curve.values.resize(n);
    for (std::uint32_t i = 0; i < n; ++i) {
        const double x = curve.logMin + (i + 0.5) * (curve.logMax - curve.logMin) / n;
        curve.values[i] = float(exposureDisplay(x, settings.exposureEv, settings.display));
    }
    return curve;
}

}  // namespace ref
