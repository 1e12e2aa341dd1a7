// MakeSeeds.cpp: writes the generated seed files of the fuzz corpus (tests/fuzz/corpus/<target>/
// gen-*), tiny valid images covering each decoder path, so that libFuzzer starts from inputs that
// reach deep into every codec (EXR: each compression (tinyexr-written, plus OpenEXR-written files
// for what tinyexr cannot write: PXR24, B44A, DWAA, luminance-chroma, multi-part, multi-view, deep), half/float/uint,
// scanline and tiled, mipmaps and ripmaps, line orders, display windows; .hdr: flat, new- and old-style RLE, units
// header lines, XYZE, column scanlines; PNG: every colour type and bit depth, palette, Adam7; JPEG, BMP, GIF). The
// hand-written seeds (scene JSON, damaged files, seed-*) and the crash regressions (regress-*) sit beside them. Run:
// scripts/fuzz.sh seeds (rewrites gen-* only).
#include "FuzzEntryPoints.h"
#include "image/ImageIo.h"

#include <ImfArray.h>
#include <ImfChannelList.h>
#include <ImfDeepFrameBuffer.h>
#include <ImfDeepScanLineOutputFile.h>
#include <ImfDeepTiledOutputFile.h>
#include <ImfFrameBuffer.h>
#include <ImfHeader.h>
#include <ImfMultiPartOutputFile.h>
#include <ImfMultiView.h>
#include <ImfOutputFile.h>
#include <ImfOutputPart.h>
#include <ImfPartType.h>
#include <ImfRgbaFile.h>
#include <ImfStandardAttributes.h>
#include <ImfTiledOutputFile.h>
#include <ImfTiledOutputPart.h>
#include <stb_image_write.h>
#include <tinyexr.h>
#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace {
namespace fs = std::filesystem;

fs::path gRoot;
int gWritten = 0;

void save(const std::string& target, const std::string& name, const std::string& bytes)
{
    fs::create_directories(gRoot / target);
    std::ofstream out(gRoot / target / ("gen-" + name), std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), std::streamsize(bytes.size()));
    if (!out)
        throw std::runtime_error("cannot write " + name);
    ++gWritten;
}

float sampleValue(int x, int y, int channel)
{
    // Values spanning a wide range (an HDR image's point), distinct per pixel and channel.
    return float((x + 1) * (channel + 1)) * (y % 2 ? 37.5f : 0.0625f);
}

// ---- OpenEXR (through tinyexr's writer, then patched for what it cannot write) ----

struct ExrChannel
{
    const char* name;
    int storedType;  ///< TINYEXR_PIXELTYPE_*
};

std::string saveExr(EXRImage& image, EXRHeader& header)
{
    unsigned char* memory = nullptr;
    const char* message = nullptr;
    std::size_t size = SaveEXRImageToMemory(&image, &header, &memory, &message);
    if (size == 0) {
        std::string reason = message ? message : "unknown";
        FreeEXRErrorMessage(message);
        throw std::runtime_error("tinyexr: " + reason);
    }
    std::string bytes(reinterpret_cast<const char*>(memory), size);
    std::free(memory);
    return bytes;
}

/// Per-channel input planes: UINT channels take uint32 input, the others float.
struct Planes
{
    std::vector<std::vector<std::uint32_t>> storage;
    std::vector<unsigned char*> pointers;

    Planes(const std::vector<ExrChannel>& channels, int width, int height, int x0 = 0, int y0 = 0, int level = 0)
    {
        for (std::size_t c = 0; c < channels.size(); ++c) {
            std::vector<std::uint32_t> plane(std::size_t(width) * std::size_t(height));
            for (int y = 0; y < height; ++y) {
                for (int x = 0; x < width; ++x) {
                    float value = sampleValue(x0 + x + level, y0 + y, int(c));
                    std::uint32_t bits = 0;
                    if (channels[c].storedType == TINYEXR_PIXELTYPE_UINT)
                        bits = std::uint32_t(value * 16.0f);
                    else
                        std::memcpy(&bits, &value, 4);
                    plane[std::size_t(y) * std::size_t(width) + std::size_t(x)] = bits;
                }
            }
            storage.push_back(std::move(plane));
        }
        for (auto& plane : storage)
            pointers.push_back(reinterpret_cast<unsigned char*>(plane.data()));
    }
};

struct ExrHeaderData
{
    std::vector<EXRChannelInfo> infos;
    std::vector<int> inputTypes;
    std::vector<int> storedTypes;
    EXRHeader header;

    ExrHeaderData(const std::vector<ExrChannel>& channels, int compression, int width, int height)
        : infos(channels.size()), inputTypes(channels.size()), storedTypes(channels.size())
    {
        InitEXRHeader(&header);
        for (std::size_t c = 0; c < channels.size(); ++c) {
            std::strncpy(infos[c].name, channels[c].name, sizeof(infos[c].name) - 1);
            storedTypes[c] = channels[c].storedType;
            inputTypes[c] =
                channels[c].storedType == TINYEXR_PIXELTYPE_UINT ? TINYEXR_PIXELTYPE_UINT : TINYEXR_PIXELTYPE_FLOAT;
        }
        header.num_channels = int(channels.size());
        header.channels = infos.data();
        header.pixel_types = inputTypes.data();
        header.requested_pixel_types = storedTypes.data();
        header.compression_type = compression;
        header.data_window.max_x = width - 1;
        header.data_window.max_y = height - 1;
        header.display_window = header.data_window;
    }
};

std::string scanlineExr(const std::vector<ExrChannel>& channels, int width, int height, int compression)
{
    ExrHeaderData data(channels, compression, width, height);
    Planes planes(channels, width, height);
    EXRImage image;
    InitEXRImage(&image);
    image.images = planes.pointers.data();
    image.width = width;
    image.height = height;
    image.num_channels = int(channels.size());
    return saveExr(image, data.header);
}

/// A tiled file; levelMode ONE_LEVEL, MIPMAP or RIPMAP (rounding down).
std::string tiledExr(const std::vector<ExrChannel>& channels,
                     int width,
                     int height,
                     int tileWidth,
                     int tileHeight,
                     int levelMode,
                     int compression)
{
    ExrHeaderData data(channels, compression, width, height);
    data.header.tiled = 1;
    data.header.tile_size_x = tileWidth;
    data.header.tile_size_y = tileHeight;
    data.header.tile_level_mode = levelMode;

    auto levelCount = [](int size) {
        int levels = 1;
        while (size > 1) {
            size /= 2;
            ++levels;
        }
        return levels;
    };
    std::vector<std::pair<int, int>> levels;  // (levelX, levelY) in tinyexr's order
    if (levelMode == TINYEXR_TILE_ONE_LEVEL) {
        levels.push_back({0, 0});
    } else if (levelMode == TINYEXR_TILE_MIPMAP_LEVELS) {
        for (int l = 0; l < levelCount(std::max(width, height)); ++l)
            levels.push_back({l, l});
    } else {
        for (int ly = 0; ly < levelCount(height); ++ly)
            for (int lx = 0; lx < levelCount(width); ++lx)
                levels.push_back({lx, ly});
    }

    std::vector<EXRImage> images(levels.size());
    std::vector<std::vector<EXRTile>> tiles(levels.size());
    std::vector<std::unique_ptr<Planes>> planes;
    for (std::size_t l = 0; l < levels.size(); ++l) {
        int levelWidth = std::max(1, width >> levels[l].first);
        int levelHeight = std::max(1, height >> levels[l].second);
        int tilesX = (levelWidth + tileWidth - 1) / tileWidth;
        int tilesY = (levelHeight + tileHeight - 1) / tileHeight;
        for (int ty = 0; ty < tilesY; ++ty) {
            for (int tx = 0; tx < tilesX; ++tx) {
                planes.push_back(
                    std::make_unique<Planes>(channels, tileWidth, tileHeight, tx * tileWidth, ty * tileHeight, int(l)));
                EXRTile tile{};
                tile.offset_x = tx;
                tile.offset_y = ty;
                tile.level_x = levels[l].first;
                tile.level_y = levels[l].second;
                tile.width = std::min(tileWidth, levelWidth - tx * tileWidth);
                tile.height = std::min(tileHeight, levelHeight - ty * tileHeight);
                tile.images = planes.back()->pointers.data();
                tiles[l].push_back(tile);
            }
        }
        InitEXRImage(&images[l]);
        images[l].tiles = tiles[l].data();
        images[l].num_tiles = int(tiles[l].size());
        images[l].level_x = levels[l].first;
        images[l].level_y = levels[l].second;
        images[l].width = levelWidth;
        images[l].height = levelHeight;
        images[l].num_channels = int(channels.size());
        images[l].next_level = l + 1 < levels.size() ? &images[l + 1] : nullptr;
    }
    return saveExr(images[0], data.header);
}

/// Offset of the value of header attribute `name` (tinyexr writes each once).
std::size_t attributeValue(const std::string& file, const std::string& name, const std::string& type)
{
    std::string key = name + '\0' + type + '\0';
    std::size_t at = file.find(key);
    if (at == std::string::npos)
        throw std::runtime_error("no attribute " + name);
    return at + key.size() + 4;
}

void putInt32(std::string& file, std::size_t at, std::int32_t value)
{
    for (int i = 0; i < 4; ++i)
        file[at + std::size_t(i)] = char((std::uint32_t(value) >> (8 * i)) & 0xff);
}

void makeExrSeeds()
{
    const std::vector<ExrChannel> rgbaHalf = {{"A", TINYEXR_PIXELTYPE_HALF},
                                              {"B", TINYEXR_PIXELTYPE_HALF},
                                              {"G", TINYEXR_PIXELTYPE_HALF},
                                              {"R", TINYEXR_PIXELTYPE_HALF}};
    const std::vector<ExrChannel> rgbFloat = {
        {"B", TINYEXR_PIXELTYPE_FLOAT}, {"G", TINYEXR_PIXELTYPE_FLOAT}, {"R", TINYEXR_PIXELTYPE_FLOAT}};
    const std::vector<ExrChannel> mixed = {
        {"B", TINYEXR_PIXELTYPE_HALF}, {"G", TINYEXR_PIXELTYPE_FLOAT}, {"R", TINYEXR_PIXELTYPE_UINT}};
    const std::vector<ExrChannel> grey = {{"Y", TINYEXR_PIXELTYPE_HALF}};
    const std::vector<ExrChannel> layer = {{"diffuse.B", TINYEXR_PIXELTYPE_HALF},
                                           {"diffuse.G", TINYEXR_PIXELTYPE_HALF},
                                           {"diffuse.R", TINYEXR_PIXELTYPE_HALF},
                                           {"depth.Z", TINYEXR_PIXELTYPE_FLOAT}};
    const std::vector<ExrChannel> single = {{"Z", TINYEXR_PIXELTYPE_UINT}};

    save("exr", "none-rgba-half.exr", scanlineExr(rgbaHalf, 3, 2, TINYEXR_COMPRESSIONTYPE_NONE));
    save("exr", "rle-rgb-float.exr", scanlineExr(rgbFloat, 5, 3, TINYEXR_COMPRESSIONTYPE_RLE));
    save("exr", "zips-mixed-types.exr", scanlineExr(mixed, 4, 3, TINYEXR_COMPRESSIONTYPE_ZIPS));
    save("exr", "zip-two-blocks.exr", scanlineExr(rgbaHalf, 3, 17, TINYEXR_COMPRESSIONTYPE_ZIP));
    save("exr", "piz-rgb-half.exr",
         scanlineExr({rgbaHalf.begin() + 1, rgbaHalf.end()}, 6, 5, TINYEXR_COMPRESSIONTYPE_PIZ));
    save("exr", "piz-float-two-blocks.exr", scanlineExr(rgbFloat, 3, 33, TINYEXR_COMPRESSIONTYPE_PIZ));
    save("exr", "none-grey-y.exr", scanlineExr(grey, 2, 2, TINYEXR_COMPRESSIONTYPE_NONE));
    save("exr", "rle-layer.exr", scanlineExr(layer, 3, 2, TINYEXR_COMPRESSIONTYPE_RLE));
    save("exr", "zip-single-uint.exr", scanlineExr(single, 2, 3, TINYEXR_COMPRESSIONTYPE_ZIP));
    save("exr", "tiled-one-level-zip.exr",
         tiledExr(rgbaHalf, 5, 3, 2, 2, TINYEXR_TILE_ONE_LEVEL, TINYEXR_COMPRESSIONTYPE_ZIP));
    save("exr", "tiled-mipmap-none.exr",
         tiledExr(grey, 5, 4, 2, 2, TINYEXR_TILE_MIPMAP_LEVELS, TINYEXR_COMPRESSIONTYPE_NONE));
    save("exr", "tiled-ripmap-rle.exr",
         tiledExr(rgbFloat, 4, 2, 2, 1, TINYEXR_TILE_RIPMAP_LEVELS, TINYEXR_COMPRESSIONTYPE_RLE));
    save("exr", "tiled-piz.exr", tiledExr(mixed, 4, 4, 4, 2, TINYEXR_TILE_ONE_LEVEL, TINYEXR_COMPRESSIONTYPE_PIZ));

    // What tinyexr's writer cannot produce: other line orders, a data window off the origin inside
    // a larger display window.
    std::string decreasing = scanlineExr(rgbFloat, 3, 4, TINYEXR_COMPRESSIONTYPE_NONE);
    decreasing[attributeValue(decreasing, "lineOrder", "lineOrder")] = 1;
    save("exr", "none-decreasing-y.exr", decreasing);
    std::string tiledRandom = tiledExr(rgbaHalf, 3, 3, 2, 2, TINYEXR_TILE_ONE_LEVEL, TINYEXR_COMPRESSIONTYPE_NONE);
    tiledRandom[attributeValue(tiledRandom, "lineOrder", "lineOrder")] = 2;
    save("exr", "tiled-random-y.exr", tiledRandom);
    std::string framed = scanlineExr(rgbaHalf, 3, 2, TINYEXR_COMPRESSIONTYPE_ZIPS);
    std::size_t display = attributeValue(framed, "displayWindow", "box2i");
    putInt32(framed, display + 0, -2);
    putInt32(framed, display + 4, -1);
    putInt32(framed, display + 8, 4);
    putInt32(framed, display + 12, 3);
    save("exr", "zips-display-window.exr", framed);
    save("exr", "truncated.exr", framed.substr(0, framed.size() - 9));
}

// ---- Radiance .hdr (stb_image_write writes flat or RLE scanlines by width) ----

void appendToString(void* context, void* data, int size)
{
    static_cast<std::string*>(context)->append(static_cast<const char*>(data), std::size_t(size));
}

std::string radiance(int width, int height)
{
    std::vector<float> rgb(std::size_t(width) * std::size_t(height) * 3);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x)
            for (int c = 0; c < 3; ++c)
                rgb[(std::size_t(y) * std::size_t(width) + std::size_t(x)) * 3 + std::size_t(c)] =
                    sampleValue(x % 5, y, c);
    std::string bytes;
    if (!stbi_write_hdr_to_func(appendToString, &bytes, width, height, 3, rgb.data()))
        throw std::runtime_error("stbi_write_hdr failed");
    return bytes;
}

void makeHdrSeeds()
{
    save("hdr", "flat.hdr", radiance(3, 2));  // widths below 8 are stored flat
    save("hdr", "rle.hdr", radiance(12, 2));  // new-style run-length scanlines
    // Other header forms: the #?RGBE magic, +Y (bottom-up rows).
    std::string rgbe = radiance(3, 2);
    rgbe.replace(0, 11, "#?RGBE\n");
    save("hdr", "rgbe-magic.hdr", rgbe);
    std::string flipped = radiance(9, 1);
    std::size_t size = flipped.find("-Y ");
    flipped.replace(size, 3, "+Y ");
    save("hdr", "plus-y.hdr", flipped);
    std::string rle = radiance(12, 3);
    save("hdr", "truncated-rle.hdr", rle.substr(0, rle.size() - 20));
    // What stb_image_write never writes: the header lines that carry units, XYZE, column-major
    // scanlines, and old-style run-length markers (1,1,1,n repeats the pixel before).
    const std::string pixel("\x80\x40\x01\x81", 4), repeat("\x01\x01\x01\x03", 4);
    save("hdr", "units-header.hdr",
         "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\nEXPOSURE=2\nEXPOSURE=0.5\nPRIMARIES= 0.640 0.330 0.300 0.600 0.150 "
         "0.060 0.3127 0.3290\nPIXASPECT=1\nCOLORCORR= 1 1 1\nVIEW= -vtv -vh 45\nSOFTWARE=hdrlab seeds\n\n-Y 2 +X 2\n" +
             pixel + repeat.substr(0, 3) + "\x01" + pixel + pixel);
    save("hdr", "xyze.hdr", "#?RADIANCE\nFORMAT=32-bit_rle_xyze\n\n-Y 1 +X 2\n" + pixel + pixel);
    save("hdr", "columns.hdr", "#?RADIANCE\n\n-X 3 +Y 1\n" + pixel + pixel + pixel);
    save("hdr", "old-rle.hdr",
         "#?RADIANCE\n\n-Y 2 +X 10\n" + pixel + repeat + repeat + repeat + pixel + repeat + repeat);
}

// ---- PNG (built by hand for the colour types stb_image_write does not write), JPEG, BMP, GIF ----

void appendBigEndian(std::string& out, std::uint32_t value)
{
    for (int shift = 24; shift >= 0; shift -= 8)
        out += char((value >> shift) & 0xff);
}

void appendChunk(std::string& png, const char* type, const std::string& data)
{
    appendBigEndian(png, std::uint32_t(data.size()));
    std::string typed = std::string(type, 4) + data;
    png += typed;
    appendBigEndian(png, std::uint32_t(crc32(0, reinterpret_cast<const Bytef*>(typed.data()), uInt(typed.size()))));
}

/// A PNG from raw scanlines (filter byte included in `raw`).
std::string png(int width,
                int height,
                int bitDepth,
                int colourType,
                int interlace,
                const std::string& raw,
                const std::string& palette = {},
                const std::string& transparency = {})
{
    std::string result("\x89PNG\r\n\x1a\n", 8);
    std::string header;
    appendBigEndian(header, std::uint32_t(width));
    appendBigEndian(header, std::uint32_t(height));
    header += char(bitDepth);
    header += char(colourType);
    header += '\0';  // deflate
    header += '\0';  // adaptive filtering
    header += char(interlace);
    appendChunk(result, "IHDR", header);
    if (!palette.empty())
        appendChunk(result, "PLTE", palette);
    if (!transparency.empty())
        appendChunk(result, "tRNS", transparency);
    uLongf packedSize = compressBound(uLong(raw.size()));
    std::string packed(packedSize, '\0');
    if (compress2(reinterpret_cast<Bytef*>(packed.data()), &packedSize, reinterpret_cast<const Bytef*>(raw.data()),
                  uLong(raw.size()), 9) != Z_OK)
        throw std::runtime_error("zlib compress failed");
    packed.resize(packedSize);
    appendChunk(result, "IDAT", packed);
    appendChunk(result, "IEND", "");
    return result;
}

/// `rows` scanlines of `rowBytes` bytes each, every row with filter type `filter` (0..4).
std::string scanlines(int rows, int rowBytes, int filter)
{
    std::string raw;
    for (int y = 0; y < rows; ++y) {
        raw += char(filter);
        for (int x = 0; x < rowBytes; ++x)
            raw += char((x * 37 + y * 11) & 0xff);
    }
    return raw;
}

/// Adam7 passes of a width x height image with `bytesPerPixel` whole bytes per pixel.
std::string adam7(int width, int height, int bytesPerPixel)
{
    static const int kStart[7][2] = {{0, 0}, {4, 0}, {0, 4}, {2, 0}, {0, 2}, {1, 0}, {0, 1}};
    static const int kStep[7][2] = {{8, 8}, {8, 8}, {4, 8}, {4, 4}, {2, 4}, {2, 2}, {1, 2}};
    std::string raw;
    for (int pass = 0; pass < 7; ++pass) {
        int passWidth = (width - kStart[pass][0] + kStep[pass][0] - 1) / kStep[pass][0];
        int passHeight = (height - kStart[pass][1] + kStep[pass][1] - 1) / kStep[pass][1];
        if (passWidth > 0 && passHeight > 0)
            raw += scanlines(passHeight, passWidth * bytesPerPixel, pass % 5);
    }
    return raw;
}

std::string stbWritten(int (*write)(stbi_write_func*, void*, int, int, int, const void*),
                       int width,
                       int height,
                       int channels)
{
    std::vector<std::uint8_t> pixels(std::size_t(width) * std::size_t(height) * std::size_t(channels));
    for (std::size_t i = 0; i < pixels.size(); ++i)
        pixels[i] = std::uint8_t((i * 53) & 0xff);
    std::string bytes;
    if (!write(appendToString, &bytes, width, height, channels, pixels.data()))
        throw std::runtime_error("stb_image_write failed");
    return bytes;
}

int writePng(stbi_write_func* f, void* c, int w, int h, int n, const void* data)
{
    return stbi_write_png_to_func(f, c, w, h, n, data, w * n);
}
int writeBmp(stbi_write_func* f, void* c, int w, int h, int n, const void* data)
{
    return stbi_write_bmp_to_func(f, c, w, h, n, data);
}
int writeJpeg(stbi_write_func* f, void* c, int w, int h, int n, const void* data)
{
    return stbi_write_jpg_to_func(f, c, w, h, n, data, 90);
}

void makePngSeeds()
{
    save("png", "grey.png", stbWritten(writePng, 3, 2, 1));
    save("png", "grey-alpha.png", stbWritten(writePng, 2, 2, 2));
    save("png", "rgb.png", stbWritten(writePng, 4, 3, 3));
    const std::string rgba = stbWritten(writePng, 3, 3, 4);
    save("png", "rgba.png", rgba);
    save("png", "truncated.png", rgba.substr(0, rgba.size() - 20));
    save("png", "rgb16-filters.png",
         png(3, 5, 16, 2, 0,
             scanlines(1, 18, 0) + scanlines(1, 18, 1) + scanlines(1, 18, 2) + scanlines(1, 18, 3) +
                 scanlines(1, 18, 4)));
    save("png", "grey1.png", png(9, 2, 1, 0, 0, scanlines(2, 2, 0)));
    save("png", "palette4-trns.png",
         png(5, 2, 4, 3, 0, scanlines(2, 3, 1), std::string("\xff\0\0\0\xff\0\0\0\xff\x10\x20\x30", 12),
             std::string("\x80\0", 2)));
    save("png", "adam7-rgba.png", png(9, 9, 8, 6, 1, adam7(9, 9, 4)));
    save("png", "adam7-grey16.png", png(5, 3, 16, 0, 1, adam7(5, 3, 2)));
    save("png", "jpeg.jpg", stbWritten(writeJpeg, 9, 9, 3));
    save("png", "bmp.bmp", stbWritten(writeBmp, 3, 2, 4));
    // The smallest GIF: 1x1, one colour of a 2-entry table, LZW minimum code size 2.
    save("png", "gif.gif",
         std::string("GIF89a\x01\0\x01\0\x80\0\0\xff\x80\x00\0\0\0,\0\0\0\0\x01\0\x01\0\0\x02\x02\x44\x01\0;", 35));
}

}  // namespace

// ---- OpenEXR (through the reference library, for what tinyexr cannot write) ----

fs::path openExrSeedPath(const std::string& name)
{
    fs::create_directories(gRoot / "exr");
    ++gWritten;
    return gRoot / "exr" / ("gen-openexr-" + name + ".exr");
}

void makeOpenExrLibrarySeeds()
{
    constexpr int kWidth = 8;
    constexpr int kHeight = 6;
    const Imath::Box2i window(Imath::V2i(0, 0), Imath::V2i(kWidth - 1, kHeight - 1));
    Imf::Array2D<Imf::Rgba> pixels(kHeight, kWidth);
    for (int y = 0; y < kHeight; ++y)
        for (int x = 0; x < kWidth; ++x)
            pixels[y][x] = Imf::Rgba(sampleValue(x, y, 0), sampleValue(x, y, 1), sampleValue(x, y, 2), 1.0f);
    auto rgbaHeader = [&](Imf::Compression compression) {
        Imf::Header header(window, window, 1.0f, Imath::V2f(0, 0), 1.0f, Imf::INCREASING_Y, compression);
        for (const char* name : {"R", "G", "B", "A"})
            header.channels().insert(name, Imf::Channel(Imf::HALF));
        return header;
    };
    auto rgbaFrame = [&](const std::string& prefix) {
        Imf::FrameBuffer frame;
        const char* names[4] = {"R", "G", "B", "A"};
        for (int c = 0; c < 4; ++c)
            frame.insert(prefix + names[c], Imf::Slice(Imf::HALF, reinterpret_cast<char*>(&pixels[0][0].r + c),
                                                       sizeof(Imf::Rgba), sizeof(Imf::Rgba) * kWidth));
        return frame;
    };
    for (auto [compression, name] : {std::pair{Imf::PXR24_COMPRESSION, "pxr24"},
                                     {Imf::B44A_COMPRESSION, "b44a"},
                                     {Imf::DWAA_COMPRESSION, "dwaa"}}) {
        Imf::OutputFile output(openExrSeedPath(name).c_str(), rgbaHeader(compression));
        output.setFrameBuffer(rgbaFrame(""));
        output.writePixels(kHeight);
    }
    {
        Imf::Header header = rgbaHeader(Imf::B44_COMPRESSION);
        header.setTileDescription(Imf::TileDescription(4, 4, Imf::MIPMAP_LEVELS));
        Imf::TiledOutputFile output(openExrSeedPath("tiled-mipmap-b44").c_str(), header);
        output.setFrameBuffer(rgbaFrame(""));
        for (int level = 0; level < output.numLevels(); ++level)
            output.writeTiles(0, output.numXTiles(level) - 1, 0, output.numYTiles(level) - 1, level);
    }
    {
        Imf::RgbaOutputFile output(openExrSeedPath("luminance-chroma").c_str(), window, window, Imf::WRITE_YCA);
        output.setFrameBuffer(&pixels[0][0], 1, kWidth);
        output.writePixels(kHeight);
    }
    {
        Imf::Header header = rgbaHeader(Imf::ZIP_COMPRESSION);
        for (const char* channel : {"right.R", "right.G", "right.B", "right.A"})
            header.channels().insert(channel, Imf::Channel(Imf::HALF));
        Imf::addMultiView(header, Imf::StringVector{"left", "right"});
        Imf::OutputFile output(openExrSeedPath("multi-view").c_str(), header);
        Imf::FrameBuffer frame = rgbaFrame("");
        Imf::FrameBuffer right = rgbaFrame("right.");
        for (auto it = right.begin(); it != right.end(); ++it)
            frame.insert(it.name(), it.slice());
        output.setFrameBuffer(frame);
        output.writePixels(kHeight);
    }
    {
        Imf::Header depth(window, window);
        depth.setName("depth");
        depth.setType(Imf::SCANLINEIMAGE);
        depth.channels().insert("Z", Imf::Channel(Imf::FLOAT));
        Imf::Header beauty = rgbaHeader(Imf::RLE_COMPRESSION);
        beauty.setName("beauty");
        beauty.setType(Imf::TILEDIMAGE);
        beauty.setTileDescription(Imf::TileDescription(4, 4));
        std::vector<float> zeros(kWidth * kHeight, 0.5f);
        Imf::Header headers[2] = {depth, beauty};
        Imf::MultiPartOutputFile output(openExrSeedPath("multi-part").c_str(), headers, 2);
        Imf::OutputPart depthPart(output, 0);
        Imf::FrameBuffer depthFrame;
        depthFrame.insert(
            "Z", Imf::Slice(Imf::FLOAT, reinterpret_cast<char*>(zeros.data()), sizeof(float), sizeof(float) * kWidth));
        depthPart.setFrameBuffer(depthFrame);
        depthPart.writePixels(kHeight);
        Imf::TiledOutputPart beautyPart(output, 1);
        beautyPart.setFrameBuffer(rgbaFrame(""));
        beautyPart.writeTiles(0, beautyPart.numXTiles() - 1, 0, beautyPart.numYTiles() - 1);
    }
    // Deep: R, G, B, A (half), Z and ZBack (float); pixel i holds i % 4 samples, some of them
    // overlapping volumes, so that the fuzzer starts inside the flattener's sweep. Scanline and tiled.
    for (bool tiled : {false, true}) {
        Imf::Header header(window, window);
        header.setType(tiled ? Imf::DEEPTILE : Imf::DEEPSCANLINE);
        header.compression() = tiled ? Imf::RLE_COMPRESSION : Imf::ZIPS_COMPRESSION;
        if (tiled)
            header.setTileDescription(Imf::TileDescription(4, 4));
        const char* const names[6] = {"R", "G", "B", "A", "Z", "ZBack"};
        for (int c = 0; c < 6; ++c)
            header.channels().insert(names[c], Imf::Channel(c < 4 ? Imf::HALF : Imf::FLOAT));
        std::vector<unsigned int> counts(kWidth * kHeight);
        std::vector<Imath::half> colour;
        std::vector<float> depth;
        for (std::size_t i = 0; i < counts.size(); ++i) {
            counts[i] = unsigned(i % 4);
            for (unsigned s = 0; s < counts[i]; ++s) {
                colour.insert(colour.end(),
                              {Imath::half(0.25f * float(s)), Imath::half(0.5f), Imath::half(1.0f), Imath::half(0.5f)});
                depth.insert(depth.end(), {float(3 - s), float(3 - s) + float(i % 3)});  // unsorted, overlapping
            }
        }
        std::vector<char*> pointers[6];
        std::size_t next = 0;
        for (std::size_t i = 0; i < counts.size(); ++i) {
            for (int c = 0; c < 6; ++c)
                pointers[c].push_back(c < 4 ? reinterpret_cast<char*>(colour.data() + next * 4 + std::size_t(c))
                                            : reinterpret_cast<char*>(depth.data() + next * 2 + std::size_t(c - 4)));
            next += counts[i];
        }
        Imf::DeepFrameBuffer frame;
        frame.insertSampleCountSlice(Imf::Slice(Imf::UINT, reinterpret_cast<char*>(counts.data()), sizeof(unsigned int),
                                                sizeof(unsigned int) * kWidth));
        for (int c = 0; c < 6; ++c)
            frame.insert(names[c],
                         Imf::DeepSlice(c < 4 ? Imf::HALF : Imf::FLOAT, reinterpret_cast<char*>(pointers[c].data()),
                                        sizeof(char*), sizeof(char*) * kWidth,
                                        c < 4 ? 4 * sizeof(Imath::half) : 2 * sizeof(float)));
        if (tiled) {
            Imf::DeepTiledOutputFile output(openExrSeedPath("deep-tiled").c_str(), header);
            output.setFrameBuffer(frame);
            output.writeTiles(0, output.numXTiles() - 1, 0, output.numYTiles() - 1);
        } else {
            Imf::DeepScanLineOutputFile output(openExrSeedPath("deep").c_str(), header);
            output.setFrameBuffer(frame);
            output.writePixels(kHeight);
        }
    }
}

int main(int argc, char** argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s CORPUS_ROOT (tests/fuzz/corpus)\n", argv[0]);
        return 2;
    }
    gRoot = argv[1];
    try {
        makeExrSeeds();
        makeOpenExrLibrarySeeds();
        makeHdrSeeds();
        makePngSeeds();
    } catch (const std::exception& error) {
        std::fprintf(stderr, "make-seeds: %s\n", error.what());
        return 1;
    }
    // Every seed must pass its fuzz entry point; show what each decodes to.
    for (const fuzz::Target& target : fuzz::kTargets) {
        fs::path folder = gRoot / std::string(target.name);
        if (target.name == "scene" || !fs::is_directory(folder))
            continue;
        std::vector<fs::path> seeds;
        for (const fs::directory_entry& entry : fs::directory_iterator(folder)) {
            if (entry.path().filename().string().starts_with("gen-"))
                seeds.push_back(entry.path());
        }
        std::sort(seeds.begin(), seeds.end());
        for (const fs::path& seed : seeds) {
            std::ifstream in(seed, std::ios::binary);
            std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), {});
            target.run(bytes);
            try {
                image::ImageF decoded = image::decodeHdrImage(bytes, seed.filename());
                std::printf("  %-36s %5zu bytes  loads as %dx%d\n", seed.filename().c_str(), bytes.size(),
                            decoded.width, decoded.height);
            } catch (const image::ImageError& error) {
                std::printf("  %-36s %5zu bytes  %s\n", seed.filename().c_str(), bytes.size(), error.what());
            }
        }
    }
    std::printf("make-seeds: wrote %d files under %s\n", gWritten, gRoot.string().c_str());
    return 0;
}
