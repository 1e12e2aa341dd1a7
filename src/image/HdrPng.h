// HdrPng.h: HDR10 still images: the SMPTE ST 2084 (PQ) transfer function and a 16-bit PNG writer
// that labels its pixels with the PNG 3rd edition's HDR chunks, and a chunk reader to check them.
//
// PQ: encode(L) = ((c1 + c2 Y^m1) / (1 + c3 Y^m1))^m2 with Y = L / 10000 cd/m^2 (clamped to
// [0, 1]), m1 = 2610/16384, m2 = 2523/4096 x 128, c1 = 3424/4096, c2 = 2413/4096 x 32,
// c3 = 2392/4096 x 32; decode is its inverse. Full-range 16-bit code = round(encode x 65535).
// The PNG: colour type 2 (RGB), bit depth 16, no interlace, every row with filter type 0 (none),
// compressed by stb_image_write's deflate; chunks in this order: IHDR, cICP
// (primaries 9 = BT.2020, transfer 16 = PQ, matrix 0 = RGB, full range 1), mDCV (the mastering
// display: BT.2020 primaries and D65 in 0.00002 units, max and min luminance in 0.0001 cd/m^2),
// cLLI (MaxCLL, MaxFALL in 0.0001 cd/m^2), IDAT, IEND: the colour chunks precede IDAT as the
// specification requires (cICP also precedes PLTE; there is none).
// Also plain 16-bit PNGs of 1..4 channels (writePng16, loadPng16Samples; `clahe`'s 16-bit images),
// written the same way without the colour chunks.
#pragma once

#include "image/Image.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace image {

/// ST 2084 inverse EOTF: absolute luminance (cd/m^2, clamped to [0, 10000]; NaN gives 0) to the
/// non-linear signal 0..1.
double pqEncode(double nits);
/// ST 2084 EOTF: signal 0..1 (clamped) to cd/m^2.
double pqDecode(double signal);
/// Full-range 16-bit PQ code value of a luminance.
std::uint16_t pqCode16(double nits);

/// What the HDR chunks say about the picture.
struct Hdr10Metadata
{
    double masteringMaxNits = 1000.0;        ///< the display the picture was formed for (display.peak)
    double masteringMinNits = 0.0001;        ///< its black (mDCV's minimum)
    double maxContentLightLevel = 0.0;       ///< MaxCLL: the brightest pixel's largest channel, cd/m^2 (0: unknown)
    double maxFrameAverageLightLevel = 0.0;  ///< MaxFALL: the frame's mean of each pixel's largest channel
};

/// MaxCLL and MaxFALL of linear RGBA cd/m^2 pixels (largest channel per pixel; CTA-861.3's definition).
Hdr10Metadata contentLightLevels(const ImageF& nits, double masteringMaxNits);

/// Writes linear BT.2020 RGB in cd/m^2 (`nits`, RGBA float, row 0 the picture's top; alpha ignored)
/// as a 16-bit PQ PNG with cICP, mDCV and cLLI. Throws ImageError (empty image, unwritable path).
void writeHdr10Png(const std::filesystem::path& path, const ImageF& nits, const Hdr10Metadata& metadata);

/// One chunk of a PNG file: its 4-letter type and data, and whether its CRC matched.
struct PngChunk
{
    std::string type;
    std::vector<std::uint8_t> data;
    bool crcOk = false;
};
/// The chunks of a PNG file in order (throws ImageError when it is not a PNG or is cut short).
std::vector<PngChunk> readPngChunks(const std::filesystem::path& path);

/// A 16-bit RGB PNG's samples (row 0 the top; 3 per pixel), decoded with stb_image (tests).
struct Image16
{
    int width = 0;
    int height = 0;
    std::vector<std::uint16_t> samples;
};
Image16 loadPng16(const std::filesystem::path& path);

/// A PNG's samples at 16 bits with its own channel count (1 grey, 2 grey + alpha, 3 RGB, 4 RGBA),
/// interleaved, row 0 the top.
struct Png16
{
    int width = 0;
    int height = 0;
    int channels = 0;
    std::vector<std::uint16_t> samples;
};
/// Whether `path` is a PNG whose header says 16 bits a sample; false for anything else (never throws).
bool isPng16(const std::filesystem::path& path);
/// Loads a PNG as 16-bit samples keeping its channels (stb_image's 16-bit API; 8-bit files are
/// scaled by 257). Throws ImageError (not a PNG, damaged, larger than kMaxImageDimension a side).
Png16 loadPng16Samples(const std::filesystem::path& path);
/// Writes a 16-bit PNG of 1..4 channels (colour type 0, 4, 2 or 6; filter none). Throws ImageError.
void writePng16(const std::filesystem::path& path, const Png16& image);

}  // namespace image
