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

Traffic sceneMinimumTraffic(const TrafficShape& shape)
{
    return {0, pixelCount(shape.frame) * shape.frameBytesPerPixel};
}

Traffic autoRangeMinimumTraffic(const TrafficShape& shape)
{
    if (shape.histogramInScene)  // the scene's min/max read, the range written
        return {2 * kBinBytes, 2 * kBinBytes};
    return {pixelCount(shape.histogramImage) * shape.frameBytesPerPixel, 0};
}

Traffic histogramMinimumTraffic(const TrafficShape& shape)
{
    if (shape.histogramInScene)  // the scene's bins read, the histogram's written
        return {std::uint64_t(shape.bins) * kBinBytes, std::uint64_t(shape.bins) * kBinBytes};
    return {pixelCount(shape.histogramImage) * shape.frameBytesPerPixel, std::uint64_t(shape.bins) * kBinBytes};
}

Traffic scanMinimumTraffic(const TrafficShape& shape)
{
    return {std::uint64_t(shape.bins) * kBinBytes, std::uint64_t(shape.bins) * kBinBytes};
}

Traffic applyMinimumTraffic(const TrafficShape& shape)
{
    return {pixelCount(shape.frame) * shape.frameBytesPerPixel, pixelCount(shape.frame) * kDisplayBytesPerPixel};
}

}  // namespace post
