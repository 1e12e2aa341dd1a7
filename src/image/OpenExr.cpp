// OpenExr.cpp: OpenEXR decoding/encoding through Debian's prebuilt tinyexr 1.0.1.
//
// Decoding runs in three steps:
//  1. parseLayout() reads the header and the chunk offset table with bounds-checked code of our own
//     and rejects anything tinyexr might mishandle: multi-part and deep files, unknown attribute
//     layouts or part types (tinyexr asserts on those), empty/huge data windows, subsampled or
//     unknown channel types, tiles of size 0, offset tables that do not fit in the file, chunks that
//     point outside the file, and chunk lists that do not cover every row/tile of the image exactly
//     once (tinyexr would leave those rows as uninitialised memory). It also refuses to decode when
//     tinyexr's allocations would be implausibly large for the file size.
//  2. tinyexr parses and decodes. Its EXRImage gets num_channels preset so that tinyexr's own cleanup
//     after a failed scanline decode frees the channel planes (1.0.1 leaks them otherwise).
//  3. The planes are converted to RGBA float, undoing tinyexr's vertical flip for files whose
//     lineOrder is not INCREASING_Y, and placed into the display window.
// Limits: single part, flat (non-deep) images, compression NONE/RLE/ZIPS/ZIP/PIZ, no subsampling.
#include "image/OpenExr.h"

#include "image/FormatError.h"
#include "image/ImageIo.h"
#include "util/Log.h"
#include "util/PrintableText.h"

#include <tinyexr.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <optional>

namespace image::detail {
namespace {

constexpr std::array<std::uint8_t, 4> kExrMagic = {0x76, 0x2f, 0x31, 0x01};
constexpr std::uint32_t kExrFormatVersion = 2;
constexpr std::uint32_t kVersionNumberMask = 0xff;
constexpr std::uint32_t kTiledFlag = 0x200;
constexpr std::uint32_t kLongNamesFlag = 0x400;
constexpr std::uint32_t kNonImageFlag = 0x800;
constexpr std::uint32_t kMultipartFlag = 0x1000;
constexpr std::uint32_t kKnownVersionBits =
    kVersionNumberMask | kTiledFlag | kLongNamesFlag | kNonImageFlag | kMultipartFlag;

constexpr int kMaxAttributes = 1024;
constexpr int kMaxChannels = 64;
// Keeps every coordinate sum and difference tinyexr computes far from int overflow.
constexpr std::int64_t kMaxCoordinate = std::int64_t(1) << 30;
// tinyexr allocates its planes before reading pixel data, so a small damaged file claiming a big
// image would make it allocate gigabytes. Decoded bytes (float per channel) are limited to
// kMaxCompressionRatio times the file size: deflate cannot exceed ~1032:1 and half->float doubles,
// so real files stay well below. Small images always pass (kMinDecodeBudget).
constexpr std::uint64_t kMaxCompressionRatio = 4096;
constexpr std::uint64_t kMinDecodeBudget = std::uint64_t(64) << 20;
constexpr std::uint64_t kMaxDecodeBytes = std::uint64_t(5) << 30;
constexpr std::uint64_t kMebibyte = std::uint64_t(1) << 20;

[[noreturn]] void damaged(const std::string& reason)
{
    throw FormatError("damaged OpenEXR file: " + reason);
}

[[noreturn]] void unsupported(const std::string& reason)
{
    throw FormatError("unsupported OpenEXR file: " + reason);
}

/// A name from the file made safe for a one-line message (fuzzed files hold control bytes).
std::string printable(const std::string& text)
{
    constexpr std::size_t kMaxShown = 48;
    std::string shown;
    for (char c : text.substr(0, kMaxShown))
        shown += (c >= 0x20 && c < 0x7f) ? c : '?';
    if (text.size() > kMaxShown)
        shown += "...";
    return shown;
}

/// Bounds-checked little-endian reader; running off the end is reported as a truncated file.
class ByteReader
{
public:
    ByteReader(const std::uint8_t* data, std::size_t size, std::size_t position = 0)
        : mData(data), mSize(size), mPosition(std::min(position, size))
    {
    }

    std::size_t position() const { return mPosition; }
    std::size_t remaining() const { return mSize - mPosition; }

    void require(std::size_t count, const std::string& what) const
    {
        if (count > remaining())
            damaged(util::format("file ends inside {} (needs {} bytes, {} left)", what, count, remaining()));
    }

    std::uint8_t u8(const std::string& what)
    {
        require(1, what);
        return mData[mPosition++];
    }

    std::uint32_t u32(const std::string& what)
    {
        require(4, what);
        std::uint32_t value = 0;
        for (int i = 3; i >= 0; --i)
            value = (value << 8) | mData[mPosition + std::size_t(i)];
        mPosition += 4;
        return value;
    }

    std::int32_t i32(const std::string& what) { return std::int32_t(u32(what)); }

    std::uint64_t u64(const std::string& what)
    {
        std::uint64_t low = u32(what);
        std::uint64_t high = u32(what);
        return (high << 32) | low;
    }

    /// A NUL-terminated string of at most maxLength characters.
    std::string cString(std::size_t maxLength, const std::string& what)
    {
        std::size_t limit = std::min(remaining(), maxLength + 1);
        const std::uint8_t* begin = mData + mPosition;
        const void* nul = std::memchr(begin, 0, limit);
        if (!nul) {
            if (limit == remaining() && remaining() <= maxLength)
                damaged("file ends inside " + what);
            damaged(util::format("{} is longer than {} characters", what, maxLength));
        }
        std::size_t length = std::size_t(static_cast<const std::uint8_t*>(nul) - begin);
        mPosition += length + 1;
        return std::string(reinterpret_cast<const char*>(begin), length);
    }

    void skip(std::size_t count, const std::string& what)
    {
        require(count, what);
        mPosition += count;
    }

private:
    const std::uint8_t* mData;
    std::size_t mSize;
    std::size_t mPosition;
};

struct Box
{
    std::int32_t minX = 0;
    std::int32_t minY = 0;
    std::int32_t maxX = -1;
    std::int32_t maxY = -1;

    std::int64_t width() const { return std::int64_t(maxX) - minX + 1; }
    std::int64_t height() const { return std::int64_t(maxY) - minY + 1; }
};

struct Channel
{
    std::string name;
    std::int32_t pixelType = 0;
};

/// Everything decodeOpenExr needs to know about the file, all of it checked.
struct Layout
{
    bool tiled = false;
    std::vector<Channel> channels;
    int compression = -1;
    int lineOrder = -1;
    Box dataWindow;
    std::optional<Box> displayWindow;
    int width = 0;
    int height = 0;
    int tileWidth = 0;
    int tileHeight = 0;
    int levelMode = 0;
    bool roundUp = false;
    int tilesX = 0;  ///< level 0 only
    int tilesY = 0;
    int levelsX = 1;  ///< mipmap/ripmap levels (tiled files)
    int levelsY = 1;
    int linesPerBlock = 1;
    std::uint64_t chunkCount = 0;
};

std::string describeCompression(int compression)
{
    static const std::array<const char*, 10> kNames = {"none",  "RLE", "ZIPS", "ZIP",  "PIZ",
                                                       "PXR24", "B44", "B44A", "DWAA", "DWAB"};
    if (compression >= 0 && compression < int(kNames.size()))
        return kNames[std::size_t(compression)];
    return "#" + std::to_string(compression);
}

Box readBox(ByteReader& reader, const std::string& what)
{
    Box box;
    box.minX = reader.i32(what);
    box.minY = reader.i32(what);
    box.maxX = reader.i32(what);
    box.maxY = reader.i32(what);
    return box;
}

std::vector<Channel> readChannelList(const std::uint8_t* data, std::size_t size, std::size_t maxNameLength)
{
    ByteReader reader(data, size);
    std::vector<Channel> channels;
    for (;;) {
        std::string name = reader.cString(maxNameLength, "a channel name");
        if (name.empty())
            break;
        if (int(channels.size()) >= kMaxChannels)
            unsupported(util::format("more than {} channels", kMaxChannels));
        Channel channel;
        channel.name = name;
        channel.pixelType = reader.i32("the channel list");
        reader.skip(4, "the channel list");  // pLinear + reserved
        std::int32_t xSampling = reader.i32("the channel list");
        std::int32_t ySampling = reader.i32("the channel list");
        if (channel.pixelType < TINYEXR_PIXELTYPE_UINT || channel.pixelType > TINYEXR_PIXELTYPE_FLOAT)
            damaged(util::format("channel '{}' has unknown pixel type {}", printable(name), channel.pixelType));
        if (xSampling != 1 || ySampling != 1)
            unsupported(util::format("channel '{}' is subsampled ({}x{})", printable(name), xSampling, ySampling));
        channels.push_back(channel);
    }
    if (reader.remaining() != 0)
        damaged("channel list has trailing bytes");
    return channels;
}

int floorLog2(std::uint32_t value)
{
    int log = 0;
    while (value > 1) {
        value >>= 1;
        ++log;
    }
    return log;
}

int roundLog2(std::uint32_t value, bool roundUp)
{
    int log = floorLog2(value);
    if (roundUp && (std::uint32_t(1) << log) < value)
        ++log;
    return log;
}

std::uint64_t levelSize(std::uint64_t topSize, int level, bool roundUp)
{
    std::uint64_t divisor = std::uint64_t(1) << level;
    std::uint64_t size = roundUp ? (topSize + divisor - 1) / divisor : topSize / divisor;
    return std::max<std::uint64_t>(size, 1);
}

std::uint64_t tileCount(std::uint64_t size, std::uint64_t tileSize)
{
    return (size + tileSize - 1) / tileSize;
}

/// Whether a tile header's coordinates name a tile of one of the file's levels.
bool isTileOfLevel(const Layout& layout,
                   std::int32_t tileX,
                   std::int32_t tileY,
                   std::int32_t levelX,
                   std::int32_t levelY)
{
    if (levelX < 0 || levelY < 0 || levelX >= layout.levelsX || levelY >= layout.levelsY)
        return false;
    if (layout.levelMode != TINYEXR_TILE_RIPMAP_LEVELS && levelX != levelY)
        return false;
    const std::uint64_t tilesX =
        tileCount(levelSize(std::uint64_t(layout.width), levelX, layout.roundUp), std::uint64_t(layout.tileWidth));
    const std::uint64_t tilesY =
        tileCount(levelSize(std::uint64_t(layout.height), levelY, layout.roundUp), std::uint64_t(layout.tileHeight));
    return tileX >= 0 && tileY >= 0 && std::uint64_t(tileX) < tilesX && std::uint64_t(tileY) < tilesY;
}

void checkAttributeType(const std::string& name,
                        const std::string& type,
                        const char* expected,
                        std::int32_t size,
                        std::int32_t expectedSize)
{
    if (type != expected)
        damaged(util::format("attribute '{}' has type '{}' instead of '{}'", name, printable(type), expected));
    if (expectedSize >= 0 && size != expectedSize)
        damaged(util::format("attribute '{}' has {} bytes instead of {}", name, size, expectedSize));
}

/// Reads and checks the header and the chunk table of `bytes` (see the file comment).
Layout parseLayout(std::span<const std::uint8_t> bytes)
{
    const std::size_t fileSize = bytes.size();
    if (fileSize < 8 || !std::equal(kExrMagic.begin(), kExrMagic.end(), bytes.begin()))
        throw FormatError("not an OpenEXR file (bad magic number)");

    ByteReader reader(bytes.data(), fileSize, 4);
    std::uint32_t versionField = reader.u32("the version field");
    if ((versionField & kVersionNumberMask) != kExrFormatVersion)
        damaged(util::format("unknown format version {}", versionField & kVersionNumberMask));
    if (versionField & ~kKnownVersionBits)
        damaged(util::format("unknown flags in version field {}", versionField));
    if (versionField & kMultipartFlag)
        unsupported("multi-part files are not supported");
    if (versionField & kNonImageFlag)
        unsupported("deep images are not supported");

    Layout layout;
    layout.tiled = (versionField & kTiledFlag) != 0;
    const std::size_t maxNameLength = (versionField & kLongNamesFlag) ? 255 : 31;

    bool haveChannels = false;
    bool haveDataWindow = false;
    bool haveTiles = false;
    std::optional<std::int32_t> chunkCountAttribute;
    for (int attributeIndex = 0;; ++attributeIndex) {
        std::string name = reader.cString(maxNameLength, "an attribute name");
        if (name.empty())
            break;
        if (attributeIndex >= kMaxAttributes)
            damaged(util::format("more than {} header attributes", kMaxAttributes));
        std::string type = reader.cString(maxNameLength, "the type of attribute '" + printable(name) + "'");
        std::int32_t size = reader.i32("the size of attribute '" + printable(name) + "'");
        if (size < 0 || std::size_t(size) > reader.remaining())
            damaged(util::format("attribute '{}' claims {} bytes, {} left in the file", printable(name), size,
                                 reader.remaining()));
        const std::uint8_t* value = bytes.data() + reader.position();
        ByteReader valueReader(value, std::size_t(size));

        if (name == "channels") {
            checkAttributeType(name, type, "chlist", size, -1);
            layout.channels = readChannelList(value, std::size_t(size), maxNameLength);
            haveChannels = true;
        } else if (name == "compression") {
            checkAttributeType(name, type, "compression", size, 1);
            layout.compression = valueReader.u8(name);
        } else if (name == "dataWindow") {
            checkAttributeType(name, type, "box2i", size, 16);
            layout.dataWindow = readBox(valueReader, name);
            haveDataWindow = true;
        } else if (name == "displayWindow") {
            checkAttributeType(name, type, "box2i", size, 16);
            layout.displayWindow = readBox(valueReader, name);
        } else if (name == "lineOrder") {
            checkAttributeType(name, type, "lineOrder", size, 1);
            layout.lineOrder = valueReader.u8(name);
        } else if (name == "tiles" && layout.tiled) {
            checkAttributeType(name, type, "tiledesc", size, 9);
            std::uint32_t tileWidth = valueReader.u32(name);
            std::uint32_t tileHeight = valueReader.u32(name);
            std::uint8_t mode = valueReader.u8(name);
            if (tileWidth < 1 || tileHeight < 1 || tileWidth > std::uint32_t(kMaxImageDimension) ||
                tileHeight > std::uint32_t(kMaxImageDimension))
                damaged(util::format("tile size {}x{} is out of range", tileWidth, tileHeight));
            layout.tileWidth = int(tileWidth);
            layout.tileHeight = int(tileHeight);
            layout.levelMode = mode & 0x0f;
            int rounding = mode >> 4;
            if (layout.levelMode > TINYEXR_TILE_RIPMAP_LEVELS || rounding > TINYEXR_TILE_ROUND_UP)
                damaged(util::format("unknown tile mode {}", int(mode)));
            layout.roundUp = rounding == TINYEXR_TILE_ROUND_UP;
            haveTiles = true;
        } else if (name == "type") {
            checkAttributeType(name, type, "string", size, -1);
            std::string partType(reinterpret_cast<const char*>(value), std::size_t(size));
            if (partType == "deepscanline" || partType == "deeptile")
                unsupported("deep images are not supported");
            if (partType != (layout.tiled ? "tiledimage" : "scanlineimage"))
                damaged("part type '" + printable(partType) + "' does not match the version field");
        } else if (name == "chunkCount") {
            checkAttributeType(name, type, "int", size, 4);
            chunkCountAttribute = valueReader.i32(name);
        }
        reader.skip(std::size_t(size), "attribute '" + printable(name) + "'");
    }

    if (!haveChannels || layout.channels.empty())
        damaged("no channels");
    if (!haveDataWindow)
        damaged("no data window");
    if (layout.compression < 0)
        damaged("no compression attribute");
    if (layout.lineOrder < 0)
        damaged("no lineOrder attribute");
    if (layout.tiled && !haveTiles)
        damaged("tiled file without a tile description");
    if (layout.lineOrder > 2)
        damaged(util::format("unknown line order {}", layout.lineOrder));
    switch (layout.compression) {
        case TINYEXR_COMPRESSIONTYPE_NONE:
        case TINYEXR_COMPRESSIONTYPE_RLE:
        case TINYEXR_COMPRESSIONTYPE_ZIPS:
            layout.linesPerBlock = 1;
            break;
        case TINYEXR_COMPRESSIONTYPE_ZIP:
            layout.linesPerBlock = 16;
            break;
        case TINYEXR_COMPRESSIONTYPE_PIZ:
            layout.linesPerBlock = 32;
            break;
        default:
            if (layout.compression <= 9)
                unsupported(describeCompression(layout.compression) +
                            " compression is not supported (supported: none, RLE, ZIPS, ZIP, PIZ)");
            damaged(util::format("unknown compression {}", layout.compression));
    }

    const Box& window = layout.dataWindow;
    for (std::int32_t coordinate : {window.minX, window.minY, window.maxX, window.maxY}) {
        if (coordinate < -kMaxCoordinate || coordinate > kMaxCoordinate)
            damaged(util::format("data window coordinate {} is out of range", coordinate));
    }
    if (window.width() < 1 || window.height() < 1)
        throw FormatError(util::format("image is {}x{}", std::max<std::int64_t>(window.width(), 0),
                                       std::max<std::int64_t>(window.height(), 0)));
    if (window.width() > kMaxImageDimension || window.height() > kMaxImageDimension)
        throw FormatError(util::format("image of {}x{} pixels is too large (limit {}x{})", window.width(),
                                       window.height(), kMaxImageDimension, kMaxImageDimension));
    layout.width = int(window.width());
    layout.height = int(window.height());

    // Chunk count and what tinyexr will allocate (it decodes every channel, halves as floats, and
    // in tiled files every level, with a full tile buffer per tile).
    const std::uint64_t width = std::uint64_t(layout.width);
    const std::uint64_t height = std::uint64_t(layout.height);
    const std::uint64_t bytesPerPixel = 4 * layout.channels.size();
    std::uint64_t decodeBytes = 0;
    if (layout.tiled) {
        int xLevels = 1;
        int yLevels = 1;
        if (layout.levelMode == TINYEXR_TILE_MIPMAP_LEVELS) {
            xLevels = yLevels = roundLog2(std::uint32_t(std::max(width, height)), layout.roundUp) + 1;
        } else if (layout.levelMode == TINYEXR_TILE_RIPMAP_LEVELS) {
            xLevels = roundLog2(std::uint32_t(width), layout.roundUp) + 1;
            yLevels = roundLog2(std::uint32_t(height), layout.roundUp) + 1;
        }
        std::uint64_t chunks = 0;
        for (int levelY = 0; levelY < yLevels; ++levelY) {
            for (int levelX = 0; levelX < xLevels; ++levelX) {
                if (layout.levelMode != TINYEXR_TILE_RIPMAP_LEVELS && levelX != levelY)
                    continue;
                chunks += tileCount(levelSize(width, levelX, layout.roundUp), std::uint64_t(layout.tileWidth)) *
                          tileCount(levelSize(height, levelY, layout.roundUp), std::uint64_t(layout.tileHeight));
            }
        }
        layout.chunkCount = chunks;
        layout.levelsX = xLevels;
        layout.levelsY = yLevels;
        layout.tilesX = int(tileCount(width, std::uint64_t(layout.tileWidth)));
        layout.tilesY = int(tileCount(height, std::uint64_t(layout.tileHeight)));
        decodeBytes = chunks * std::uint64_t(layout.tileWidth) * std::uint64_t(layout.tileHeight) * bytesPerPixel;
    } else {
        layout.chunkCount = tileCount(height, std::uint64_t(layout.linesPerBlock));
        decodeBytes = width * height * bytesPerPixel;
    }
    if (chunkCountAttribute && std::uint64_t(std::int64_t(*chunkCountAttribute)) != layout.chunkCount)
        damaged(util::format("chunkCount is {}, the header implies {}", *chunkCountAttribute, layout.chunkCount));
    std::uint64_t plausibleBytes = std::max(kMinDecodeBudget, std::uint64_t(fileSize) * kMaxCompressionRatio);
    if (decodeBytes > plausibleBytes)
        damaged(util::format("decoding would need {} MiB, implausible for a file of {} bytes", decodeBytes / kMebibyte,
                             fileSize));
    if (decodeBytes > kMaxDecodeBytes)
        throw FormatError(util::format("image is too large to decode ({} MiB, limit {} MiB)", decodeBytes / kMebibyte,
                                       kMaxDecodeBytes / kMebibyte));

    // Chunk offset table: every chunk inside the file, every row block / level-0 tile exactly once.
    const std::size_t tableStart = reader.position();
    if (layout.chunkCount > reader.remaining() / 8)
        damaged(util::format("file is truncated: the offset table of {} chunks does not fit in {} bytes",
                             layout.chunkCount, reader.remaining()));
    const std::uint64_t tableEnd = tableStart + layout.chunkCount * 8;
    const std::uint64_t level0Tiles = std::uint64_t(layout.tilesX) * std::uint64_t(layout.tilesY);
    const std::uint64_t blocksToCover = layout.tiled ? level0Tiles : layout.chunkCount;
    std::vector<bool> covered(blocksToCover, false);
    const std::uint64_t chunkHeaderBytes = layout.tiled ? 20 : 8;
    for (std::uint64_t chunk = 0; chunk < layout.chunkCount; ++chunk) {
        std::uint64_t offset = reader.u64("the offset table");
        if (offset < tableEnd || offset > fileSize || fileSize - offset < chunkHeaderBytes)
            damaged(util::format("chunk {} has offset {}, outside the pixel data (file of {} bytes)", chunk, offset,
                                 fileSize));
        ByteReader chunkReader(bytes.data(), fileSize, std::size_t(offset));
        std::uint64_t block = 0;
        std::uint64_t rawBytes = 0;
        if (layout.tiled) {
            std::int32_t tileX = chunkReader.i32("a tile header");
            std::int32_t tileY = chunkReader.i32("a tile header");
            std::int32_t levelX = chunkReader.i32("a tile header");
            std::int32_t levelY = chunkReader.i32("a tile header");
            if (chunk < level0Tiles) {
                if (levelX != 0 || levelY != 0 || tileX < 0 || tileY < 0 || tileX >= layout.tilesX ||
                    tileY >= layout.tilesY)
                    damaged(util::format("chunk {} holds tile ({}, {}) of level ({}, {}), not a tile of the image",
                                         chunk, tileX, tileY, levelX, levelY));
                block = std::uint64_t(tileY) * std::uint64_t(layout.tilesX) + std::uint64_t(tileX);
                std::uint64_t tilePixelsX =
                    std::min<std::uint64_t>(layout.tileWidth, width - std::uint64_t(tileX) * layout.tileWidth);
                std::uint64_t tilePixelsY =
                    std::min<std::uint64_t>(layout.tileHeight, height - std::uint64_t(tileY) * layout.tileHeight);
                rawBytes = tilePixelsX * tilePixelsY;
            } else if (!isTileOfLevel(layout, tileX, tileY, levelX, levelY)) {
                // tinyexr multiplies these coordinates by the tile size in int: keep them in range.
                damaged(util::format("chunk {} holds tile ({}, {}) of level ({}, {}), not a tile of the file", chunk,
                                     tileX, tileY, levelX, levelY));
            }
        } else {
            std::int32_t y = chunkReader.i32("a chunk header");
            std::int64_t row = std::int64_t(y) - window.minY;
            if (row < 0 || row >= layout.height || row % layout.linesPerBlock != 0)
                damaged(util::format("chunk {} starts at line {}, not at a block of the data window", chunk, y));
            block = std::uint64_t(row / layout.linesPerBlock);
            rawBytes = width * std::min<std::uint64_t>(layout.linesPerBlock, height - std::uint64_t(row));
        }
        std::int32_t dataSize = chunkReader.i32("a chunk header");
        if (dataSize <= 0 || std::uint64_t(dataSize) > chunkReader.remaining())
            damaged(util::format("chunk {} is truncated ({} bytes claimed, {} left)", chunk, dataSize,
                                 chunkReader.remaining()));
        if (chunk < blocksToCover) {
            if (covered[block])
                damaged(util::format("chunk {} repeats a block stored before", chunk));
            covered[block] = true;
            // Uncompressed chunks must hold exactly their pixels (tinyexr does not check this).
            std::uint64_t pixelBytes = 0;
            for (const Channel& channel : layout.channels)
                pixelBytes += channel.pixelType == TINYEXR_PIXELTYPE_HALF ? 2 : 4;
            if (layout.compression == TINYEXR_COMPRESSIONTYPE_NONE && std::uint64_t(dataSize) != rawBytes * pixelBytes)
                damaged(util::format("uncompressed chunk {} has {} bytes instead of {}", chunk, dataSize,
                                     rawBytes * pixelBytes));
        }
    }
    return layout;
}

/// tinyexr error text as one line (it ends messages with newlines and may chain several).
std::string takeTinyexrMessage(const char* message, const char* fallback)
{
    std::string text = message ? message : fallback;
    if (message)
        FreeEXRErrorMessage(message);
    std::replace(text.begin(), text.end(), '\n', ' ');
    text = util::escapeControlCharacters(text, true, 400);
    while (!text.empty() && (text.back() == ' ' || text.back() == '.'))
        text.pop_back();
    return text.empty() ? fallback : text;
}

class TinyexrHeader
{
public:
    TinyexrHeader() { InitEXRHeader(&mHeader); }
    ~TinyexrHeader() { FreeEXRHeader(&mHeader); }
    TinyexrHeader(const TinyexrHeader&) = delete;
    TinyexrHeader& operator=(const TinyexrHeader&) = delete;
    EXRHeader* get() { return &mHeader; }

private:
    EXRHeader mHeader;
};

/// Owns a decoded EXRImage. After a failed LoadEXRImageFromMemory tinyexr has already freed the
/// image itself (leaving dangling pointers), so ownership is only taken on success.
class TinyexrImage
{
public:
    TinyexrImage() { InitEXRImage(&mImage); }
    ~TinyexrImage()
    {
        if (mOwned)
            FreeEXRImage(&mImage);
    }
    TinyexrImage(const TinyexrImage&) = delete;
    TinyexrImage& operator=(const TinyexrImage&) = delete;
    EXRImage* get() { return &mImage; }
    void takeOwnership() { mOwned = true; }

private:
    EXRImage mImage;
    bool mOwned = false;
};

/// Which tinyexr channel feeds R, G, B and A (-1: none). Grey images use the same channel thrice.
struct ChannelMapping
{
    std::array<int, 4> source = {-1, -1, -1, -1};
};

ChannelMapping mapChannels(const EXRHeader& header)
{
    auto find = [&](const std::string& name) {
        for (int c = 0; c < header.num_channels; ++c) {
            if (name == header.channels[c].name)
                return c;
        }
        return -1;
    };
    ChannelMapping mapping;
    std::string prefix;
    if (find("R") < 0 && find("G") < 0 && find("B") < 0 && find("Y") < 0) {
        // No plain colour channels: take the first layer that has some ("diffuse.R", ...).
        for (int c = 0; c < header.num_channels && prefix.empty(); ++c) {
            std::string name = header.channels[c].name;
            if (name.size() > 2 && name[name.size() - 2] == '.' &&
                std::string("RGBY").find(name.back()) != std::string::npos)
                prefix = name.substr(0, name.size() - 1);
        }
    }
    int red = find(prefix + "R");
    int green = find(prefix + "G");
    int blue = find(prefix + "B");
    int alpha = find(prefix + "A");
    int luminance = find(prefix + "Y");
    if (red >= 0 || green >= 0 || blue >= 0) {
        mapping.source = {red, green, blue, alpha};
    } else if (luminance >= 0) {
        mapping.source = {luminance, luminance, luminance, alpha};
    } else if (header.num_channels == 1) {
        mapping.source = {0, 0, 0, -1};
    } else {
        std::string names;
        for (int c = 0; c < header.num_channels; ++c)
            names += (c ? ", " : "") + printable(header.channels[c].name);
        unsupported("no R, G, B or Y channel (channels: " + names + ")");
    }
    return mapping;
}

/// Copies `count` pixels starting at plane index `first` into interleaved RGBA.
void copyPixels(const EXRHeader& header,
                unsigned char* const* planes,
                const ChannelMapping& mapping,
                std::size_t first,
                std::size_t count,
                float* destination)
{
    for (int output = 0; output < 4; ++output) {
        int channel = mapping.source[std::size_t(output)];
        float* out = destination + output;
        if (channel < 0) {
            float fill = output == 3 ? 1.0f : 0.0f;
            for (std::size_t i = 0; i < count; ++i)
                out[i * 4] = fill;
        } else if (header.pixel_types[channel] == TINYEXR_PIXELTYPE_UINT) {
            const auto* in = reinterpret_cast<const std::uint32_t*>(planes[channel]) + first;
            for (std::size_t i = 0; i < count; ++i)
                out[i * 4] = float(in[i]);
        } else {
            const auto* in = reinterpret_cast<const float*>(planes[channel]) + first;
            for (std::size_t i = 0; i < count; ++i)
                out[i * 4] = in[i];
        }
    }
}

ImageF assembleScanlines(const Layout& layout,
                         const EXRHeader& header,
                         const EXRImage& decoded,
                         const ChannelMapping& mapping)
{
    if (!decoded.images || decoded.width != layout.width || decoded.height != layout.height)
        damaged("decoder returned an image of the wrong size");
    ImageF image(layout.width, layout.height);
    for (int row = 0; row < layout.height; ++row) {
        // tinyexr stores rows bottom-up when lineOrder is not INCREASING_Y; undo that.
        int sourceRow = layout.lineOrder == 0 ? row : layout.height - 1 - row;
        copyPixels(header, decoded.images, mapping, std::size_t(sourceRow) * std::size_t(layout.width),
                   std::size_t(layout.width), image.at(0, row));
    }
    return image;
}

ImageF assembleTiles(const Layout& layout,
                     const EXRHeader& header,
                     const EXRImage& decoded,
                     const ChannelMapping& mapping)
{
    if (!decoded.tiles || decoded.width != layout.width || decoded.height != layout.height ||
        decoded.num_tiles != layout.tilesX * layout.tilesY)
        damaged("decoder returned tiles that do not match the header");
    ImageF image(layout.width, layout.height);
    std::vector<bool> covered(std::size_t(decoded.num_tiles), false);
    for (int t = 0; t < decoded.num_tiles; ++t) {
        const EXRTile& tile = decoded.tiles[t];
        if (tile.offset_x < 0 || tile.offset_y < 0 || tile.offset_x >= layout.tilesX || tile.offset_y >= layout.tilesY)
            damaged("decoder returned a tile outside the image");
        int x0 = tile.offset_x * layout.tileWidth;
        int y0 = tile.offset_y * layout.tileHeight;
        int tileWidth = std::min(layout.tileWidth, layout.width - x0);
        int tileHeight = std::min(layout.tileHeight, layout.height - y0);
        std::size_t slot = std::size_t(tile.offset_y) * std::size_t(layout.tilesX) + std::size_t(tile.offset_x);
        if (covered[slot] || !tile.images || tile.width != tileWidth || tile.height != tileHeight)
            damaged("decoder returned inconsistent tiles");
        covered[slot] = true;
        for (int row = 0; row < tileHeight; ++row) {
            // Within a tile tinyexr flips rows over the full tile height when lineOrder != 0.
            int sourceRow = layout.lineOrder == 0 ? row : layout.tileHeight - 1 - row;
            copyPixels(header, tile.images, mapping, std::size_t(sourceRow) * std::size_t(layout.tileWidth),
                       std::size_t(tileWidth), image.at(x0, y0 + row));
        }
    }
    return image;
}

/// Places the data-window image into the display window (the image's intended frame) when that
/// is valid and not absurdly large; pixels outside the data window become 0.
ImageF frameInDisplayWindow(const Layout& layout, ImageF dataImage, std::size_t fileSize)
{
    if (!layout.displayWindow)
        return dataImage;
    const Box& display = *layout.displayWindow;
    const Box& data = layout.dataWindow;
    if (display.minX == data.minX && display.minY == data.minY && display.maxX == data.maxX &&
        display.maxY == data.maxY)
        return dataImage;
    std::int64_t width = display.width();
    std::int64_t height = display.height();
    std::uint64_t frameBytes =
        std::uint64_t(std::max<std::int64_t>(width, 0)) * std::uint64_t(std::max<std::int64_t>(height, 0)) * 16;
    if (width < 1 || height < 1 || width > kMaxImageDimension || height > kMaxImageDimension ||
        frameBytes > std::max(kMinDecodeBudget, std::uint64_t(fileSize) * kMaxCompressionRatio)) {
        util::logWarning("OpenEXR display window {}x{} is unusable; using the data window {}x{}", width, height,
                         layout.width, layout.height);
        return dataImage;
    }
    ImageF framed(static_cast<int>(width), static_cast<int>(height));
    std::int64_t left = std::max<std::int64_t>(display.minX, data.minX);
    std::int64_t right = std::min<std::int64_t>(display.maxX, data.maxX);
    std::int64_t top = std::max<std::int64_t>(display.minY, data.minY);
    std::int64_t bottom = std::min<std::int64_t>(display.maxY, data.maxY);
    for (std::int64_t y = top; y <= bottom; ++y) {
        const float* from = dataImage.at(int(left - data.minX), int(y - data.minY));
        float* to = framed.at(int(left - display.minX), int(y - display.minY));
        if (right >= left)
            std::copy(from, from + (right - left + 1) * 4, to);
    }
    return framed;
}

}  // namespace

ImageF decodeOpenExr(std::span<const std::uint8_t> bytes)
{
    Layout layout = parseLayout(bytes);

    EXRVersion version;
    if (ParseEXRVersionFromMemory(&version, bytes.data(), bytes.size()) != TINYEXR_SUCCESS)
        damaged("tinyexr rejects the version field");
    TinyexrHeader header;
    const char* message = nullptr;
    if (ParseEXRHeaderFromMemory(header.get(), &version, bytes.data(), bytes.size(), &message) != TINYEXR_SUCCESS)
        damaged(takeTinyexrMessage(message, "tinyexr cannot parse the header"));
    if (message)
        FreeEXRErrorMessage(message);

    // Our reading and tinyexr's must agree (duplicate attributes could make them differ).
    EXRHeader& parsed = *header.get();
    const Box& window = layout.dataWindow;
    if (parsed.num_channels != int(layout.channels.size()) || parsed.tiled != int(layout.tiled) ||
        parsed.compression_type != layout.compression || parsed.line_order != layout.lineOrder ||
        parsed.data_window.min_x != window.minX || parsed.data_window.min_y != window.minY ||
        parsed.data_window.max_x != window.maxX || parsed.data_window.max_y != window.maxY ||
        (layout.tiled && (parsed.tile_size_x != layout.tileWidth || parsed.tile_size_y != layout.tileHeight ||
                          parsed.tile_level_mode != layout.levelMode)))
        damaged("ambiguous header (repeated or conflicting attributes)");
    for (int c = 0; c < parsed.num_channels; ++c) {
        if (parsed.pixel_types[c] != layout.channels[std::size_t(c)].pixelType)
            damaged("ambiguous channel list");
        if (parsed.pixel_types[c] == TINYEXR_PIXELTYPE_HALF)
            parsed.requested_pixel_types[c] = TINYEXR_PIXELTYPE_FLOAT;
    }
    ChannelMapping mapping = mapChannels(parsed);

    TinyexrImage decoded;
    // tinyexr 1.0.1 sets num_channels only after a successful scanline decode, so its cleanup after
    // a failure would free the plane array but not the planes; presetting it makes it free both.
    decoded.get()->num_channels = parsed.num_channels;
    message = nullptr;
    if (LoadEXRImageFromMemory(decoded.get(), &parsed, bytes.data(), bytes.size(), &message) != TINYEXR_SUCCESS)
        damaged(takeTinyexrMessage(message, "tinyexr cannot decode the pixels"));
    decoded.takeOwnership();
    if (message)
        FreeEXRErrorMessage(message);

    ImageF dataImage = layout.tiled ? assembleTiles(layout, parsed, *decoded.get(), mapping)
                                    : assembleScanlines(layout, parsed, *decoded.get(), mapping);
    return frameInDisplayWindow(layout, std::move(dataImage), bytes.size());
}

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
