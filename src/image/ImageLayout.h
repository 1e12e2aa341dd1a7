// ImageLayout.h: the channel layout of an image file, read from its header without decoding the
// pixels: the format and its channels ("OpenEXR R,G,B,A", "PNG grey"). A sequence's frames must
// agree on it (frames/SequenceSource.h): loadHdrImage turns every layout into RGBA, so a grey frame
// in a colour sequence, or a PNG among EXRs, would otherwise pass unnoticed.
// OpenEXR: every part's channel names, in the file's order, parts separated by "; " (with the part's
// name where it has one). 8-bit formats: grey, grey+alpha, RGB or RGBA. Radiance: RGB.
#pragma once

#include <filesystem>
#include <string>

namespace image {

/// The layout of `path`. Throws ImageError naming the file when its header cannot be read.
std::string describeImageLayout(const std::filesystem::path& path);

}  // namespace image
