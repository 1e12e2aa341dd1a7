// ExrWriter.h: internal to src/image. OpenEXR encoding through tinyexr.
#pragma once

#include "image/Image.h"

#include <string>

namespace image::detail {

/// Encodes RGBA float as a ZIP-compressed OpenEXR file; `storeHalf` picks half or float channels.
/// Throws FormatError with the reason.
std::string encodeOpenExr(const ImageF& image, bool storeHalf);

}  // namespace image::detail
