// RadianceReader.h: internal to src/image. hdrlab's own reader of Radiance pictures (.hdr, .pic):
// the information header, the resolution line in any of its 8 orientations, and scanlines in
// new-style run-length encoding (0x02 0x02 + length, one run sequence per component), old-style
// run-length encoding (a 1,1,1,n pixel repeats the previous one n << 8k times for the k-th marker
// in a row) or flat. Pixels decode as Radiance's colr_color does, (m + 0.5) * 2^(e - 136) per
// channel and 0 for exponent 0, which is exact in float; XYZE pictures are converted to RGB with
// Radiance's default primaries (xyz2rgbmat), as ra_xyze -r does.
//
// Source: Radiance's picture format (NREL/Radiance: src/common/header.c, resolu.c, color.c), its
// rules re-derived, not copied. Header lines read: FORMAT (32-bit_rle_rgbe or 32-bit_rle_xyze; none
// means RGBE), EXPOSURE and PIXASPECT (each line multiplies), COLORCORR (multiplies, recorded only:
// pcond ignores it too), PRIMARIES (the last complete line), VIEW (each line adds its options) and
// SOFTWARE; what they say goes to ImageF::radiance.
//
// Limits and safety: sizes up to kMaxImageDimension, checked before any allocation; a picture that
// would decode to more than 4096 bytes per file byte (and over 64 MiB) is refused before allocating
// (new-style RLE reaches about 254, only old-style repeats of one colour go beyond); every read is
// bounds-checked and a truncated or inconsistent stream is one FormatError naming what is wrong.
// Old-style repeat markers at the start of a scanline repeat the previous scanline's last pixel in
// file order (Radiance reads before its buffer there); one before any pixel is an error.
#pragma once

#include "image/Image.h"

#include <cstdint>
#include <span>

namespace image::detail {

/// Decodes a whole Radiance picture (the bytes start with "#?RADIANCE" or "#?RGBE"). Throws
/// FormatError ("damaged Radiance HDR file: ...", "unsupported Radiance HDR file: ...").
ImageF decodeRadiancePicture(std::span<const std::uint8_t> bytes);

}  // namespace image::detail
