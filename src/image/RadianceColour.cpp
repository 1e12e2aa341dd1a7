// RadianceColour.cpp: Radiance's RGB <-> XYZ arithmetic (see RadianceColour.h). Types follow the C
// code: COLORMAT and COLOR are float, the chromaticities of a PRIMARIES line are float, and an
// expression of floats alone stays in float (FLT_EVAL_METHOD 0) while one with a double literal or
// variable is evaluated in double; every such choice below is the C code's, so the results match
// Radiance's bit for bit.
#include "image/RadianceColour.h"

namespace image {
namespace {

using Matrix = std::array<std::array<float, 3>, 3>;

/// CEPS and CEQ of spec_rgb.c: equal within 1e-4, compared in double.
constexpr double kColourEpsilon = 1e-4;
bool nearlyEqual(double a, double b)
{
    return a <= b + kColourEpsilon && b <= a + kColourEpsilon;
}

// color.h's default primaries and the quantities its macros derive from them, in double (the C
// compiler folds the macros in double before rgb2xyzmat and xyz2rgbmat are stored as floats).
constexpr double kXr = 0.640, kYr = 0.330;
constexpr double kXg = 0.290, kYg = 0.600;
constexpr double kXb = 0.150, kYb = 0.060;
constexpr double kXw = 1.0 / 3.0, kYw = 1.0 / 3.0;
constexpr double kD = kXr * (kYg - kYb) + kXg * (kYb - kYr) + kXb * (kYr - kYg);
constexpr double kCrD = (1.0 / kYw) * (kXw * (kYg - kYb) - kYw * (kXg - kXb) + kXg * kYb - kXb * kYg);
constexpr double kCgD = (1.0 / kYw) * (kXw * (kYb - kYr) - kYw * (kXb - kXr) - kXr * kYb + kXb * kYr);
constexpr double kCbD = (1.0 / kYw) * (kXw * (kYr - kYg) - kYw * (kXr - kXg) + kXr * kYg - kXg * kYr);

/// The "Sharp" cone matrix of spec_rgb.c and its (4-digit) inverse, stored as floats.
constexpr Matrix kSharp{{{1.2694f, -0.0988f, -0.1706f}, {-0.8364f, 1.8006f, 0.0357f}, {0.0297f, -0.0315f, 1.0018f}}};
constexpr Matrix kSharpInverse{
    {{0.8156f, 0.0472f, 0.1372f}, {0.3791f, 0.5769f, 0.0440f}, {-0.0123f, 0.0167f, 0.9955f}}};

/// first * second in float, each entry summed left to right (multcolormat(m3, second, first)).
Matrix multiply(const Matrix& first, const Matrix& second)
{
    Matrix product{};
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            product[i][j] = first[i][0] * second[0][j] + first[i][1] * second[1][j] + first[i][2] * second[2][j];
    return product;
}

/// comprgb2xyzmat for primaries that are not the built-in default; nullopt where Radiance fails.
std::optional<Matrix> rgbToXyz(const std::array<float, 8>& p)
{
    const float xr = p[0], yr = p[1], xg = p[2], yg = p[3], xb = p[4], yb = p[5], xw = p[6], yw = p[7];
    if (nearlyEqual(xw, 0.0) || nearlyEqual(yw, 0.0))
        return std::nullopt;
    // The parenthesised sums hold floats only, so C evaluates them in float; 1./yw makes the product double.
    const float sumR = xw * (yg - yb) - yw * (xg - xb) + xg * yb - xb * yg;
    const float sumG = xw * (yb - yr) - yw * (xb - xr) - xr * yb + xb * yr;
    const float sumB = xw * (yr - yg) - yw * (xr - xg) + xr * yg - xg * yr;
    const double crD = (1.0 / double(yw)) * double(sumR);
    const double cgD = (1.0 / double(yw)) * double(sumG);
    const double cbD = (1.0 / double(yw)) * double(sumB);
    const double d = double(xr * (yg - yb) + xg * (yb - yr) + xb * (yr - yg));
    if (nearlyEqual(d, 0.0))
        return std::nullopt;
    Matrix m{};
    m[0] = {float(double(xr) * crD / d), float(double(xg) * cgD / d), float(double(xb) * cbD / d)};
    m[1] = {float(double(yr) * crD / d), float(double(yg) * cgD / d), float(double(yb) * cbD / d)};
    m[2] = {float((1.0 - double(xr) - double(yr)) * crD / d), float((1.0 - double(xg) - double(yg)) * cgD / d),
            float((1.0 - double(xb) - double(yb)) * cbD / d)};
    return m;
}

/// compxyzWBmat(mat, white, equal energy): the von Kries transform through the Sharp primaries.
std::optional<Matrix> whiteBalanceToEqualEnergy(float xw, float yw)
{
    const float neutral = float(1.0 / 3.0);  // xyneu
    auto coneResponse = [](float x, float y) {
        const std::array<float, 3> xyz{x / y, 1.0f, float((1.0 - double(x) - double(y)) / double(y))};
        return radianceColourTransform(kSharp, xyz);
    };
    if (nearlyEqual(xw, 0.0) || nearlyEqual(yw, 0.0))
        return std::nullopt;
    const std::array<float, 3> from = coneResponse(xw, yw);
    const std::array<float, 3> to = coneResponse(neutral, neutral);
    if (nearlyEqual(from[0], 0.0) || nearlyEqual(from[1], 0.0) || nearlyEqual(from[2], 0.0))
        return std::nullopt;
    Matrix scale{};
    for (int i = 0; i < 3; ++i)
        scale[i][i] = to[i] / from[i];
    return multiply(kSharpInverse, multiply(scale, kSharp));
}

}  // namespace

std::array<float, 3> radianceColourTransform(const Matrix& matrix, const std::array<float, 3>& colour)
{
    std::array<float, 3> out{};
    for (int i = 0; i < 3; ++i)
        out[i] = matrix[i][0] * colour[0] + matrix[i][1] * colour[1] + matrix[i][2] * colour[2];
    return out;
}

std::optional<std::array<float, 3>> radianceLuminanceWeights(const std::optional<std::array<float, 8>>& primaries)
{
    if (!primaries)  // rgb2xyzmat's Y row: CIE_rf, CIE_gf, CIE_bf
        return std::array<float, 3>{float(kYr * kCrD / kD), float(kYg * kCgD / kD), float(kYb * kCbD / kD)};
    const std::optional<Matrix> toXyz = rgbToXyz(*primaries);
    if (!toXyz)
        return std::nullopt;
    const float xw = (*primaries)[6], yw = (*primaries)[7];
    const float neutral = float(1.0 / 3.0);
    if (nearlyEqual(xw, neutral) && nearlyEqual(yw, neutral))
        return (*toXyz)[1];
    const std::optional<Matrix> balance = whiteBalanceToEqualEnergy(xw, yw);
    if (!balance)
        return std::nullopt;
    return multiply(*balance, *toXyz)[1];
}

Matrix radianceXyzToRgbMatrix()
{
    Matrix m{};
    m[0] = {float((kYg - kYb - kXb * kYg + kYb * kXg) / kCrD), float((kXb - kXg - kXb * kYg + kXg * kYb) / kCrD),
            float((kXg * kYb - kXb * kYg) / kCrD)};
    m[1] = {float((kYb - kYr - kYb * kXr + kYr * kXb) / kCgD), float((kXr - kXb - kXr * kYb + kXb * kYr) / kCgD),
            float((kXb * kYr - kXr * kYb) / kCgD)};
    m[2] = {float((kYr - kYg - kYr * kXg + kYg * kXr) / kCbD), float((kXg - kXr - kXg * kYr + kXr * kYg) / kCbD),
            float((kXr * kYg - kXg * kYr) / kCbD)};
    return m;
}

}  // namespace image
