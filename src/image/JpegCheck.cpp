// JpegCheck.cpp: the marker walk of JpegCheck.h. Like stb, bytes between segments that are not a
// marker are skipped until the next 0xFF, so every segment stb could read as a DHT is checked.
#include "image/JpegCheck.h"

#include "image/FormatError.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <string>

namespace image::detail {
namespace {

constexpr std::uint8_t kMarkerPrefix = 0xff;
constexpr std::uint8_t kEndOfImage = 0xd9;
constexpr std::uint8_t kStartOfScan = 0xda;
constexpr std::uint8_t kDefineHuffmanTables = 0xc4;
constexpr std::uint8_t kStartOfFrameProgressive = 0xc2;
constexpr int kHuffmanCodeLengths = 16;
constexpr int kTablesPerClass = 4;  // DC tables 0..3, AC tables 0..3
constexpr int kMaxHuffmanSymbols = 256;

bool isStandalone(std::uint8_t marker)
{
    // TEM, RST0..7, SOI, EOI and the stuffed 0x00 carry no length field.
    return marker == 0x00 || marker == 0x01 || (marker >= 0xd0 && marker <= 0xd9);
}

/// Which Huffman tables the file has defined so far: [class (0 DC, 1 AC) * 4 + id].
using DefinedTables = std::array<bool, 2 * kTablesPerClass>;

/// Checks every table of one DHT segment as stb reads it: tables while its length field says bytes
/// are left, each read whole even past that length (`rest` runs to the end of the file).
void checkHuffmanSegment(std::span<const std::uint8_t> rest, long long declaredBytes, DefinedTables& defined)
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
        defined[std::size_t((tableClassAndId >> 4) * kTablesPerClass + (tableClassAndId & 15))] = true;
        at += std::size_t(symbols);
        declaredBytes -= 17 + symbols;
    }
}

/// A scan must only use tables defined before it: stb 2.27 allocates its decoder without clearing
/// it, so an undefined table is uninitialised memory (bounded, but the result is not deterministic).
/// Progressive scans use DC tables only in first DC scans and AC tables only in AC scans.
void checkScanTables(std::span<const std::uint8_t> payload, bool progressive, const DefinedTables& defined)
{
    if (payload.empty())
        return;  // stb refuses it
    const std::size_t components = payload[0];
    if (payload.size() < 1 + 2 * components + 3)
        return;  // stb refuses it
    const std::uint8_t spectralStart = payload[1 + 2 * components];
    const std::uint8_t approximationHigh = payload[1 + 2 * components + 2] >> 4;
    const bool usesDc = !progressive || (spectralStart == 0 && approximationHigh == 0);
    const bool usesAc = !progressive || spectralStart > 0;
    for (std::size_t c = 0; c < components; ++c) {
        const std::uint8_t selectors = payload[2 + 2 * c];
        const int dc = selectors >> 4;
        const int ac = selectors & 15;
        if (dc >= kTablesPerClass || ac >= kTablesPerClass)
            return;  // stb refuses it ("bad DC huff" / "bad AC huff")
        if (usesDc && !defined[std::size_t(dc)])
            throw FormatError("damaged JPEG file: a scan uses Huffman table DC" + std::to_string(dc) +
                              ", which the file has not defined");
        if (usesAc && !defined[std::size_t(kTablesPerClass + ac)])
            throw FormatError("damaged JPEG file: a scan uses Huffman table AC" + std::to_string(ac) +
                              ", which the file has not defined");
    }
}

}  // namespace

void checkJpegHuffmanTables(std::span<const std::uint8_t> bytes)
{
    std::size_t at = 2;  // after SOI (detectFileKind saw FF D8)
    bool inEntropyData = false;
    bool progressive = false;
    DefinedTables defined{};
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
            checkHuffmanSegment(bytes.subspan(std::min(at + 2, bytes.size())), (long long)(length)-2, defined);
        if (marker == kStartOfFrameProgressive)
            progressive = true;
        if (marker == kStartOfScan)
            checkScanTables(bytes.subspan(std::min(at + 2, end), end - std::min(at + 2, end)), progressive, defined);
        at = end;
        inEntropyData = marker == kStartOfScan;
    }
}

}  // namespace image::detail
