#include "reference/FalseColourRef.h"

#include "shared/HostDevice.h"

#include <cstddef>

namespace ref {

std::vector<std::uint8_t> falseColour(const float* rgba,
                                      int width,
                                      int height,
                                      float logMin,
                                      float logMax,
                                      const hd::LuminanceWeights& weights)
{
    const std::size_t pixels = std::size_t(width) * std::size_t(height);
    std::vector<std::uint8_t> out(pixels * 4);
    for (std::size_t i = 0; i < pixels; ++i) {
        const float* p = rgba + i * 4;
        const std::uint32_t rgb = hd::hdFalseColourOf(hd::hdLuminance(p[0], p[1], p[2], weights), logMin, logMax);
        out[i * 4 + 0] = std::uint8_t(rgb >> 16);
        out[i * 4 + 1] = std::uint8_t(rgb >> 8);
        out[i * 4 + 2] = std::uint8_t(rgb);
        out[i * 4 + 3] = 255;
    }
    return out;
}

}  // namespace ref
