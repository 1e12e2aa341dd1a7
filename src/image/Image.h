// Image.h: the two in-memory image types of hdrlab and the error type of the image I/O module.
// ImageF is scene-linear RGBA float32 (what the HDR pipeline consumes); Image8 is 8-bit with 1..4
// interleaved channels (PNG/JPEG input, sRGB output). Row 0 is the top row in both.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace image {

/// Thrown by every load/write function; what() is one line naming the file and the problem, e.g.
/// "cannot read 'x.exr': not an OpenEXR file (bad magic number)".
class ImageError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

/// What a Radiance picture's header said (image/RadianceReader.h reads it). Radiance stores radiance
/// in W/sr/m^2 times the exposure: luminance in cd/m^2 is 179 (Radiance's white efficacy) times the
/// stored luminance divided by `exposure` (an XYZE picture's Y is already in cd/m^2 times `exposure`).
struct RadianceHeader
{
    double exposure = 1.0;                                ///< product of the EXPOSURE lines
    std::optional<std::array<float, 8>> primaries;        ///< PRIMARIES= rx ry gx gy bx by wx wy, as parsed
    std::optional<std::array<float, 3>> colorCorrection;  ///< product of the COLORCORR lines (not applied)
    double pixelAspect = 1.0;                             ///< product of the PIXASPECT lines
    std::string view;                                     ///< the VIEW lines' options, in order
    std::string software;                                 ///< the SOFTWARE line
    std::string orientation;  ///< the resolution line's axes, e.g. "-Y +X" (the standard, rows top down)
    bool xyz = false;         ///< FORMAT=32-bit_rle_xyze: the pixels were converted to RGB (default primaries)
    bool operator==(const RadianceHeader&) const = default;
};

/// Scene-linear RGBA float32, interleaved, row-major, row 0 = top. NaN and Inf are kept as they are
/// (they are valid pixel data; the histogram pipeline counts them separately).
struct ImageF
{
    static constexpr int kChannels = 4;

    int width = 0;
    int height = 0;
    std::vector<float> pixels;  ///< width * height * 4 values: R, G, B, A
    /// Set by the loader for a Radiance picture only: what its header said about units and layout.
    std::optional<RadianceHeader> radiance;

    ImageF() = default;
    ImageF(int imageWidth, int imageHeight)
        : width(imageWidth),
          height(imageHeight),
          pixels(std::size_t(imageWidth) * std::size_t(imageHeight) * kChannels, 0.0f)
    {
    }

    bool empty() const { return width <= 0 || height <= 0; }
    std::size_t index(int x, int y) const { return (std::size_t(y) * std::size_t(width) + std::size_t(x)) * kChannels; }
    float* at(int x, int y) { return pixels.data() + index(x, y); }
    const float* at(int x, int y) const { return pixels.data() + index(x, y); }
};

/// 8-bit image with 1 (grey), 2 (grey+alpha), 3 (RGB) or 4 (RGBA) interleaved channels, row 0 = top.
struct Image8
{
    int width = 0;
    int height = 0;
    int channels = 0;
    std::vector<std::uint8_t> pixels;  ///< width * height * channels bytes

    Image8() = default;
    Image8(int imageWidth, int imageHeight, int channelCount)
        : width(imageWidth),
          height(imageHeight),
          channels(channelCount),
          pixels(std::size_t(imageWidth) * std::size_t(imageHeight) * std::size_t(channelCount), 0)
    {
    }

    bool empty() const { return width <= 0 || height <= 0; }
    std::size_t index(int x, int y) const
    {
        return (std::size_t(y) * std::size_t(width) + std::size_t(x)) * std::size_t(channels);
    }
    std::uint8_t* at(int x, int y) { return pixels.data() + index(x, y); }
    const std::uint8_t* at(int x, int y) const { return pixels.data() + index(x, y); }
};

}  // namespace image
