// ImageIo.cpp: file reading with a size cap, type detection by magic bytes, stb_image decoding with
// dimension checks before any pixel is decoded, sRGB conversions and the PNG/EXR writers. OpenEXR
// specifics live in ExrReader.cpp (OpenEXR 3) and ExrWriter.cpp (tinyexr), Radiance pictures in
// RadianceReader.cpp (hdrlab's own reader).
#include "image/ImageIo.h"

#include "image/ExrReader.h"
#include "image/ExrWriter.h"
#include "image/FormatError.h"
#include "image/JpegCheck.h"
#include "image/RadianceReader.h"
#include "util/Log.h"
#include "util/OutputFile.h"
#include "util/Paths.h"
#include "util/PrintableText.h"

#include <stb_image.h>
#include <stb_image_write.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstring>
#include <fstream>
#include <memory>
#include <new>

namespace image {
namespace fs = std::filesystem;

namespace {

using detail::FormatError;

std::string lowerExtension(const fs::path& path)
{
    std::string extension = path.extension().string();
    std::transform(extension.begin(), extension.end(), extension.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return extension;
}

bool startsWith(const std::uint8_t* bytes, std::size_t size, const char* prefix, std::size_t prefixLength)
{
    return size >= prefixLength && std::memcmp(bytes, prefix, prefixLength) == 0;
}

/// Reads the whole file, refusing folders, empty files and files above kMaxFileBytes.
std::vector<std::uint8_t> readFileBytes(const fs::path& path)
{
    std::error_code error;
    fs::file_status status = fs::status(path, error);
    if (error || !fs::exists(status))
        throw FormatError("no such file");
    if (fs::is_directory(status))
        throw FormatError("is a folder, not a file");
    std::uintmax_t size = fs::file_size(path, error);
    if (error)
        throw FormatError("cannot get the file size: " + error.message());
    if (size == 0)
        throw FormatError("file is empty");
    if (size > kMaxFileBytes)
        throw FormatError(util::format("file of {} bytes is too large (limit {} bytes)", size, kMaxFileBytes));
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw FormatError(std::string("cannot open the file: ") + std::strerror(errno));
    std::vector<std::uint8_t> bytes(static_cast<std::size_t>(size));
    in.read(reinterpret_cast<char*>(bytes.data()), std::streamsize(size));
    if (std::size_t(in.gcount()) != bytes.size())
        throw FormatError("file changed or could not be read completely");
    return bytes;
}

/// The size checks of readFileBytes, for bytes that did not come from a file.
void checkInMemorySize(std::span<const std::uint8_t> bytes)
{
    if (bytes.empty())
        throw FormatError("file is empty");
    if (bytes.size() > kMaxFileBytes)
        throw FormatError(util::format("file of {} bytes is too large (limit {} bytes)", bytes.size(), kMaxFileBytes));
}

void checkDimensions(long long width, long long height)
{
    if (width < 1 || height < 1)
        throw FormatError(util::format("image is {}x{}", std::max(width, 0LL), std::max(height, 0LL)));
    if (width > kMaxImageDimension || height > kMaxImageDimension)
        throw FormatError(util::format("image of {}x{} pixels is too large (limit {}x{})", width, height,
                                       kMaxImageDimension, kMaxImageDimension));
}

std::string stbReason()
{
    // stb puts raw bytes of the file into some reasons (a PNG chunk's type).
    const char* reason = stbi_failure_reason();
    return reason ? util::escapeControlCharacters(reason, true) : "unknown error";
}

struct StbHeaderSize
{
    int width = 0;
    int height = 0;
};

/// Reads the size from the file's header (cheap, no pixel decoding) and checks it before stb
/// allocates anything.
StbHeaderSize checkStbHeader(std::span<const std::uint8_t> bytes, FileKind kind)
{
    if (bytes.size() > std::size_t(INT_MAX))
        throw FormatError("file is too large for stb_image");
    if (kind == FileKind::Jpeg)
        detail::checkJpegHuffmanTables(bytes);  // before stbi_info, which reads the tables too
    // PNG: read the size from IHDR ourselves, since stb refuses big images with a vague reason.
    constexpr std::size_t kIhdrEnd = 24;
    if (kind == FileKind::Png && bytes.size() >= kIhdrEnd && std::memcmp(bytes.data() + 12, "IHDR", 4) == 0) {
        auto bigEndian = [&](std::size_t at) {
            return (std::uint32_t(bytes[at]) << 24) | (std::uint32_t(bytes[at + 1]) << 16) |
                   (std::uint32_t(bytes[at + 2]) << 8) | std::uint32_t(bytes[at + 3]);
        };
        checkDimensions(bigEndian(16), bigEndian(20));
        // Every chunk up to IEND must fit in the file: stb sizes its IDAT buffer from the length
        // field before reading, so a 100-byte file could make it reserve a gigabyte.
        constexpr std::size_t kChunkOverhead = 12;  // length, type, CRC
        std::size_t at = 8;
        while (at + kChunkOverhead <= bytes.size()) {
            const std::uint32_t length = bigEndian(at);
            if (length > bytes.size() - at - kChunkOverhead)
                throw FormatError(
                    util::format("damaged PNG file: chunk of {} bytes at offset {} runs past the end", length, at));
            if (std::memcmp(bytes.data() + at + 4, "IEND", 4) == 0)
                break;
            at += kChunkOverhead + length;
        }
    }
    int width = 0;
    int height = 0;
    int channels = 0;
    if (!stbi_info_from_memory(bytes.data(), int(bytes.size()), &width, &height, &channels))
        throw FormatError(util::format("damaged {} file: {}", fileKindName(kind), stbReason()));
    checkDimensions(width, height);
    // stb allocates the whole canvas before decoding: a few bytes declaring a huge image would cost
    // gigabytes. No format here packs more than about 2 700 pixels per byte (GIF's LZW at best;
    // deflate about 1 000, JPEG about 250), so more than 4 096 per byte beyond the first megapixel
    // cannot be a whole file.
    constexpr std::uint64_t kMaxPixelsPerByte = 4096;
    constexpr std::uint64_t kFreePixels = 1u << 20;
    const std::uint64_t pixels = std::uint64_t(width) * std::uint64_t(height);
    if (pixels > kFreePixels + kMaxPixelsPerByte * bytes.size())
        throw FormatError(util::format("damaged {} file: a {}x{} image cannot be stored in {} bytes",
                                       fileKindName(kind), width, height, bytes.size()));
    return {width, height};
}

struct StbFree
{
    void operator()(void* pixels) const { stbi_image_free(pixels); }
};

Image8 decodeStb8(std::span<const std::uint8_t> bytes, FileKind kind, int desiredChannels)
{
    checkStbHeader(bytes, kind);
    int width = 0;
    int height = 0;
    int fileChannels = 0;
    std::unique_ptr<stbi_uc, StbFree> pixels(
        stbi_load_from_memory(bytes.data(), int(bytes.size()), &width, &height, &fileChannels, desiredChannels));
    if (!pixels)
        throw FormatError(util::format("damaged {} file: {}", fileKindName(kind), stbReason()));
    checkDimensions(width, height);
    int channels = desiredChannels ? desiredChannels : fileChannels;
    if (channels < 1 || channels > 4)
        throw FormatError(util::format("decoder returned {} channels", channels));
    Image8 image(width, height, channels);
    std::memcpy(image.pixels.data(), pixels.get(), image.pixels.size());
    return image;
}

/// The reason for a file whose content matches no known format: a file named .exr that is not
/// one is "not an OpenEXR file", anything else is simply unsupported.
std::string unknownContentReason(const fs::path& path)
{
    std::string extension = lowerExtension(path);
    if (extension == ".exr")
        return "not an OpenEXR file (bad magic number)";
    if (extension == ".hdr" || extension == ".pic" || extension == ".rgbe")
        return "not a Radiance HDR file (bad header)";
    if (extension == ".png")
        return "not a PNG file (bad signature)";
    if (extension == ".jpg" || extension == ".jpeg")
        return "not a JPEG file (bad signature)";
    return "unsupported file type (not OpenEXR, Radiance HDR, PNG, JPEG, BMP, GIF or TGA)";
}

/// Runs a decoder, turning every failure into one ImageError line that names the file.
template <typename Decode>
auto withReadErrors(const fs::path& path, Decode decode) -> decltype(decode())
{
    try {
        return decode();
    } catch (const ImageError&) {
        throw;
    } catch (const std::bad_alloc&) {
        throw ImageError("cannot read '" + path.string() + "': out of memory");
    } catch (const std::exception& error) {
        // Reasons may quote the file (attribute names, chunk types): one bounded line whatever it holds.
        throw ImageError("cannot read '" + path.string() +
                         "': " + util::escapeControlCharacters(error.what(), false, 600));
    }
}

[[noreturn]] void throwWriteError(const fs::path& path, const std::string& reason)
{
    throw ImageError("cannot write '" + path.string() + "': " + reason);
}

/// Hands `bytes` to util::writeFileAtomically (which names the file in its messages).
void writeBytes(const fs::path& path, const std::string& bytes)
{
    try {
        util::writeFileAtomically(path, bytes);
    } catch (const std::exception& error) {
        throw ImageError(error.what());
    }
}

}  // namespace

const char* fileKindName(FileKind kind)
{
    switch (kind) {
        case FileKind::OpenExr:
            return "OpenEXR";
        case FileKind::RadianceHdr:
            return "Radiance HDR";
        case FileKind::Png:
            return "PNG";
        case FileKind::Jpeg:
            return "JPEG";
        case FileKind::Bmp:
            return "BMP";
        case FileKind::Gif:
            return "GIF";
        case FileKind::Tga:
            return "TGA";
        case FileKind::Unknown:
            break;
    }
    return "unknown";
}

FileKind detectFileKind(const std::uint8_t* bytes, std::size_t size, const fs::path& pathForExtension)
{
    static constexpr char kExrMagic[] = {0x76, 0x2f, 0x31, 0x01};
    static constexpr char kPngSignature[] = {char(0x89), 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    static constexpr char kJpegStart[] = {char(0xff), char(0xd8), char(0xff)};
    if (startsWith(bytes, size, kExrMagic, sizeof(kExrMagic)))
        return FileKind::OpenExr;
    if (startsWith(bytes, size, "#?RADIANCE\n", 11) || startsWith(bytes, size, "#?RGBE\n", 7))
        return FileKind::RadianceHdr;
    if (startsWith(bytes, size, kPngSignature, sizeof(kPngSignature)))
        return FileKind::Png;
    if (startsWith(bytes, size, kJpegStart, sizeof(kJpegStart)))
        return FileKind::Jpeg;
    if (startsWith(bytes, size, "GIF87a", 6) || startsWith(bytes, size, "GIF89a", 6))
        return FileKind::Gif;
    if (startsWith(bytes, size, "BM", 2) && size >= 26)
        return FileKind::Bmp;
    if (lowerExtension(pathForExtension) == ".tga" && size >= 18)
        return FileKind::Tga;
    return FileKind::Unknown;
}

FileKind detectFileKind(const fs::path& path)
{
    std::array<std::uint8_t, 16> head{};
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return FileKind::Unknown;
    in.read(reinterpret_cast<char*>(head.data()), std::streamsize(head.size()));
    return detectFileKind(head.data(), std::size_t(in.gcount()), path);
}

ImageF decodeHdrImage(std::span<const std::uint8_t> bytes, const fs::path& name, const std::string& exrPart)
{
    return withReadErrors(name, [&]() -> ImageF {
        checkInMemorySize(bytes);
        FileKind kind = detectFileKind(bytes.data(), bytes.size(), name);
        if (!exrPart.empty() && kind != FileKind::OpenExr)
            throw FormatError(util::format("a part ('{}') was asked for, but this is not an OpenEXR file",
                                           util::escapeControlCharacters(exrPart, true, 64)));
        switch (kind) {
            case FileKind::OpenExr:
                return detail::decodeOpenExr(bytes, exrPart);
            case FileKind::RadianceHdr:
                return detail::decodeRadiancePicture(bytes);
            case FileKind::Png:
            case FileKind::Jpeg:
            case FileKind::Bmp:
            case FileKind::Gif:
            case FileKind::Tga:
                return decodeSrgb8(decodeStb8(bytes, kind, 0));
            case FileKind::Unknown:
                break;
        }
        throw FormatError(unknownContentReason(name));
    });
}

Image8 decodeImage8(std::span<const std::uint8_t> bytes, const fs::path& name, int desiredChannels)
{
    if (desiredChannels < 0 || desiredChannels > 4)
        throw ImageError(
            util::format("cannot read '{}': asked for {} channels (0..4)", name.string(), desiredChannels));
    return withReadErrors(name, [&]() -> Image8 {
        checkInMemorySize(bytes);
        FileKind kind = detectFileKind(bytes.data(), bytes.size(), name);
        switch (kind) {
            case FileKind::Png:
            case FileKind::Jpeg:
            case FileKind::Bmp:
            case FileKind::Gif:
            case FileKind::Tga:
                return decodeStb8(bytes, kind, desiredChannels);
            case FileKind::OpenExr:
            case FileKind::RadianceHdr:
                throw FormatError(std::string(fileKindName(kind)) +
                                  " is a high-dynamic-range format; load it with loadHdrImage");
            case FileKind::Unknown:
                break;
        }
        throw FormatError(unknownContentReason(name));
    });
}

ImageF loadHdrImage(const fs::path& path, const std::string& exrPart)
{
    const std::vector<std::uint8_t> bytes = withReadErrors(path, [&] { return readFileBytes(path); });
    return decodeHdrImage(bytes, path, exrPart);
}

Image8 loadImage8(const fs::path& path, int desiredChannels)
{
    if (desiredChannels < 0 || desiredChannels > 4)
        throw ImageError(
            util::format("cannot read '{}': asked for {} channels (0..4)", path.string(), desiredChannels));
    const std::vector<std::uint8_t> bytes = withReadErrors(path, [&] { return readFileBytes(path); });
    return decodeImage8(bytes, path, desiredChannels);
}

float srgbToLinear(float encoded)
{
    if (encoded <= 0.04045f)
        return encoded / 12.92f;
    return std::pow((encoded + 0.055f) / 1.055f, 2.4f);
}

float linearToSrgb(float linear)
{
    if (!(linear > 0.0f))  // also catches NaN
        return 0.0f;
    if (linear >= 1.0f)
        return 1.0f;
    if (linear <= 0.0031308f)
        return linear * 12.92f;
    return 1.055f * std::pow(linear, 1.0f / 2.4f) - 0.055f;
}

ImageF decodeSrgb8(const Image8& encoded)
{
    if (encoded.channels < 1 || encoded.channels > 4 ||
        encoded.pixels.size() !=
            std::size_t(encoded.width) * std::size_t(encoded.height) * std::size_t(encoded.channels))
        throw ImageError(util::format("decodeSrgb8: inconsistent image ({}x{}, {} channels, {} bytes)", encoded.width,
                                      encoded.height, encoded.channels, encoded.pixels.size()));
    std::array<float, 256> toLinear{};
    for (int value = 0; value < 256; ++value)
        toLinear[std::size_t(value)] = srgbToLinear(float(value) / 255.0f);

    ImageF image(encoded.width, encoded.height);
    const bool hasColour = encoded.channels >= 3;
    const bool hasAlpha = encoded.channels == 2 || encoded.channels == 4;
    const std::size_t pixelCount = std::size_t(encoded.width) * std::size_t(encoded.height);
    for (std::size_t i = 0; i < pixelCount; ++i) {
        const std::uint8_t* in = encoded.pixels.data() + i * std::size_t(encoded.channels);
        float* out = image.pixels.data() + i * ImageF::kChannels;
        out[0] = toLinear[in[0]];
        out[1] = toLinear[in[hasColour ? 1 : 0]];
        out[2] = toLinear[in[hasColour ? 2 : 0]];
        out[3] = hasAlpha ? float(in[encoded.channels - 1]) / 255.0f : 1.0f;
    }
    return image;
}

Image8 encodeSrgb8(const ImageF& linear, int channels)
{
    if (channels != 3 && channels != 4)
        throw ImageError(util::format("encodeSrgb8: {} channels requested (3 or 4)", channels));
    if (linear.pixels.size() != std::size_t(linear.width) * std::size_t(linear.height) * ImageF::kChannels)
        throw ImageError(util::format("encodeSrgb8: inconsistent image ({}x{}, {} values)", linear.width, linear.height,
                                      linear.pixels.size()));
    auto toByte = [](float value) { return std::uint8_t(std::lround(value * 255.0f)); };
    Image8 encoded(linear.width, linear.height, channels);
    const std::size_t pixelCount = std::size_t(linear.width) * std::size_t(linear.height);
    for (std::size_t i = 0; i < pixelCount; ++i) {
        const float* in = linear.pixels.data() + i * ImageF::kChannels;
        std::uint8_t* out = encoded.pixels.data() + i * std::size_t(channels);
        for (int c = 0; c < 3; ++c)
            out[c] = toByte(linearToSrgb(in[c]));
        if (channels == 4) {
            float alpha = in[3] > 0.0f ? std::min(in[3], 1.0f) : 0.0f;  // NaN -> 0
            out[3] = toByte(alpha);
        }
    }
    return encoded;
}

void writePng(const fs::path& path, const Image8& image)
{
    if (image.channels < 1 || image.channels > 4)
        throwWriteError(path, util::format("image has {} channels (1..4)", image.channels));
    if (image.width < 1 || image.height < 1 || image.width > kMaxImageDimension || image.height > kMaxImageDimension)
        throwWriteError(path, util::format("cannot store an image of {}x{} pixels", image.width, image.height));
    if (image.pixels.size() != std::size_t(image.width) * std::size_t(image.height) * std::size_t(image.channels))
        throwWriteError(path, util::format("image data has {} bytes, expected {}x{}x{}", image.pixels.size(),
                                           image.width, image.height, image.channels));
    std::string encoded;
    auto append = [](void* context, void* data, int size) {
        static_cast<std::string*>(context)->append(static_cast<const char*>(data), std::size_t(size));
    };
    if (!stbi_write_png_to_func(append, &encoded, image.width, image.height, image.channels, image.pixels.data(),
                                image.width * image.channels))
        throwWriteError(path, "PNG encoding failed");
    writeBytes(path, encoded);
}

void writeExr(const fs::path& path, const ImageF& image, ExrPixelType pixelType)
{
    if (image.width < 1 || image.height < 1 || image.width > kMaxImageDimension || image.height > kMaxImageDimension)
        throwWriteError(path, util::format("cannot store an image of {}x{} pixels", image.width, image.height));
    if (image.pixels.size() != std::size_t(image.width) * std::size_t(image.height) * ImageF::kChannels)
        throwWriteError(path, util::format("image data has {} values, expected {}x{}x4", image.pixels.size(),
                                           image.width, image.height));
    std::string encoded;
    try {
        encoded = detail::encodeOpenExr(image, pixelType == ExrPixelType::Half);
    } catch (const std::exception& error) {
        throwWriteError(path, error.what());
    }
    writeBytes(path, encoded);
}

}  // namespace image

namespace image {

ExrPixelType exrPixelTypeKeeping(bool halfFloatFrame, const std::vector<float>& values)
{
    if (!halfFloatFrame)
        return ExrPixelType::Float;
    constexpr float kHalfMax = 65504.0f;
    for (float v : values)
        if (std::isfinite(v) && std::abs(v) > kHalfMax)
            return ExrPixelType::Float;
    return ExrPixelType::Half;
}

}  // namespace image
