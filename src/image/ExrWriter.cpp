// ExrWriter.cpp: OpenEXR writing through tinyexr (Debian's prebuilt 1.0.1), the project's named EXR
// library: RGBA, ZIP compression, half or float channels. Reading goes through OpenEXR 3 instead
// (ExrReader.cpp; docs/IMAGE_IO.md says why).
#include "image/ExrWriter.h"

#include "image/FormatError.h"
#include "util/PrintableText.h"

#include <tinyexr.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace image::detail {
namespace {

/// tinyexr error text as one line (it ends messages with newlines and may chain several).
std::string takeTinyexrMessage(const char* message, const char* fallback)
{
    std::string text = util::oneLineMessage(message ? message : fallback, 400);
    if (message)
        FreeEXRErrorMessage(message);
    return text.empty() ? fallback : text;
}

}  // namespace

std::string encodeOpenExr(const ImageF& image, bool storeHalf)
{
    // OpenEXR wants channels sorted by name, hence A, B, G, R.
    constexpr std::array<const char*, 4> kNames = {"A", "B", "G", "R"};
    constexpr std::array<int, 4> kSourceChannel = {3, 2, 1, 0};
    const std::size_t pixelCount = std::size_t(image.width) * std::size_t(image.height);

    std::array<std::vector<float>, 4> planes;
    std::array<unsigned char*, 4> planePointers{};
    std::array<EXRChannelInfo, 4> channelInfos{};
    std::array<int, 4> inputTypes{};
    std::array<int, 4> storedTypes{};
    for (std::size_t c = 0; c < 4; ++c) {
        planes[c].resize(pixelCount);
        for (std::size_t i = 0; i < pixelCount; ++i)
            planes[c][i] = image.pixels[i * 4 + std::size_t(kSourceChannel[c])];
        planePointers[c] = reinterpret_cast<unsigned char*>(planes[c].data());
        std::strncpy(channelInfos[c].name, kNames[c], sizeof(channelInfos[c].name) - 1);
        inputTypes[c] = TINYEXR_PIXELTYPE_FLOAT;
        storedTypes[c] = storeHalf ? TINYEXR_PIXELTYPE_HALF : TINYEXR_PIXELTYPE_FLOAT;
    }

    // Both structures point at our arrays, so they are not passed to FreeEXRHeader/FreeEXRImage.
    EXRHeader header;
    InitEXRHeader(&header);
    header.num_channels = 4;
    header.channels = channelInfos.data();
    header.pixel_types = inputTypes.data();
    header.requested_pixel_types = storedTypes.data();
    header.compression_type = TINYEXR_COMPRESSIONTYPE_ZIP;

    EXRImage exrImage;
    InitEXRImage(&exrImage);
    exrImage.images = planePointers.data();
    exrImage.width = image.width;
    exrImage.height = image.height;
    exrImage.num_channels = 4;

    unsigned char* memory = nullptr;
    const char* message = nullptr;
    std::size_t size = SaveEXRImageToMemory(&exrImage, &header, &memory, &message);
    if (size == 0 || !memory) {
        std::free(memory);
        throw FormatError("tinyexr cannot encode the image: " + takeTinyexrMessage(message, "unknown error"));
    }
    if (message)
        FreeEXRErrorMessage(message);
    std::string encoded(reinterpret_cast<const char*>(memory), size);
    std::free(memory);
    return encoded;
}

}  // namespace image::detail
