// ExrDeepReader.h: internal to src/image. Reads one deep part of an OpenEXR file (deep scanline or
// deep tiled, level 0) through OpenEXR 3's deep API and flattens every pixel with DeepFlatten.h.
// Bounded: the sample counts are read first and their total must fit the decode budget, no pixel
// may hold more than kMaxDeepSamplesPerPixel samples, and the samples are decoded one strip of
// rows (a chunk or a row of tiles) at a time.
#pragma once

#include "image/Image.h"
#include "image/ImageIo.h"

#include <ImfMultiPartInputFile.h>

#include <cstdint>
#include <string>

namespace image::detail {

/// The deep part's channels that feed the flattened pixel; "" when absent.
struct DeepChannels
{
    std::string red, green, blue;  ///< colour, or
    std::string luminance;         ///< grey (Y) when there is no R, G, B
    std::string alpha;             ///< absent: every sample is opaque
    std::string depth;             ///< "Z"; absent: samples composited in stored order
    std::string depthBack;         ///< "ZBack"; absent: every sample is a point sample
};

/// The flattened data window of deep part `part` as premultiplied RGBA float. `budgetBytes` bounds
/// the decoded samples. Throws FormatError (or OpenEXR's exceptions) on damaged data.
ImageF readDeepPart(Imf::MultiPartInputFile& file, int part, const DeepChannels& channels, std::uint64_t budgetBytes);

}  // namespace image::detail
