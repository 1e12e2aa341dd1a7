// JpegCheck.cpp: the marker walk of JpegCheck.h. Like stb, bytes between segments that are not a
// marker are skipped until the next 0xFF, so every segment stb could read as a DHT or DQT is checked.
#include "image/JpegCheck.h"

#include "image/FormatError.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace image::detail {
namespace {

constexpr std::uint8_t kMarkerPrefix = 0xff;
constexpr std::uint8_t kEndOfImage = 0xd9;
constexpr std::uint8_t kStartOfScan = 0xda;
constexpr std::uint8_t kDefineHuffmanTables = 0xc4;
constexpr std::uint8_t kDefineQuantizationTables = 0xdb;
constexpr std::uint8_t kStartOfFrameBaseline = 0xc0;
constexpr std::uint8_t kStartOfFrameExtended = 0xc1;
constexpr std::uint8_t kStartOfFrameProgressive = 0xc2;
constexpr int kQuantizationTables = 4;
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

/// Which quantization tables the file has defined so far, and each frame component's id and table.
struct QuantizationState
{
    std::array<bool, kQuantizationTables> defined{};
    std::vector<std::pair<std::uint8_t, std::uint8_t>> components;  ///< (component id, table) of the frame
};

/// Marks the tables of one DQT segment as stb reads it: a table per header byte while its length
/// field says bytes are left (values past the end of the file read as 0, still defined).
void noteQuantizationSegment(std::span<const std::uint8_t> rest, long long declaredBytes, QuantizationState& state)
{
    std::size_t at = 0;
    while (declaredBytes > 0 && at < rest.size()) {
        const std::uint8_t precisionAndId = rest[at++];
        if ((precisionAndId >> 4) > 1 || (precisionAndId & 15) >= kQuantizationTables)
            return;  // stb: "bad DQT type" / "bad DQT table"
        const std::size_t bytes = (precisionAndId >> 4) ? 128 : 64;
        state.defined[std::size_t(precisionAndId & 15)] = true;
        at += bytes;
        declaredBytes -= static_cast<long long>(bytes) + 1;
    }
}

/// Notes each frame component's quantization table (SOF: precision, height, width, count, then id,
/// sampling, table per component).
void noteFrameComponents(std::span<const std::uint8_t> payload, QuantizationState& state)
{
    state.components.clear();
    if (payload.size() < 6)
        return;  // stb refuses it
    const std::size_t count = payload[5];
    for (std::size_t c = 0; c < count && 6 + 3 * c + 2 < payload.size(); ++c)
        state.components.emplace_back(payload[6 + 3 * c], payload[6 + 3 * c + 2]);
}

/// A component decoded with a quantization table the file has not defined: stb 2.27 dequantizes with
/// uninitialised memory (found by fuzzing: signed overflows in its IDCT, and a non-deterministic
/// picture). `componentIds` empty: every frame component (a progressive frame is dequantized whole).
void checkQuantizationTables(const QuantizationState& state, std::span<const std::uint8_t> componentIds)
{
    for (const auto& [id, table] : state.components) {
        if (!componentIds.empty() && std::find(componentIds.begin(), componentIds.end(), id) == componentIds.end())
            continue;
        if (table >= kQuantizationTables)
            return;  // stb refuses it ("bad TQ")
        if (!state.defined[table])
            throw FormatError("damaged JPEG file: component " + std::to_string(id) + " uses quantization table " +
                              std::to_string(table) + ", which the file has not defined");
    }
}

/// The component ids a scan header (SOS payload) names.
std::vector<std::uint8_t> scanComponentIds(std::span<const std::uint8_t> payload)
{
    std::vector<std::uint8_t> ids;
    if (payload.empty())
        return ids;
    for (std::size_t c = 0; c < payload[0] && 1 + 2 * c < payload.size(); ++c)
        ids.push_back(payload[1 + 2 * c]);
    return ids;
}

}  // namespace

void checkJpegHuffmanTables(std::span<const std::uint8_t> bytes)
{
    std::size_t at = 2;  // after SOI (detectFileKind saw FF D8)
    bool inEntropyData = false;
    bool progressive = false;
    DefinedTables defined{};
    QuantizationState quantization;
    bool scanned = false;
    // A progressive frame is dequantized whole once its scans are read: every component's table.
    auto checkProgressiveFrame = [&] {
        if (progressive && scanned)
            checkQuantizationTables(quantization, {});
    };
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
        if (marker == kEndOfImage) {
            checkProgressiveFrame();
            return;  // stb stops here; whatever follows is not decoded
        }
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
        const std::span<const std::uint8_t> payload = bytes.subspan(std::min(at + 2, end), end - std::min(at + 2, end));
        if (marker == kDefineQuantizationTables)
            noteQuantizationSegment(bytes.subspan(std::min(at + 2, bytes.size())), (long long)(length)-2, quantization);
        if (marker == kStartOfFrameProgressive)
            progressive = true;
        if (marker == kStartOfFrameBaseline || marker == kStartOfFrameExtended || marker == kStartOfFrameProgressive)
            noteFrameComponents(payload, quantization);
        if (marker == kStartOfScan) {
            checkScanTables(payload, progressive, defined);
            if (!progressive)
                checkQuantizationTables(quantization, scanComponentIds(payload));
            scanned = true;
        }
        at = end;
        inEntropyData = marker == kStartOfScan;
    }
    checkProgressiveFrame();
}

}  // namespace image::detail
