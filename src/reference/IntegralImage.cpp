#include "reference/IntegralImage.h"

#include <stdexcept>

namespace ref {

template <typename T, typename Accumulator>
std::vector<T> integralImage(const T* image, int width, int height, IntegralKind kind, int channels)
{
    if (width < 0 || height < 0 || channels < 1)
        throw std::invalid_argument("integralImage: bad size");
    const std::size_t w = std::size_t(width);
    const std::size_t h = std::size_t(height);
    const std::size_t c = std::size_t(channels);
    std::vector<T> out(w * h * c, T(0));
    if (w == 0 || h == 0)
        return out;
    // Inclusive, kept in the accumulator type: row running sum + the row above.
    std::vector<Accumulator> above(w * c, Accumulator(0));
    std::vector<Accumulator> row(w * c);
    for (std::size_t y = 0; y < h; ++y) {
        for (std::size_t ch = 0; ch < c; ++ch) {
            Accumulator running = Accumulator(0);
            for (std::size_t x = 0; x < w; ++x) {
                running += Accumulator(image[(y * w + x) * c + ch]);
                row[x * c + ch] = running + above[x * c + ch];
            }
        }
        if (kind == IntegralKind::Inclusive) {
            for (std::size_t i = 0; i < w * c; ++i)
                out[y * w * c + i] = T(row[i]);
        } else if (y + 1 < h) {
            // Bilgic's layout: E(x + 1, y + 1) = S(x, y); first row and column stay 0.
            for (std::size_t x = 0; x + 1 < w; ++x)
                for (std::size_t ch = 0; ch < c; ++ch)
                    out[((y + 1) * w + x + 1) * c + ch] = T(row[x * c + ch]);
        }
        above.swap(row);
    }
    return out;
}

double boxSum(const std::vector<double>& inclusive, int width, int x0, int y0, int x1, int y1)
{
    auto at = [&](int x, int y) {
        return x < 0 || y < 0 ? 0.0 : inclusive[std::size_t(y) * std::size_t(width) + std::size_t(x)];
    };
    return at(x1 - 1, y1 - 1) - at(x0 - 1, y1 - 1) - at(x1 - 1, y0 - 1) + at(x0 - 1, y0 - 1);
}

template std::vector<float> integralImage<float, float>(const float*, int, int, IntegralKind, int);
template std::vector<float> integralImage<float, double>(const float*, int, int, IntegralKind, int);
template std::vector<double> integralImage<double, double>(const double*, int, int, IntegralKind, int);

}  // namespace ref
