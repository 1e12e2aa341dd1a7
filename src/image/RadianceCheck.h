// RadianceCheck.h: internal to src/image. Walks a Radiance .hdr (RGBE) file's pixel stream the way
// stb_image 2.27 decodes it, before stb does, and refuses the streams stb cannot end on: a run or
// dump of length 0 (stb loops forever on one, and a truncated file reads as endless zeros) and data
// that stops before the last scanline (stb would allocate the whole image, then read zeros). Only
// the stream's structure is checked; header errors and bad run lengths are left to stb's messages.
// Limits: stb's layout only (-Y H +X W); a header line longer than 1 KB is cut as stb cuts it.
#pragma once

#include <cstdint>
#include <span>

namespace image::detail {

/// Throws FormatError ("damaged Radiance HDR file: ...") when stb_image would hang on `bytes` or
/// decode missing data; `width` and `height` are the ones stbi_info read from the header.
void checkRadianceStream(std::span<const std::uint8_t> bytes, int width, int height);

}  // namespace image::detail
