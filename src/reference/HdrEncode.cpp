#include "reference/HdrEncode.h"

namespace ref {

namespace {

Matrix3 multiply(const Matrix3& a, const Matrix3& b)
{
    Matrix3 m{};
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            for (int k = 0; k < 3; ++k)
                m[i][j] += a[i][k] * b[k][j];
    return m;
}

Matrix3 inverse(const Matrix3& m)
{
    const double det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
                       m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
                       m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
    Matrix3 r{};
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            // cofactor of m[j][i] (the adjugate's transpose)
            const int r0 = (j + 1) % 3, r1 = (j + 2) % 3, c0 = (i + 1) % 3, c1 = (i + 2) % 3;
            r[i][j] = (m[r0][c0] * m[r1][c1] - m[r0][c1] * m[r1][c0]) / det;
        }
    return r;
}

/// RGB to XYZ of primaries (x, y) each and white (x, y), white scaled to Y = 1.
Matrix3 rgbToXyz(const double (&xy)[3][2], double wx, double wy)
{
    Matrix3 p{};
    for (int c = 0; c < 3; ++c) {
        const double x = xy[c][0], y = xy[c][1];
        p[0][c] = x / y;
        p[1][c] = 1.0;
        p[2][c] = (1.0 - x - y) / y;
    }
    const double white[3] = {wx / wy, 1.0, (1.0 - wx - wy) / wy};
    const Matrix3 inv = inverse(p);
    double s[3];
    for (int i = 0; i < 3; ++i)
        s[i] = inv[i][0] * white[0] + inv[i][1] * white[1] + inv[i][2] * white[2];
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c)
            p[r][c] *= s[c];
    return p;
}

}  // namespace

Matrix3 rec709ToBt2020()
{
    const double rec709[3][2] = {{0.640, 0.330}, {0.300, 0.600}, {0.150, 0.060}};
    const double bt2020[3][2] = {{0.708, 0.292}, {0.170, 0.797}, {0.131, 0.046}};
    const double d65x = 0.3127, d65y = 0.3290;
    return multiply(inverse(rgbToXyz(bt2020, d65x, d65y)), rgbToXyz(rec709, d65x, d65y));
}

}  // namespace ref
