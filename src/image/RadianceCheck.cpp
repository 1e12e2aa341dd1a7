// RadianceCheck.cpp: a structural walk of a Radiance .hdr pixel stream that mirrors stb_image
// 2.27's stbi__hdr_load step for step (see RadianceCheck.h for why). Reading past the end counts as
// truncation here, where stb would read zeros.
#include "image/RadianceCheck.h"

#include "image/FormatError.h"

#include <cstddef>

namespace image::detail {
namespace {

/// stb's header token buffer (STBI__HDR_BUFLEN): longer lines are cut, the rest skipped.
constexpr std::size_t kHeaderLineLimit = 1024;
/// stb decodes scanlines outside [8, 32768) pixels wide as flat RGBE, never as RLE.
constexpr int kMinRleWidth = 8;
constexpr int kMaxRleWidth = 32768;

class Stream
{
public:
    explicit Stream(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}

    bool atEnd() const { return position_ >= bytes_.size(); }
    std::size_t remaining() const { return atEnd() ? 0 : bytes_.size() - position_; }
    /// stbi__get8: 0 at the end, without moving.
    std::uint8_t next() { return atEnd() ? 0 : bytes_[position_++]; }
    void skip(std::size_t count) { position_ += count; }

    /// stbi__hdr_gettoken: reads one header line; whether stb sees it as empty (no byte, or NUL).
    bool readHeaderLineIsEmpty()
    {
        std::size_t length = 0;
        char first = '\0';
        char c = char(next());
        while (!atEnd() && c != '\n') {
            if (length++ == 0)
                first = c;
            if (length == kHeaderLineLimit - 1) {
                while (!atEnd() && next() != '\n') {
                }
                break;
            }
            c = char(next());
        }
        return first == '\0';
    }

private:
    std::span<const std::uint8_t> bytes_;
    std::size_t position_ = 0;
};

[[noreturn]] void refuse(const char* reason)
{
    throw FormatError(std::string("damaged Radiance HDR file: ") + reason);
}

void requireFlatPixels(const Stream& stream, std::size_t pixels)
{
    if (stream.remaining() / 4 < pixels)
        refuse("truncated pixel data");
}

}  // namespace

void checkRadianceStream(std::span<const std::uint8_t> bytes, int width, int height)
{
    Stream stream(bytes);
    stream.readHeaderLineIsEmpty();  // "#?RADIANCE" or "#?RGBE", checked by stbi_info
    while (!stream.readHeaderLineIsEmpty()) {
    }
    stream.readHeaderLineIsEmpty();  // "-Y H +X W", parsed by stbi_info

    const std::size_t pixels = std::size_t(width) * std::size_t(height);
    if (width < kMinRleWidth || width >= kMaxRleWidth) {
        requireFlatPixels(stream, pixels);
        return;
    }
    // Before stb allocates the whole image: the fewest bytes that can hold it (every scanline as
    // 127-pixel runs, 2 bytes per run and component, after its 4-byte marker).
    constexpr std::size_t kLongestRun = 127;
    const std::size_t runsPerComponent = (std::size_t(width) + kLongestRun - 1) / kLongestRun;
    if (stream.remaining() / std::size_t(height) < 4 + 4 * 2 * runsPerComponent)
        refuse("truncated pixel data");
    for (int y = 0; y < height; ++y) {
        if (stream.remaining() < 4)
            refuse("truncated scanline");
        const std::uint8_t marker0 = stream.next();
        const std::uint8_t marker1 = stream.next();
        const std::uint8_t lengthHigh = stream.next();
        const std::uint8_t lengthLow = stream.next();
        if (marker0 != 2 || marker1 != 2 || (lengthHigh & 0x80)) {
            // Not RLE: stb decodes the 4 bytes as pixel 0 and restarts flat from pixel 1 of row 0.
            requireFlatPixels(stream, pixels - 1);
            return;
        }
        if (((int(lengthHigh) << 8) | lengthLow) != width)
            return;  // stb: "invalid decoded scanline length"
        for (int component = 0; component < 4; ++component) {
            int x = 0;
            while (x < width) {
                if (stream.atEnd())
                    refuse("truncated RLE scanline");
                int count = stream.next();
                const int left = width - x;
                if (count > 128) {
                    if (stream.atEnd())
                        refuse("truncated RLE scanline");
                    stream.next();
                    count -= 128;
                    if (count > left)
                        return;  // stb: "bad RLE data in HDR"
                } else {
                    if (count == 0)
                        refuse("RLE run of length 0");
                    if (count > left)
                        return;  // stb: "bad RLE data in HDR"
                    if (stream.remaining() < std::size_t(count))
                        refuse("truncated RLE scanline");
                    stream.skip(std::size_t(count));
                }
                x += count;
            }
        }
    }
}

}  // namespace image::detail
