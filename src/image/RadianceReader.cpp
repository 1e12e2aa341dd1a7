// RadianceReader.cpp: the Radiance picture reader (see RadianceReader.h): header, resolution line,
// scanline decoding and the placement of each scanline in hdrlab's row-0-top layout.
#include "image/RadianceReader.h"

#include "image/FormatError.h"
#include "image/ImageIo.h"
#include "image/RadianceColour.h"
#include "util/Log.h"
#include "util/PrintableText.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace image::detail {
namespace {

using Colr = std::array<std::uint8_t, 4>;  ///< R, G, B (or X, Y, Z) mantissas and the shared exponent

constexpr int kMinRunLengthScanline = 8;       ///< MINELEN: shorter scanlines are never new-style RLE
constexpr int kMaxRunLengthScanline = 0x7fff;  ///< MAXELEN
constexpr int kExponentOffset = 136;           ///< COLXS + 8: value = (m + 0.5) * 2^(e - 136)
constexpr std::size_t kMaxKeptText = 2048;     ///< of a VIEW or SOFTWARE line (Radiance's MAXLINE)
constexpr std::size_t kMaxViewText = 16384;    ///< of all VIEW lines together
constexpr std::uint64_t kMaxDecodedBytesPerFileByte = 4096;
constexpr std::uint64_t kAlwaysAllowedDecodedBytes = std::uint64_t(64) << 20;

[[noreturn]] void damaged(const std::string& reason)
{
    throw FormatError("damaged Radiance HDR file: " + reason);
}

std::string quoted(std::string_view text)
{
    return "'" + util::escapeControlCharacters(text, true, 80) + "'";
}

bool startsWith(std::string_view text, std::string_view prefix)
{
    return text.substr(0, prefix.size()) == prefix;
}

std::string_view trimmed(std::string_view text)
{
    const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'; };
    while (!text.empty() && space(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && space(text.back()))
        text.remove_suffix(1);
    return text;
}

/// The numbers at the start of `text` as sscanf("%f %f ...") reads them (leading blanks, an
/// optional '+'), locale-independent; stops at the first thing that is not a number.
template <typename Number>
std::vector<Number> leadingNumbers(std::string_view text, std::size_t wanted)
{
    std::vector<Number> numbers;
    while (numbers.size() < wanted) {
        while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
            text.remove_prefix(1);
        if (!text.empty() && text.front() == '+')
            text.remove_prefix(1);
        Number value{};
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (error != std::errc())
            break;
        numbers.push_back(value);
        text.remove_prefix(std::size_t(end - text.data()));
    }
    return numbers;
}

/// atof: the leading number, 0 when there is none.
double leadingNumber(std::string_view text)
{
    const std::vector<double> numbers = leadingNumbers<double>(text, 1);
    return numbers.empty() ? 0.0 : numbers.front();
}

class Reader
{
public:
    explicit Reader(std::span<const std::uint8_t> bytes) : mBytes(bytes) {}

    std::size_t remaining() const { return mBytes.size() - mPosition; }
    /// The next line without its '\n'; nullopt when no '\n' is left.
    std::optional<std::string_view> line()
    {
        const auto* start = mBytes.data() + mPosition;
        const void* newline = std::memchr(start, '\n', remaining());
        if (!newline)
            return std::nullopt;
        const std::size_t length = std::size_t(static_cast<const std::uint8_t*>(newline) - start);
        mPosition += length + 1;
        return std::string_view(reinterpret_cast<const char*>(start), length);
    }
    /// The next byte without taking it; -1 at the end.
    int peek() const { return mPosition < mBytes.size() ? mBytes[mPosition] : -1; }
    /// Copies `count` bytes to `out`; false (nothing taken) when fewer are left.
    bool take(std::uint8_t* out, std::size_t count)
    {
        if (remaining() < count)
            return false;
        std::memcpy(out, mBytes.data() + mPosition, count);
        mPosition += count;
        return true;
    }

private:
    std::span<const std::uint8_t> mBytes;
    std::size_t mPosition = 0;
};

RadianceHeader readHeader(Reader& in)
{
    RadianceHeader header;
    in.line();  // "#?RADIANCE" or "#?RGBE": detectFileKind checked it
    std::array<float, 3> colorCorrection{1.0f, 1.0f, 1.0f};
    bool hasColorCorrection = false;
    for (;;) {
        const std::optional<std::string_view> next = in.line();
        if (!next)
            damaged("the header never ends (no empty line before the resolution line)");
        std::string_view line = *next;
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        if (line.empty())
            break;
        if (startsWith(line, "FORMAT=")) {
            std::string_view format = trimmed(line.substr(7));
            format = format.substr(0, std::min(format.find_first_of(" \t"), format.size()));
            if (format.empty())
                continue;  // Radiance's formatval ignores an empty FORMAT=
            if (format == "32-bit_rle_rgbe")
                header.xyz = false;
            else if (format == "32-bit_rle_xyze")
                header.xyz = true;
            else
                throw FormatError(
                    "unsupported Radiance HDR file: FORMAT=" + util::escapeControlCharacters(format, true, 80) +
                    " (hdrlab reads 32-bit_rle_rgbe and 32-bit_rle_xyze)");
        } else if (startsWith(line, "EXPOSURE=")) {
            header.exposure *= leadingNumber(line.substr(9));
        } else if (startsWith(line, "PIXASPECT=")) {
            header.pixelAspect *= leadingNumber(line.substr(10));
        } else if (startsWith(line, "COLORCORR=")) {
            const std::vector<float> values = leadingNumbers<float>(line.substr(10), 3);
            if (values.size() == 3) {
                for (int c = 0; c < 3; ++c)
                    colorCorrection[std::size_t(c)] *= values[std::size_t(c)];
                hasColorCorrection = true;
            }
        } else if (startsWith(line, "PRIMARIES=")) {
            const std::vector<float> values = leadingNumbers<float>(line.substr(10), 8);
            if (values.size() == 8) {  // pcond keeps the last complete line and ignores the others
                std::array<float, 8> primaries{};
                std::copy(values.begin(), values.end(), primaries.begin());
                header.primaries = primaries;
            }
        } else if (startsWith(line, "VIEW=")) {
            const std::string_view options = trimmed(line.substr(5)).substr(0, kMaxKeptText);
            if (!options.empty() && header.view.size() + options.size() < kMaxViewText)
                header.view += (header.view.empty() ? "" : " ") + std::string(options);
        } else if (startsWith(line, "SOFTWARE=")) {
            header.software = std::string(trimmed(line.substr(9)).substr(0, kMaxKeptText));
        }
    }
    if (hasColorCorrection)
        header.colorCorrection = colorCorrection;
    if (!(std::isfinite(header.exposure) && header.exposure > 0.0))
        damaged(util::format("its EXPOSURE lines multiply to {} (a picture's exposure is a positive number)",
                             header.exposure));
    if (!(std::isfinite(header.pixelAspect) && header.pixelAspect > 0.0))
        damaged(util::format("its PIXASPECT lines multiply to {} (a pixel aspect ratio is a positive number)",
                             header.pixelAspect));
    if (header.primaries && !header.xyz && !radianceLuminanceWeights(header.primaries))
        damaged("its PRIMARIES give no RGB to XYZ conversion (a white point or the primaries' determinant is zero)");
    return header;
}

/// The resolution line: which axis the scanlines run along, the directions and the size.
struct Layout
{
    int width = 0;
    int height = 0;
    bool yMajor = true;  ///< scanlines are rows (constant y); else columns
    bool xDecreasing = false;
    bool yDecreasing = true;

    int scanlineLength() const { return yMajor ? width : height; }
    int scanlineCount() const { return yMajor ? height : width; }
};

Layout readLayout(Reader& in, RadianceHeader& header)
{
    const std::optional<std::string_view> next = in.line();
    if (!next)
        damaged("no resolution line after the header");
    const std::string_view line = *next;
    std::size_t at = 0;
    auto skipBlanks = [&] {
        while (at < line.size() && (line[at] == ' ' || line[at] == '\t'))
            ++at;
    };
    // One "{+-}{XY} N" part; N saturates at a value above every limit.
    auto axis = [&](char& sign, char& letter, long long& size) {
        skipBlanks();
        if (at + 2 > line.size() || (line[at] != '+' && line[at] != '-') ||
            (line[at + 1] != 'X' && line[at + 1] != 'Y'))
            return false;
        sign = line[at];
        letter = line[at + 1];
        at += 2;
        skipBlanks();
        const std::size_t digitsFrom = at;
        size = 0;
        while (at < line.size() && line[at] >= '0' && line[at] <= '9')
            size = std::min(size * 10 + (line[at++] - '0'), 1000000000LL);
        return at > digitsFrom;
    };
    char sign[2] = {}, letter[2] = {};
    long long size[2] = {};
    const bool parsed =
        axis(sign[0], letter[0], size[0]) && axis(sign[1], letter[1], size[1]) && letter[0] != letter[1];
    skipBlanks();
    if (!parsed || trimmed(line.substr(at)) != "")
        damaged("bad resolution line " + quoted(line) + " (Radiance's form is e.g. '-Y 480 +X 640')");
    Layout layout;
    layout.yMajor = letter[0] == 'Y';
    const int x = layout.yMajor ? 1 : 0;
    const int y = 1 - x;
    layout.xDecreasing = sign[x] == '-';
    layout.yDecreasing = sign[y] == '-';
    if (size[x] < 1 || size[y] < 1)
        throw FormatError(util::format("image is {}x{}", size[x], size[y]));
    if (size[x] > kMaxImageDimension || size[y] > kMaxImageDimension)
        throw FormatError(util::format("image of {}x{} pixels is too large (limit {}x{})", size[x], size[y],
                                       kMaxImageDimension, kMaxImageDimension));
    layout.width = int(size[x]);
    layout.height = int(size[y]);
    header.orientation = std::string{sign[0], letter[0], ' ', sign[1], letter[1]};
    return layout;
}

[[noreturn]] void truncated(int scanline, int count)
{
    damaged(util::format("truncated in scanline {} of {}", scanline + 1, count));
}

/// Old-style scanline from pixel `start`: flat pixels, and 1,1,1,n markers repeating the pixel
/// before them n << (8 k) times, k counting the markers in a row (oldreadcolrs). `previous` is the
/// pixel before the scanline (the last of the one before it), null for the first scanline.
void readOldStyle(Reader& in, std::vector<Colr>& scan, std::size_t start, const Colr* previous, int index, int count)
{
    int shift = 0;
    std::size_t at = start;
    while (at < scan.size()) {
        Colr pixel;
        if (!in.take(pixel.data(), 4))
            truncated(index, count);
        if (pixel[0] != 1 || pixel[1] != 1 || pixel[2] != 1) {
            scan[at++] = pixel;
            shift = 0;
            continue;
        }
        if (at == 0 && !previous)
            damaged("a run marker (1,1,1,n) before the first pixel");
        const Colr value = at > 0 ? scan[at - 1] : *previous;
        const std::uint64_t left = scan.size() - at;
        // Past 48 bits of shift any nonzero count covers the rest of the scanline.
        const std::uint64_t repeat = shift <= 48 ? std::uint64_t(pixel[3]) << shift : (pixel[3] ? left : 0);
        const std::size_t end = at + std::size_t(std::min(repeat, left));
        std::fill(scan.begin() + std::ptrdiff_t(at), scan.begin() + std::ptrdiff_t(end), value);
        at = end;
        shift += 8;
    }
}

/// One scanline as freadcolrs reads it: new-style RLE where it starts with 2,2 and a length without
/// its top bit, else old-style (a 2 that is not followed by that is pixel 0).
void readScanline(Reader& in, std::vector<Colr>& scan, bool hasPrevious, int index, int count)
{
    const Colr previous = scan.back();  // the last pixel of the scanline before (if any)
    const Colr* before = hasPrevious ? &previous : nullptr;
    const int length = int(scan.size());
    if (length < kMinRunLengthScanline || length > kMaxRunLengthScanline || in.peek() != 2) {
        if (in.peek() < 0)
            truncated(index, count);
        readOldStyle(in, scan, 0, before, index, count);
        return;
    }
    Colr start;
    if (!in.take(start.data(), 4))
        truncated(index, count);
    if (start[1] != 2 || (start[2] & 0x80) != 0) {
        scan[0] = start;
        readOldStyle(in, scan, 1, before, index, count);
        return;
    }
    const int declared = (int(start[2]) << 8) | int(start[3]);
    if (declared != length)
        damaged(util::format("scanline {} of {} says it holds {} pixels, the picture's scanlines hold {}", index + 1,
                             count, declared, length));
    for (std::size_t component = 0; component < 4; ++component) {
        std::size_t at = 0;
        while (at < scan.size()) {
            std::uint8_t code = 0;
            if (!in.take(&code, 1))
                truncated(index, count);
            const bool run = code > 128;
            const std::size_t n = run ? std::size_t(code & 127) : std::size_t(code);
            if (n > scan.size() - at)
                damaged(util::format("a run of {} bytes overruns scanline {} of {} ({} pixels)", n, index + 1, count,
                                     length));
            if (run) {
                std::uint8_t value = 0;
                if (!in.take(&value, 1))
                    truncated(index, count);
                for (std::size_t k = 0; k < n; ++k)
                    scan[at++][component] = value;
            } else {
                std::uint8_t values[128];
                if (!in.take(values, n))
                    truncated(index, count);
                for (std::size_t k = 0; k < n; ++k)
                    scan[at++][component] = values[k];
            }
        }
    }
}

}  // namespace

ImageF decodeRadiancePicture(std::span<const std::uint8_t> bytes)
{
    Reader in(bytes);
    RadianceHeader header = readHeader(in);
    const Layout layout = readLayout(in, header);
    const int scanCount = layout.scanlineCount();
    // Every scanline takes at least 4 bytes, whatever its encoding.
    if (in.remaining() / 4 < std::size_t(scanCount))
        damaged("truncated pixel data");
    const std::uint64_t decodedBytes =
        std::uint64_t(layout.width) * std::uint64_t(layout.height) * ImageF::kChannels * sizeof(float);
    if (decodedBytes > kAlwaysAllowedDecodedBytes && decodedBytes / kMaxDecodedBytesPerFileByte > bytes.size())
        damaged(util::format("a {}x{} picture cannot be stored in {} bytes (more than {} decoded bytes per byte)",
                             layout.width, layout.height, bytes.size(), kMaxDecodedBytesPerFileByte));

    std::array<float, 256> scale{};  // 2^(e - 136) per exponent byte; 0 for e = 0
    for (int e = 1; e < 256; ++e)
        scale[std::size_t(e)] = std::ldexp(1.0f, e - kExponentOffset);
    const auto xyzToRgb = radianceXyzToRgbMatrix();

    ImageF image(layout.width, layout.height);
    std::vector<Colr> scan(std::size_t(layout.scanlineLength()), Colr{});
    for (int s = 0; s < scanCount; ++s) {
        readScanline(in, scan, s > 0, s, scanCount);
        for (int p = 0; p < int(scan.size()); ++p) {
            int x = 0, yUp = 0;  // Radiance's picture coordinates: origin bottom left, y up
            if (layout.yMajor) {
                yUp = layout.yDecreasing ? layout.height - 1 - s : s;
                x = layout.xDecreasing ? layout.width - 1 - p : p;
            } else {
                x = layout.xDecreasing ? layout.width - 1 - s : s;
                yUp = layout.yDecreasing ? layout.height - 1 - p : p;
            }
            const Colr& c = scan[std::size_t(p)];
            const float f = scale[c[3]];
            std::array<float, 3> value{(float(c[0]) + 0.5f) * f, (float(c[1]) + 0.5f) * f, (float(c[2]) + 0.5f) * f};
            if (header.xyz)
                value = radianceColourTransform(xyzToRgb, value);
            float* out = image.at(x, layout.height - 1 - yUp);
            out[0] = value[0];
            out[1] = value[1];
            out[2] = value[2];
            out[3] = 1.0f;
        }
    }
    image.radiance = std::move(header);
    return image;
}

}  // namespace image::detail
