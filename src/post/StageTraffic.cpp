#include "post/StageTraffic.h"

#include "gl/Gl.h"

#include <algorithm>

namespace post {

std::uint64_t pixelCount(glm::ivec2 size)
{
    return std::uint64_t(std::max(size.x, 0)) * std::uint64_t(std::max(size.y, 0));
}

std::uint64_t frameBytesPerPixelOf(unsigned internalFormat)
{
    return internalFormat == GL_RGBA32F ? 16 : kFrameBytesPerPixel;
}

std::uint64_t autoRangeMinimumBytes(const TrafficShape& shape)
{
    if (shape.histogramInScene)
        return 4 * kBinBytes;
    return pixelCount(shape.histogramImage) * shape.frameBytesPerPixel;
}

std::uint64_t histogramMinimumBytes(const TrafficShape& shape)
{
    if (shape.histogramInScene)
        return std::uint64_t(shape.bins) * kBinBytes * 2;
    return pixelCount(shape.histogramImage) * shape.frameBytesPerPixel + std::uint64_t(shape.bins) * kBinBytes;
}

std::uint64_t scanMinimumBytes(const TrafficShape& shape)
{
    return std::uint64_t(shape.bins) * kBinBytes * 2;
}

std::uint64_t applyMinimumBytes(const TrafficShape& shape)
{
    return pixelCount(shape.frame) * (shape.frameBytesPerPixel + kDisplayBytesPerPixel);
}

}  // namespace post
