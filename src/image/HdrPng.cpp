#include "image/HdrPng.h"

#include "image/ImageIo.h"
#include "util/OutputFile.h"

#include <stb_image.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iterator>

// stb_image_write's deflate (defined by libstb or StbImplementation.cpp; C linkage, malloc'd result).
extern "C" unsigned char* stbi_zlib_compress(unsigned char* data, int dataLength, int* outLength, int quality);

namespace image {

namespace {

constexpr double kPqM1 = 2610.0 / 16384.0;
constexpr double kPqM2 = 2523.0 / 4096.0 * 128.0;
constexpr double kPqC1 = 3424.0 / 4096.0;
constexpr double kPqC2 = 2413.0 / 4096.0 * 32.0;
constexpr double kPqC3 = 2392.0 / 4096.0 * 32.0;
constexpr double kPqPeak = 10000.0;

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& reason)
{
    throw ImageError("'" + path.string() + "': " + reason);
}

std::uint32_t crc32(const std::uint8_t* bytes, std::size_t size, std::uint32_t crc = 0xffffffffu)
{
    static const std::array<std::uint32_t, 256> table = [] {
        std::array<std::uint32_t, 256> t{};
        for (std::uint32_t n = 0; n < 256; ++n) {
            std::uint32_t c = n;
            for (int k = 0; k < 8; ++k)
                c = (c & 1u) ? 0xedb88320u ^ (c >> 1) : c >> 1;
            t[n] = c;
        }
        return t;
    }();
    for (std::size_t i = 0; i < size; ++i)
        crc = table[(crc ^ bytes[i]) & 0xffu] ^ (crc >> 8);
    return crc;
}

void putU32(std::vector<std::uint8_t>& out, std::uint32_t v)
{
    for (int shift = 24; shift >= 0; shift -= 8)
        out.push_back(std::uint8_t(v >> shift));
}
void putU16(std::vector<std::uint8_t>& out, std::uint16_t v)
{
    out.push_back(std::uint8_t(v >> 8));
    out.push_back(std::uint8_t(v));
}

void putChunk(std::string& file, const char (&type)[5], const std::vector<std::uint8_t>& data)
{
    std::vector<std::uint8_t> bytes;
    putU32(bytes, std::uint32_t(data.size()));
    bytes.insert(bytes.end(), type, type + 4);
    bytes.insert(bytes.end(), data.begin(), data.end());
    putU32(bytes, crc32(bytes.data() + 4, bytes.size() - 4) ^ 0xffffffffu);
    file.append(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

std::uint32_t units(double value, double unit)
{
    return std::uint32_t(std::clamp(std::lround(value / unit), 0L, long(0xffffffffL)));
}

/// The PNG signature and IHDR of a 16-bit image (deflate, adaptive filtering, no interlace).
std::string png16Start(int width, int height, std::uint8_t colourType)
{
    std::string file("\x89PNG\r\n\x1a\n", 8);
    std::vector<std::uint8_t> ihdr;
    putU32(ihdr, std::uint32_t(width));
    putU32(ihdr, std::uint32_t(height));
    ihdr.insert(ihdr.end(), {16, colourType, 0, 0, 0});
    putChunk(file, "IHDR", ihdr);
    return file;
}

/// Deflates the scanlines (each led by its filter byte) into the IDAT chunk, ends the file and writes it.
void finishPng(const std::filesystem::path& path, std::string& file, std::vector<std::uint8_t>& scanlines)
{
    int compressedSize = 0;
    unsigned char* compressed = stbi_zlib_compress(scanlines.data(), int(scanlines.size()), &compressedSize, 8);
    if (!compressed)
        throw ImageError("cannot write '" + path.string() + "': PNG compression failed");
    const std::vector<std::uint8_t> idat(compressed, compressed + compressedSize);
    std::free(compressed);
    putChunk(file, "IDAT", idat);
    putChunk(file, "IEND", {});
    try {
        util::writeFileAtomically(path, file);
    } catch (const std::exception& error) {
        throw ImageError(error.what());
    }
}

}  // namespace

double pqEncode(double nits)
{
    if (!(nits > 0.0))
        return 0.0;  // also NaN
    const double y = std::pow(std::min(nits / kPqPeak, 1.0), kPqM1);
    return std::pow((kPqC1 + kPqC2 * y) / (1.0 + kPqC3 * y), kPqM2);
}

double pqDecode(double signal)
{
    if (!(signal > 0.0))
        return 0.0;
    const double e = std::pow(std::min(signal, 1.0), 1.0 / kPqM2);
    return kPqPeak * std::pow(std::max(e - kPqC1, 0.0) / (kPqC2 - kPqC3 * e), 1.0 / kPqM1);
}

std::uint16_t pqCode16(double nits)
{
    return std::uint16_t(std::lround(pqEncode(nits) * 65535.0));
}

Hdr10Metadata contentLightLevels(const ImageF& nits, double masteringMaxNits)
{
    Hdr10Metadata m;
    m.masteringMaxNits = masteringMaxNits;
    double sum = 0.0;
    const std::size_t pixels = std::size_t(nits.width) * std::size_t(nits.height);
    for (std::size_t i = 0; i < pixels; ++i) {
        const float* p = nits.pixels.data() + i * 4;
        double largest = std::max({double(p[0]), double(p[1]), double(p[2]), 0.0});
        if (!std::isfinite(largest))
            largest = 0.0;
        m.maxContentLightLevel = std::max(m.maxContentLightLevel, largest);
        sum += largest;
    }
    m.maxFrameAverageLightLevel = pixels ? sum / double(pixels) : 0.0;
    return m;
}

void writeHdr10Png(const std::filesystem::path& path, const ImageF& nits, const Hdr10Metadata& metadata)
{
    if (nits.width < 1 || nits.height < 1 || nits.width > kMaxImageDimension || nits.height > kMaxImageDimension ||
        nits.pixels.size() != std::size_t(nits.width) * std::size_t(nits.height) * 4)
        throw ImageError("cannot write '" + path.string() + "': not an image of 1.." +
                         std::to_string(kMaxImageDimension) + " pixels a side");
    // Scanlines: filter byte 0 ("none"), then R, G, B as big-endian 16-bit PQ codes.
    const std::size_t rowBytes = 1 + std::size_t(nits.width) * 6;
    std::vector<std::uint8_t> raw(rowBytes * std::size_t(nits.height));
    for (int y = 0; y < nits.height; ++y) {
        std::uint8_t* row = raw.data() + rowBytes * std::size_t(y);
        row[0] = 0;
        for (int x = 0; x < nits.width; ++x)
            for (int c = 0; c < 3; ++c) {
                const std::uint16_t code =
                    pqCode16(nits.pixels[(std::size_t(y) * std::size_t(nits.width) + std::size_t(x)) * 4 + c]);
                row[1 + std::size_t(x) * 6 + std::size_t(c) * 2] = std::uint8_t(code >> 8);
                row[2 + std::size_t(x) * 6 + std::size_t(c) * 2] = std::uint8_t(code);
            }
    }
    std::string file = png16Start(nits.width, nits.height, 2);  // RGB
    putChunk(file, "cICP", {9, 16, 0, 1});                      // BT.2020 primaries, PQ, RGB (no matrix), full range
    std::vector<std::uint8_t> mdcv;
    const double primaries[4][2] = {{0.708, 0.292}, {0.170, 0.797}, {0.131, 0.046}, {0.3127, 0.3290}};  // R G B white
    for (const auto& xy : primaries) {
        putU16(mdcv, std::uint16_t(units(xy[0], 0.00002)));
        putU16(mdcv, std::uint16_t(units(xy[1], 0.00002)));
    }
    putU32(mdcv, units(metadata.masteringMaxNits, 0.0001));
    putU32(mdcv, units(metadata.masteringMinNits, 0.0001));
    putChunk(file, "mDCV", mdcv);
    std::vector<std::uint8_t> clli;
    putU32(clli, units(metadata.maxContentLightLevel, 0.0001));
    putU32(clli, units(metadata.maxFrameAverageLightLevel, 0.0001));
    putChunk(file, "cLLI", clli);
    finishPng(path, file, raw);
}

std::vector<PngChunk> readPngChunks(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        fail(path, "cannot open");
    const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    static const std::uint8_t signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (bytes.size() < 8 || !std::equal(signature, signature + 8, bytes.begin()))
        fail(path, "not a PNG file");
    std::vector<PngChunk> chunks;
    std::size_t at = 8;
    auto u32 = [&](std::size_t i) {
        return std::uint32_t(bytes[i]) << 24 | std::uint32_t(bytes[i + 1]) << 16 | std::uint32_t(bytes[i + 2]) << 8 |
               std::uint32_t(bytes[i + 3]);
    };
    while (at + 12 <= bytes.size()) {
        const std::uint32_t length = u32(at);
        if (length > bytes.size() - at - 12)
            fail(path, "a chunk runs past the end of the file");
        PngChunk chunk;
        chunk.type.assign(bytes.begin() + std::ptrdiff_t(at + 4), bytes.begin() + std::ptrdiff_t(at + 8));
        chunk.data.assign(bytes.begin() + std::ptrdiff_t(at + 8), bytes.begin() + std::ptrdiff_t(at + 8 + length));
        chunk.crcOk = (crc32(bytes.data() + at + 4, length + 4) ^ 0xffffffffu) == u32(at + 8 + length);
        chunks.push_back(std::move(chunk));
        at += 12 + length;
        if (chunks.back().type == "IEND")
            return chunks;
    }
    fail(path, "no IEND chunk (cut short)");
}

Image16 loadPng16(const std::filesystem::path& path)
{
    int w = 0, h = 0, n = 0;
    stbi_us* data = stbi_load_16(path.string().c_str(), &w, &h, &n, 3);
    if (!data)
        fail(path, std::string("cannot decode: ") + stbi_failure_reason());
    Image16 image{w, h, std::vector<std::uint16_t>(data, data + std::size_t(w) * std::size_t(h) * 3)};
    stbi_image_free(data);
    return image;
}

bool isPng16(const std::filesystem::path& path)
{
    // The signature, then IHDR first: length, "IHDR", width, height, bit depth at byte 24.
    std::ifstream in(path, std::ios::binary);
    std::array<char, 25> head{};
    if (!in || !in.read(head.data(), std::streamsize(head.size())))
        return false;
    static const char signature[9] = "\x89PNG\r\n\x1a\n";
    return std::equal(signature, signature + 8, head.begin()) && std::string(head.data() + 12, 4) == "IHDR" &&
           std::uint8_t(head[24]) == 16;
}

Png16 loadPng16Samples(const std::filesystem::path& path)
{
    std::error_code error;
    const std::uintmax_t bytes = std::filesystem::file_size(path, error);
    if (error)
        fail(path, "cannot open: " + error.message());
    if (bytes > kMaxFileBytes)
        fail(path, "file of " + std::to_string(bytes) + " bytes is too large (limit " + std::to_string(kMaxFileBytes) +
                       " bytes)");
    int w = 0, h = 0, n = 0;
    if (!stbi_info(path.string().c_str(), &w, &h, &n))
        fail(path, std::string("cannot decode: ") + stbi_failure_reason());
    if (w > kMaxImageDimension || h > kMaxImageDimension)
        fail(path, std::to_string(w) + "x" + std::to_string(h) + " is larger than " +
                       std::to_string(kMaxImageDimension) + " pixels a side");
    stbi_us* data = stbi_load_16(path.string().c_str(), &w, &h, &n, 0);
    if (!data)
        fail(path, std::string("cannot decode: ") + stbi_failure_reason());
    Png16 image{w, h, n, std::vector<std::uint16_t>(data, data + std::size_t(w) * std::size_t(h) * std::size_t(n))};
    stbi_image_free(data);
    return image;
}

void writePng16(const std::filesystem::path& path, const Png16& image)
{
    static const std::uint8_t colourTypes[5] = {0, 0, 4, 2, 6};  // by channel count
    if (image.width < 1 || image.height < 1 || image.width > kMaxImageDimension || image.height > kMaxImageDimension ||
        image.channels < 1 || image.channels > 4 ||
        image.samples.size() != std::size_t(image.width) * std::size_t(image.height) * std::size_t(image.channels))
        throw ImageError("cannot write '" + path.string() + "': not an image of 1..4 channels and 1.." +
                         std::to_string(kMaxImageDimension) + " pixels a side");
    const std::size_t rowSamples = std::size_t(image.width) * std::size_t(image.channels);
    const std::size_t rowBytes = 1 + rowSamples * 2;
    std::vector<std::uint8_t> raw(rowBytes * std::size_t(image.height));
    for (std::size_t y = 0; y < std::size_t(image.height); ++y) {
        std::uint8_t* row = raw.data() + rowBytes * y;
        row[0] = 0;  // filter: none
        for (std::size_t i = 0; i < rowSamples; ++i) {
            const std::uint16_t sample = image.samples[y * rowSamples + i];
            row[1 + 2 * i] = std::uint8_t(sample >> 8);  // big-endian
            row[2 + 2 * i] = std::uint8_t(sample);
        }
    }
    std::string file = png16Start(image.width, image.height, colourTypes[image.channels]);
    finishPng(path, file, raw);
}

}  // namespace image
