// OpenExr.h: internal to src/image. OpenEXR decoding and encoding through tinyexr. The decoder
// checks the whole file structure itself (header attributes, data window, channels, tiles, chunk
// offset table and which chunk holds which rows) before tinyexr sees it, because Debian's tinyexr
// 1.0.1 aborts on some malformed headers (assert), leaks on failed scanline decodes, and leaves
// rows uninitialised when a chunk is missing. Single-part, non-deep files only.
#pragma once

#include "image/Image.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace image::detail {

/// Decodes an OpenEXR file held in memory to RGBA float (the display window, pixels outside the
/// data window are 0). Throws FormatError with the reason.
ImageF decodeOpenExr(std::span<const std::uint8_t> bytes);

/// Encodes RGBA float as a ZIP-compressed OpenEXR file; `storeHalf` picks half or float channels.
/// Throws FormatError with the reason.
std::string encodeOpenExr(const ImageF& image, bool storeHalf);

}  // namespace image::detail
