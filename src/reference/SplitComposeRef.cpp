#include "reference/SplitComposeRef.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

namespace ref {

std::vector<std::uint8_t> splitSideBySide(const std::vector<std::uint8_t>& a,
                                          const std::vector<std::uint8_t>& b,
                                          int width,
                                          int height,
                                          int dividerX)
{
    if (a.size() != b.size() || a.size() != std::size_t(width) * std::size_t(height) * 4u)
        throw std::invalid_argument("split reference: both sides must be RGBA8 of width x height");
    std::vector<std::uint8_t> out(a.size());
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            const std::size_t i = (std::size_t(y) * std::size_t(width) + std::size_t(x)) * 4u;
            for (int c = 0; c < 3; ++c) {
                std::uint8_t value = x < dividerX ? a[i + c] : b[i + c];
                if (x == dividerX - 1)
                    value = 255;
                else if (x == dividerX)
                    value = 0;
                out[i + c] = value;
            }
            out[i + 3] = 255;
        }
    return out;
}

std::vector<std::uint8_t> splitDifference(const std::vector<std::uint8_t>& a,
                                          const std::vector<std::uint8_t>& b,
                                          float gain)
{
    if (a.size() != b.size() || a.size() % 4u != 0)
        throw std::invalid_argument("split reference: both sides must be RGBA8 of one size");
    std::vector<std::uint8_t> out(a.size());
    for (std::size_t i = 0; i < a.size(); i += 4)
        for (std::size_t c = 0; c < 4; ++c) {
            const float difference = float(std::abs(int(a[i + c]) - int(b[i + c])));
            out[i + c] = c == 3 ? 255 : std::uint8_t(std::min(std::floor(difference * gain + 0.5f), 255.0f));
        }
    return out;
}

}  // namespace ref
