// JpegCheck.cpp: the marker walk of JpegCheck.h. Like stb, bytes between segments that are not a
// marker are skipped until the next 0xFF, so every segment stb could read as a DHT is checked.
#include "image/JpegCheck.h"

#include "image/FormatError.h"

#include <algorithm>
#include <cstddef>
#include <string>

namespace image::detail {
namespace {

constexpr std::uint8_t kMarkerPrefix = 0xff;
constexpr std::uint8_t kEndOfImage = 0xd9;
constexpr std::uint8_t kStartOfScan = 0xda;
constexpr std::uint8_t kDefineHuffmanTables = 0xc4;
constexpr int kHuffmanCodeLengths = 16;
constexpr int kMaxHuffmanSymbols = 256;

bool isStandalone(std::uint8_t marker)
{
    // TEM, RST0..7, SOI, EOI and the stuffed 0x00 carry no length field.
    return marker == 0x00 || marker == 0x01 || (marker >= 0xd0 && marker <= 0xd9);
}

/// Checks every table of one DHT segment as stb reads it: tables while its length field says bytes
/// are left, each read whole even past that length (`rest` runs to the end of the file).
void checkHuffmanSegment(std::span<const std::uint8_t> rest, long long declaredBytes)
{
    std::span<const std::uint8_t> payload = rest;
    std::size_t at = 0;
    while (declaredBytes > 0 && at < payload.size()) {
        const std::uint8_t tableClassAndId = payload[at++];
        if ((tableClassAndId >> 4) > 1 || (tableClassAndId & 15) > 3)
            return;  // stb: "bad DHT header"
        // Counts past the end of the file read as 0 in stb, but the ones present still count.
        int symbols = 0;
        for (int length = 0; length < kHuffmanCodeLengths && at < payload.size(); ++length)
            symbols += payload[at++];
        if (symbols > kMaxHuffmanSymbols)
            throw FormatError("damaged JPEG file: Huffman table of " + std::to_string(symbols) + " symbols (at most " +
                              std::to_string(kMaxHuffmanSymbols) + ")");
        at += std::size_t(symbols);
        declaredBytes -= 17 + symbols;
    }
}

}  // namespace

void checkJpegHuffmanTables(std::span<const std::uint8_t> bytes)
{
    std::size_t at = 2;  // after SOI (detectFileKind saw FF D8)
    bool inEntropyData = false;
    while (at + 1 < bytes.size()) {
        if (bytes[at] != kMarkerPrefix) {
            ++at;
            continue;
        }
        const std::uint8_t marker = bytes[at + 1];
        if (marker == kMarkerPrefix) {
            ++at;  // fill byte
            continue;
        }
        if (inEntropyData && (marker == 0x00 || (marker >= 0xd0 && marker <= 0xd7))) {
            at += 2;  // stuffed 0xFF or a restart marker inside the scan
            continue;
        }
        inEntropyData = false;
        at += 2;
        if (marker == kEndOfImage)
            return;  // stb stops here; whatever follows is not decoded
        if (isStandalone(marker))
            continue;
        if (at + 2 > bytes.size())
            return;
        const std::size_t length = (std::size_t(bytes[at]) << 8) | bytes[at + 1];
        if (length < 2)
            return;  // stb refuses it
        const std::size_t end = std::min(at + length, bytes.size());
        if (marker == kDefineHuffmanTables)
            checkHuffmanSegment(bytes.subspan(std::min(at + 2, bytes.size())), (long long)(length)-2);
        at = end;
        inEntropyData = marker == kStartOfScan;
    }
}

}  // namespace image::detail
