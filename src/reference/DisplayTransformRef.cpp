#include "reference/DisplayTransformRef.h"

#include <algorithm>
#include <cmath>

namespace ref {

namespace {

using Matrix = std::array<Rgb, 3>;  // rows: out[i] = dot(row i, in)

Rgb multiply(const Matrix& m, const Rgb& v)
{
    Rgb out{};
    for (int i = 0; i < 3; ++i)
        out[i] = m[i][0] * v[0] + m[i][1] * v[1] + m[i][2] * v[2];
    return out;
}

double rec709Luma(const Rgb& v)
{
    return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2];
}

// AgX's base contrast sigmoid over the normalised log2 value t in [0, 1], as its sixth-order
// polynomial fit (coefficients of t^6 .. t^0).
double agxSigmoid(double t)
{
    const double coefficients[] = {15.5, -40.14, 31.96, -6.868, 0.4298, 0.1191, -0.00232};
    double value = 0.0;
    for (double c : coefficients)
        value = value * t + c;
    return value;
}

}  // namespace

Rgb agx(const Rgb& exposed, bool punchy)
{
    // The inset matrix (rows) and its inverse, the outset; Rec. 709 primaries in and out.
    const Matrix inset = {{{0.842479062253094, 0.0784335999999992, 0.0792237451477643},
                           {0.0423282422610123, 0.878468636469772, 0.0791661274605434},
                           {0.0423756549057051, 0.0784336, 0.879142973793104}}};
    const Matrix outset = {{{1.19687900512017, -0.0980208811401368, -0.0990297440797205},
                            {-0.0528968517574562, 1.15190312990417, -0.0989611768448433},
                            {-0.0529716355144438, -0.0980434501171241, 1.15107367264116}}};
    const double minEv = -12.47393;
    const double maxEv = 4.026069;
    Rgb v = multiply(inset, {std::max(exposed[0], 0.0), std::max(exposed[1], 0.0), std::max(exposed[2], 0.0)});
    for (double& c : v) {
        const double ev = std::clamp(std::log2(std::max(c, 1e-10)), minEv, maxEv);
        c = agxSigmoid((ev - minEv) / (maxEv - minEv));
    }
    if (punchy) {  // ASC CDL: slope 1, offset 0, power 1.35, saturation 1.4 about Rec. 709 luma
        for (double& c : v)
            c = std::pow(std::max(c, 0.0), 1.35);
        const double luma = rec709Luma(v);
        for (double& c : v)
            c = luma + 1.4 * (c - luma);
    }
    v = multiply(outset, v);
    for (double& c : v)
        c = std::pow(std::max(c, 0.0), 2.2);  // the sigmoid's output is display-encoded (gamma 2.2)
    return v;
}

Rgb pbrNeutral(const Rgb& exposed)
{
    const double startCompression = 0.8 - 0.04;
    const double desaturation = 0.15;
    Rgb c = {std::max(exposed[0], 0.0), std::max(exposed[1], 0.0), std::max(exposed[2], 0.0)};
    const double lowest = std::min({c[0], c[1], c[2]});
    const double offset = lowest < 0.08 ? lowest - 6.25 * lowest * lowest : 0.04;
    for (double& v : c)
        v -= offset;
    const double peak = std::max({c[0], c[1], c[2]});
    if (peak < startCompression)
        return c;
    const double d = 1.0 - startCompression;
    const double newPeak = 1.0 - d * d / (peak + d - startCompression);
    const double g = 1.0 - 1.0 / (desaturation * (peak - newPeak) + 1.0);
    for (double& v : c)
        v = v * (newPeak / peak) * (1.0 - g) + newPeak * g;
    return c;
}

Rgb displayTransform(const Rgb& exposed, post::DisplayCurve curve)
{
    switch (curve) {
        case post::DisplayCurve::AgX:
            return agx(exposed, false);
        case post::DisplayCurve::AgXPunchy:
            return agx(exposed, true);
        case post::DisplayCurve::PbrNeutral:
            return pbrNeutral(exposed);
        default:
            return exposed;
    }
}

double displayTransformGrey(double x, post::DisplayCurve curve)
{
    x = std::min(x, 3.0e38);  // +Inf: the response far up the shoulder (as the shader)
    return std::clamp(rec709Luma(displayTransform({x, x, x}, curve)), 0.0, 1.0);
}

}  // namespace ref
