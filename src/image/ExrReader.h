// ExrReader.h: internal to src/image. OpenEXR reading through OpenEXR 3, the format's reference
// implementation (Debian's libopenexr-dev): every compression, scanline and tiled (level 0 of
// mip/rip maps), data windows with offsets, luminance-chroma, multi-part and multi-view files.
// Deep parts are flattened (ExrDeepReader.h, DeepFlatten.h). docs/IMAGE_IO.md says why reading does
// not use tinyexr.
#pragma once

#include "image/Image.h"

#include <cstdint>
#include <span>
#include <string>

namespace image::detail {

/// Decodes an OpenEXR file held in memory to RGBA float (the display window; pixels outside the
/// data window are 0). `part` picks what to read: "" the first part with colour channels (R/G/B,
/// Y, or Y/RY/BY, or a single channel of any name as grey; in a multi-view file its default view), else a part index
/// ("2"), a part name, or a view or layer name ("left", "diffuse"). Throws FormatError with the reason.
ImageF decodeOpenExr(std::span<const std::uint8_t> bytes, const std::string& part = {});

}  // namespace image::detail
