// ExrDeepReader.cpp: deep OpenEXR parts through OpenEXR 3's DeepScanLineInputPart and
// DeepTiledInputPart. The library writes each sample's channels straight into DeepSample records
// (a deep slice per channel, the record size as its sample stride), so one strip costs its samples
// once; the strip is then flattened pixel by pixel into the image.
#include "image/ExrDeepReader.h"

#include "image/DeepFlatten.h"
#include "image/FormatError.h"
#include "util/Log.h"

#include <ImfChannelList.h>
#include <ImfDeepFrameBuffer.h>
#include <ImfDeepScanLineInputPart.h>
#include <ImfDeepTiledInputPart.h>
#include <ImfFrameBuffer.h>
#include <ImfHeader.h>
#include <ImfPartType.h>

#include <algorithm>
#include <cstddef>
#include <span>
#include <vector>

namespace image::detail {
namespace {

// Rows decoded at a time from a deep scanline part: a multiple of its chunk height (1 line for the
// NONE, RLE and ZIPS compressions OpenEXR 3.1 allows for deep data, 16 for ZIP), counted from the
// data window's top like the chunks.
constexpr int kStripRows = 16;

[[noreturn]] void damaged(const std::string& reason)
{
    throw FormatError("damaged OpenEXR file: " + reason);
}

[[noreturn]] void unsupported(const std::string& reason)
{
    throw FormatError("unsupported OpenEXR file: " + reason);
}

/// A channel of the file and the DeepSample field it fills.
struct FieldSource
{
    std::string channel;
    std::size_t offset;
};

std::vector<FieldSource> fieldSources(const DeepChannels& channels)
{
    std::vector<FieldSource> sources;
    auto add = [&](const std::string& channel, std::size_t offset) {
        if (!channel.empty())
            sources.push_back({channel, offset});
    };
    if (channels.red.empty() && channels.green.empty() && channels.blue.empty()) {
        add(channels.luminance, offsetof(DeepSample, red));  // spread to G and B after reading
    } else {
        add(channels.red, offsetof(DeepSample, red));
        add(channels.green, offsetof(DeepSample, green));
        add(channels.blue, offsetof(DeepSample, blue));
    }
    add(channels.alpha, offsetof(DeepSample, alpha));
    add(channels.depth, offsetof(DeepSample, z));
    add(channels.depthBack, offsetof(DeepSample, zBack));
    return sources;
}

/// Bytes one sample costs while decoding: the library's decompressed chunk (every channel of the
/// file at its stored size) or our DeepSample record, whichever is larger.
std::uint64_t bytesPerSample(const Imf::Header& header)
{
    std::uint64_t stored = 0;
    for (auto it = header.channels().begin(); it != header.channels().end(); ++it)
        stored += it.channel().type == Imf::HALF ? 2 : 4;
    return std::max<std::uint64_t>(stored, sizeof(DeepSample));
}

/// Refuses absurd counts before any sample is decoded.
void checkCounts(std::span<const unsigned int> counts,
                 const Imath::Box2i& window,
                 std::uint64_t sampleBytes,
                 std::uint64_t budgetBytes)
{
    const std::int64_t width = std::int64_t(window.max.x) - window.min.x + 1;
    std::uint64_t total = 0;
    for (std::size_t i = 0; i < counts.size(); ++i) {
        if (counts[i] > kMaxDeepSamplesPerPixel)
            unsupported(util::format("pixel ({}, {}) holds {} deep samples; hdrlab flattens at most {} per pixel",
                                     window.min.x + std::int64_t(i) % width, window.min.y + std::int64_t(i) / width,
                                     counts[i], kMaxDeepSamplesPerPixel));
        total += counts[i];
    }
    if (total * sampleBytes > budgetBytes)
        damaged(util::format("{} deep samples ({} MiB decoded) are more than a file of this size may hold ({} MiB)",
                             total, (total * sampleBytes) >> 20, budgetBytes >> 20));
}

/// Samples of one strip of rows, decoded into DeepSample records and flattened.
class DeepStrip
{
public:
    DeepStrip(const Imath::Box2i& window, const DeepChannels& channels, std::span<const unsigned int> counts)
        : mWindow(window),
          mWidth(window.max.x - window.min.x + 1),
          mSources(fieldSources(channels)),
          mPointers(mSources.size()),
          mCounts(counts),
          mGrey(channels.red.empty() && channels.green.empty() && channels.blue.empty()),
          mHasDepthBack(!channels.depthBack.empty()),
          mDepth(channels.depth.empty() ? DeepDepth::Absent : DeepDepth::Present)
    {
    }

    /// A frame buffer for rows [firstRow, lastRow]: this strip's sample counts (as read before)
    /// and a deep slice per channel into fresh DeepSample records.
    Imf::DeepFrameBuffer frameBufferFor(int firstRow, int lastRow)
    {
        mFirstRow = firstRow;
        mRows = lastRow - firstRow + 1;
        const std::size_t pixels = std::size_t(mRows) * std::size_t(mWidth);
        const std::span<const unsigned int> counts = stripCounts();
        mStripCounts.assign(counts.begin(), counts.end());
        std::uint64_t total = 0;
        for (unsigned int count : counts)
            total += count;
        mSamples.assign(std::size_t(total), DeepSample{});
        for (std::size_t field = 0; field < mSources.size(); ++field) {
            std::vector<char*>& pointers = mPointers[field];
            pointers.resize(pixels);
            std::size_t next = 0;
            for (std::size_t pixel = 0; pixel < pixels; ++pixel) {
                pointers[pixel] = counts[pixel] == 0
                                      ? nullptr
                                      : reinterpret_cast<char*>(mSamples.data() + next) + mSources[field].offset;
                next += counts[pixel];
            }
        }

        const Imath::V2i origin(mWindow.min.x, firstRow);
        Imf::DeepFrameBuffer frame;
        frame.insertSampleCountSlice(Imf::Slice::Make(Imf::UINT, mStripCounts.data(), origin, mWidth, mRows,
                                                      sizeof(unsigned int), sizeof(unsigned int) * mWidth));
        for (std::size_t field = 0; field < mSources.size(); ++field) {
            // Slice::Make computes the base for the window's origin without overflowing a pointer.
            char* base = Imf::Slice::Make(Imf::FLOAT, mPointers[field].data(), origin, mWidth, mRows, sizeof(char*),
                                          sizeof(char*) * mWidth)
                             .base;
            frame.insert(mSources[field].channel,
                         Imf::DeepSlice(Imf::FLOAT, base, sizeof(char*), sizeof(char*) * mWidth, sizeof(DeepSample)));
        }
        return frame;
    }

    /// A scanline part re-reads the counts into the strip's slice: they must be the ones budgeted.
    void requireCountsUnchanged() const
    {
        const std::span<const unsigned int> counts = stripCounts();
        if (!std::equal(counts.begin(), counts.end(), mStripCounts.begin()))
            damaged(util::format("the sample counts of rows {}..{} changed between two readings", mFirstRow,
                                 mFirstRow + mRows - 1));
    }

    void flattenInto(ImageF& image)
    {
        std::size_t next = 0;
        for (int row = 0; row < mRows; ++row) {
            const int y = mFirstRow - mWindow.min.y + row;
            for (int x = 0; x < mWidth; ++x) {
                const unsigned int count = mStripCounts[std::size_t(row) * std::size_t(mWidth) + std::size_t(x)];
                std::span<DeepSample> samples(mSamples.data() + next, count);
                next += count;
                for (DeepSample& sample : samples) {
                    if (mGrey)
                        sample.green = sample.blue = sample.red;
                    if (!mHasDepthBack)
                        sample.zBack = sample.z;
                }
                const std::array<float, 4> rgba = mFlattener.flatten(samples, mDepth);
                std::copy(rgba.begin(), rgba.end(), image.at(x, y));
            }
        }
    }

private:
    std::span<const unsigned int> stripCounts() const
    {
        const std::size_t first = std::size_t(mFirstRow - mWindow.min.y) * std::size_t(mWidth);
        return mCounts.subspan(first, std::size_t(mRows) * std::size_t(mWidth));
    }

    Imath::Box2i mWindow;
    int mWidth;
    std::vector<FieldSource> mSources;
    std::vector<std::vector<char*>> mPointers;  // per field, per pixel of the strip
    std::span<const unsigned int> mCounts;      // the whole data window's, as budgeted
    std::vector<unsigned int> mStripCounts;     // the strip's, in the frame buffer
    std::vector<DeepSample> mSamples;
    bool mGrey;
    bool mHasDepthBack;
    DeepDepth mDepth;
    DeepPixelFlattener mFlattener;
    int mFirstRow = 0;
    int mRows = 0;
};

Imf::DeepFrameBuffer countsOnly(std::vector<unsigned int>& counts, const Imath::Box2i& window)
{
    const std::size_t width = std::size_t(std::int64_t(window.max.x) - window.min.x + 1);
    Imf::DeepFrameBuffer frame;
    frame.insertSampleCountSlice(
        Imf::Slice::Make(Imf::UINT, counts.data(), window, sizeof(unsigned int), sizeof(unsigned int) * width));
    return frame;
}

}  // namespace

ImageF readDeepPart(Imf::MultiPartInputFile& file, int part, const DeepChannels& channels, std::uint64_t budgetBytes)
{
    const Imf::Header& header = file.header(part);
    const Imath::Box2i window = header.dataWindow();
    const int width = window.max.x - window.min.x + 1;
    const int height = window.max.y - window.min.y + 1;
    std::vector<unsigned int> counts(std::size_t(width) * std::size_t(height), 0);
    ImageF image(width, height);

    if (header.type() == Imf::DEEPSCANLINE) {
        Imf::DeepScanLineInputPart input(file, part);
        input.setFrameBuffer(countsOnly(counts, window));
        input.readPixelSampleCounts(window.min.y, window.max.y);
        checkCounts(counts, window, bytesPerSample(header), budgetBytes);
        DeepStrip strip(window, channels, counts);
        for (std::int64_t first = window.min.y; first <= window.max.y; first += kStripRows) {
            const int last = int(std::min<std::int64_t>(window.max.y, first + kStripRows - 1));
            input.setFrameBuffer(strip.frameBufferFor(int(first), last));
            input.readPixelSampleCounts(int(first), last);
            strip.requireCountsUnchanged();
            input.readPixels(int(first), last);
            strip.flattenInto(image);
        }
        return image;
    }
    if (header.type() != Imf::DEEPTILE)
        unsupported("part type '" + header.type() + "' is not deep");

    Imf::DeepTiledInputPart input(file, part);
    const int tilesX = input.numXTiles(0);
    const int tilesY = input.numYTiles(0);
    input.setFrameBuffer(countsOnly(counts, window));
    input.readPixelSampleCounts(0, tilesX - 1, 0, tilesY - 1, 0, 0);
    checkCounts(counts, window, bytesPerSample(header), budgetBytes);
    DeepStrip strip(window, channels, counts);
    const std::int64_t tileHeight = input.tileYSize();
    for (int tileRow = 0; tileRow < tilesY; ++tileRow) {
        const std::int64_t first = window.min.y + tileRow * tileHeight;
        const int last = int(std::min<std::int64_t>(window.max.y, first + tileHeight - 1));
        // The tiled reader takes the counts from the frame buffer's slice (no re-reading).
        input.setFrameBuffer(strip.frameBufferFor(int(first), last));
        input.readTiles(0, tilesX - 1, tileRow, tileRow, 0, 0);
        strip.flattenInto(image);
    }
    return image;
}

}  // namespace image::detail
