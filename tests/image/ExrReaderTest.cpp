// ExrReaderTest.cpp: hdrlab's EXR reader against files written by OpenEXR 3 itself, in every
// compression, scanline and tiled (one level, mipmapped, ripmapped), half and float, with data
// windows off the origin, luminance-chroma, multi-part, multi-view and layers. What the reader
// returns must equal, bit for bit, what OpenEXR's own InputFile reads from the same file (lossy
// compressions included); lossless ones must also give back the values written. Deep files (scanline
// and tiled, written by OpenEXR's deep API) must flatten to composites computed by hand.
#include "image/DeepFlatten.h"
#include "image/ImageIo.h"
#include "support/TestPaths.h"

#include <ImfArray.h>
#include <ImfChannelList.h>
#include <ImfDeepFrameBuffer.h>
#include <ImfDeepScanLineOutputFile.h>
#include <ImfDeepTiledOutputFile.h>
#include <ImfFrameBuffer.h>
#include <ImfHeader.h>
#include <ImfInputFile.h>
#include <ImfMultiPartOutputFile.h>
#include <ImfMultiView.h>
#include <ImfOutputFile.h>
#include <ImfOutputPart.h>
#include <ImfPartType.h>
#include <ImfRgbaFile.h>
#include <ImfStandardAttributes.h>
#include <ImfTiledOutputFile.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

namespace {
namespace fs = std::filesystem;
using testing_support::scratchDir;

constexpr int kWidth = 37;  // odd sizes: partial chunks, partial tiles, odd mip levels
constexpr int kHeight = 23;
const Imath::Box2i kWindow(Imath::V2i(-3, 5), Imath::V2i(-3 + kWidth - 1, 5 + kHeight - 1));

/// Deterministic HDR values that half holds exactly (so lossless files give them back exactly):
/// 1/1024 steps times powers of two from 2^-8 to 2^12, different per channel.
float sourceValue(int x, int y, int channel)
{
    int mantissa = 1024 + (x * 7 + y * 13 + channel * 31) % 1024;
    int exponent = (x + 3 * y + 5 * channel) % 21 - 8;
    return std::ldexp(float(mantissa) / 1024.0f, exponent);
}

/// RGBA planes over the data window, in the channel's stored precision.
struct Planes
{
    std::vector<float> values[4];
    std::vector<Imath::half> halves[4];
    explicit Planes(int count)
    {
        for (int c = 0; c < 4; ++c) {
            values[c].resize(std::size_t(count));
            halves[c].resize(std::size_t(count));
        }
        for (int y = 0; y < kHeight; ++y)
            for (int x = 0; x < kWidth; ++x)
                for (int c = 0; c < 4; ++c) {
                    std::size_t i = std::size_t(y) * kWidth + std::size_t(x);
                    values[c][i] = sourceValue(x, y, c);
                    halves[c][i] = Imath::half(values[c][i]);
                }
    }
};

const char* const kRgba[4] = {"R", "G", "B", "A"};

/// A frame buffer over `planes` for channels prefix+R/G/B/A, addressed by data-window coordinates.
Imf::FrameBuffer frameOver(Planes& planes, Imf::PixelType type, const std::string& prefix = "")
{
    Imf::FrameBuffer frame;
    for (int c = 0; c < 4; ++c) {
        void* base = type == Imf::HALF ? static_cast<void*>(planes.halves[c].data())
                                       : static_cast<void*>(planes.values[c].data());
        std::size_t size = type == Imf::HALF ? sizeof(Imath::half) : sizeof(float);
        frame.insert(prefix + kRgba[c], Imf::Slice::Make(type, base, kWindow, size, size * kWidth));
    }
    return frame;
}

Imf::Header headerFor(Imf::Compression compression, Imf::PixelType type)
{
    Imf::Header header(kWindow, kWindow, 1.0f, Imath::V2f(0, 0), 1.0f, Imf::INCREASING_Y, compression);
    for (const char* name : kRgba)
        header.channels().insert(name, Imf::Channel(type));
    return header;
}

/// What OpenEXR's own scanline reader gives for R, G, B, A as float, interleaved.
std::vector<float> readWithOpenExr(const fs::path& path)
{
    Imf::InputFile input(path.c_str());
    std::vector<float> pixels(std::size_t(kWidth) * kHeight * 4);
    Imf::FrameBuffer frame;
    for (int c = 0; c < 4; ++c)
        frame.insert(kRgba[c],
                     Imf::Slice::Make(Imf::FLOAT, pixels.data() + c, input.header().dataWindow(), 4 * sizeof(float),
                                      4 * sizeof(float) * kWidth, 1, 1, c == 3 ? 1.0 : 0.0));
    input.setFrameBuffer(frame);
    input.readPixels(input.header().dataWindow().min.y, input.header().dataWindow().max.y);
    return pixels;
}

bool sameBits(float a, float b)
{
    return std::memcmp(&a, &b, sizeof(float)) == 0;
}

/// hdrlab's reading of `path` equals OpenEXR's bit for bit; with `lossless`, also the source.
void expectReadsLikeOpenExr(const fs::path& path, bool lossless, Imf::PixelType type)
{
    SCOPED_TRACE(path.filename().string());
    image::ImageF loaded = image::loadHdrImage(path);
    ASSERT_EQ(loaded.width, kWidth);
    ASSERT_EQ(loaded.height, kHeight);
    std::vector<float> reference = readWithOpenExr(path);
    int mismatches = 0;
    int sourceMismatches = 0;
    for (int y = 0; y < kHeight; ++y) {
        for (int x = 0; x < kWidth; ++x) {
            for (int c = 0; c < 4; ++c) {
                float value = loaded.at(x, y)[c];
                std::size_t i = (std::size_t(y) * kWidth + std::size_t(x)) * 4 + std::size_t(c);
                if (!sameBits(value, reference[i]) && ++mismatches <= 3)
                    ADD_FAILURE() << "pixel " << x << "," << y << " channel " << c << ": " << value << " vs OpenEXR's "
                                  << reference[i];
                float written = type == Imf::HALF ? float(Imath::half(sourceValue(x, y, c))) : sourceValue(x, y, c);
                if (lossless && !sameBits(value, written))
                    ++sourceMismatches;
            }
        }
    }
    EXPECT_EQ(mismatches, 0);
    EXPECT_EQ(sourceMismatches, 0) << "a lossless compression changed values";
}

struct CompressionCase
{
    Imf::Compression compression;
    const char* name;
    bool losslessHalf;
    bool losslessFloat;
};

// PXR24 rounds float to 24 bits; B44/B44A compress half channels lossily (float ones are stored
// as they are); DWAA/DWAB are lossy for colour channels.
const CompressionCase kCompressions[] = {
    {Imf::NO_COMPRESSION, "none", true, true},     {Imf::RLE_COMPRESSION, "rle", true, true},
    {Imf::ZIPS_COMPRESSION, "zips", true, true},   {Imf::ZIP_COMPRESSION, "zip", true, true},
    {Imf::PIZ_COMPRESSION, "piz", true, true},     {Imf::PXR24_COMPRESSION, "pxr24", true, false},
    {Imf::B44_COMPRESSION, "b44", false, true},    {Imf::B44A_COMPRESSION, "b44a", false, true},
    {Imf::DWAA_COMPRESSION, "dwaa", false, false}, {Imf::DWAB_COMPRESSION, "dwab", false, false},
};

TEST(ExrReader, EveryCompressionScanlineAndTiledHalfAndFloatReadsLikeOpenExr)
{
    fs::path dir = scratchDir("exr-reader-compressions");
    Planes planes(kWidth * kHeight);
    int files = 0;
    for (const CompressionCase& compression : kCompressions) {
        for (Imf::PixelType type : {Imf::HALF, Imf::FLOAT}) {
            const bool lossless = type == Imf::HALF ? compression.losslessHalf : compression.losslessFloat;
            const std::string stem = std::string(compression.name) + (type == Imf::HALF ? "-half" : "-float");

            fs::path scanline = dir / (stem + "-scanline.exr");
            {
                Imf::OutputFile output(scanline.c_str(), headerFor(compression.compression, type));
                output.setFrameBuffer(frameOver(planes, type));
                output.writePixels(kHeight);
            }
            expectReadsLikeOpenExr(scanline, lossless, type);

            for (Imf::LevelMode mode : {Imf::ONE_LEVEL, Imf::MIPMAP_LEVELS, Imf::RIPMAP_LEVELS}) {
                fs::path tiled = dir / (stem + "-tiled" + std::to_string(int(mode)) + ".exr");
                {
                    Imf::Header header = headerFor(compression.compression, type);
                    header.setTileDescription(Imf::TileDescription(16, 8, mode, Imf::ROUND_UP));
                    Imf::TiledOutputFile output(tiled.c_str(), header);
                    output.setFrameBuffer(frameOver(planes, type));
                    // Level 0 holds the image; the smaller levels get the same data's top-left
                    // corner (any content will do: the reader must read level 0 only).
                    for (int ly = 0; ly < output.numYLevels(); ++ly)
                        for (int lx = 0; lx < output.numXLevels(); ++lx)
                            if (output.isValidLevel(lx, ly))
                                output.writeTiles(0, output.numXTiles(lx) - 1, 0, output.numYTiles(ly) - 1, lx, ly);
                }
                expectReadsLikeOpenExr(tiled, lossless, type);
            }
            files += 4;
        }
    }
    EXPECT_EQ(files, 80);
}

TEST(ExrReader, DecreasingLineOrderKeepsRowsInPlace)
{
    fs::path path = scratchDir("exr-reader-lineorder") / "decreasing.exr";
    Planes planes(kWidth * kHeight);
    Imf::Header header = headerFor(Imf::ZIP_COMPRESSION, Imf::FLOAT);
    header.lineOrder() = Imf::DECREASING_Y;
    {
        Imf::OutputFile output(path.c_str(), header);
        output.setFrameBuffer(frameOver(planes, Imf::FLOAT));
        output.writePixels(kHeight);
    }
    image::ImageF loaded = image::loadHdrImage(path);
    ASSERT_EQ(loaded.height, kHeight);
    EXPECT_EQ(loaded.at(0, 0)[0], sourceValue(0, 0, 0));
    EXPECT_EQ(loaded.at(5, kHeight - 1)[2], sourceValue(5, kHeight - 1, 2));
}

TEST(ExrReader, DataWindowIsPlacedInTheDisplayWindow)
{
    fs::path path = scratchDir("exr-reader-window") / "framed.exr";
    Planes planes(kWidth * kHeight);
    Imf::Header header = headerFor(Imf::PIZ_COMPRESSION, Imf::FLOAT);
    header.displayWindow() = Imath::Box2i(Imath::V2i(-5, 4), Imath::V2i(40, 30));
    {
        Imf::OutputFile output(path.c_str(), header);
        output.setFrameBuffer(frameOver(planes, Imf::FLOAT));
        output.writePixels(kHeight);
    }
    image::ImageF framed = image::loadHdrImage(path);
    ASSERT_EQ(framed.width, 46);
    ASSERT_EQ(framed.height, 27);
    for (int y = 0; y < framed.height; ++y) {
        for (int x = 0; x < framed.width; ++x) {
            int dataX = x - 5 + 3;  // display x -5 is column 0; data x -3 is source column 0
            int dataY = y + 4 - 5;
            bool inside = dataX >= 0 && dataX < kWidth && dataY >= 0 && dataY < kHeight;
            for (int c = 0; c < 4; ++c)
                ASSERT_EQ(framed.at(x, y)[c], inside ? sourceValue(dataX, dataY, c) : 0.0f)
                    << x << "," << y << " channel " << c;
        }
    }
}

TEST(ExrReader, LuminanceChromaBecomesRgbLikeOpenExrsRgbaReader)
{
    fs::path path = scratchDir("exr-reader-yca") / "yca.exr";
    // Subsampled (2x2) chroma needs a data window of even position and size.
    constexpr int kWidth = 36;
    constexpr int kHeight = 22;
    const Imath::Box2i window(Imath::V2i(-4, 6), Imath::V2i(-4 + kWidth - 1, 6 + kHeight - 1));
    Imf::Array2D<Imf::Rgba> source(kHeight, kWidth);
    for (int y = 0; y < kHeight; ++y)
        for (int x = 0; x < kWidth; ++x)
            source[y][x] = Imf::Rgba(sourceValue(x, y, 0), sourceValue(x, y, 1), sourceValue(x, y, 2), 1.0f);
    {
        Imf::RgbaOutputFile output(path.c_str(), window, window, Imf::WRITE_YCA);
        output.setFrameBuffer(&source[0][0] - window.min.x - window.min.y * kWidth, 1, kWidth);
        output.writePixels(kHeight);
    }
    Imf::RgbaInputFile reference(path.c_str());
    ASSERT_EQ(reference.channels(), Imf::WRITE_YCA);
    Imf::Array2D<Imf::Rgba> expected(kHeight, kWidth);
    reference.setFrameBuffer(&expected[0][0] - window.min.x - window.min.y * kWidth, 1, kWidth);
    reference.readPixels(window.min.y, window.max.y);

    image::ImageF loaded = image::loadHdrImage(path);
    ASSERT_EQ(loaded.width, kWidth);
    ASSERT_EQ(loaded.height, kHeight);
    double chromaError = 0.0;
    for (int y = 0; y < kHeight; ++y) {
        for (int x = 0; x < kWidth; ++x) {
            const float* pixel = loaded.at(x, y);
            ASSERT_EQ(pixel[0], float(expected[y][x].r)) << x << "," << y;
            ASSERT_EQ(pixel[1], float(expected[y][x].g)) << x << "," << y;
            ASSERT_EQ(pixel[2], float(expected[y][x].b)) << x << "," << y;
            ASSERT_EQ(pixel[3], 1.0f);
            chromaError += std::abs(std::log2(pixel[1] / sourceValue(x, y, 1)));
        }
    }
    EXPECT_GT(chromaError, 0.0) << "subsampled chroma cannot be lossless on this pattern; was it really YC?";
}

std::string loadError(const fs::path& path, const std::string& part)
{
    try {
        image::loadHdrImage(path, part);
    } catch (const image::ImageError& error) {
        std::string message = error.what();
        EXPECT_EQ(message.find('\n'), std::string::npos) << message;
        return message;
    }
    ADD_FAILURE() << path << " part '" << part << "' loaded";
    return {};
}

TEST(ExrReader, GreyAndLayerOnlyFilesAreRead)
{
    fs::path dir = scratchDir("exr-reader-channels");
    Planes planes(kWidth * kHeight);
    {
        Imf::Header header(kWindow, kWindow);
        header.channels().insert("Y", Imf::Channel(Imf::FLOAT));
        Imf::OutputFile output((dir / "grey.exr").c_str(), header);
        Imf::FrameBuffer frame;
        frame.insert(
            "Y", Imf::Slice::Make(Imf::FLOAT, planes.values[1].data(), kWindow, sizeof(float), sizeof(float) * kWidth));
        output.setFrameBuffer(frame);
        output.writePixels(kHeight);
    }
    image::ImageF grey = image::loadHdrImage(dir / "grey.exr");
    EXPECT_EQ(grey.at(4, 7)[0], sourceValue(4, 7, 1));
    EXPECT_EQ(grey.at(4, 7)[1], sourceValue(4, 7, 1));
    EXPECT_EQ(grey.at(4, 7)[2], sourceValue(4, 7, 1));
    EXPECT_EQ(grey.at(4, 7)[3], 1.0f);

    {
        Imf::Header header(kWindow, kWindow);
        for (const char* name : kRgba)
            header.channels().insert(std::string("diffuse.") + name, Imf::Channel(Imf::HALF));
        header.channels().insert("Z", Imf::Channel(Imf::FLOAT));
        Imf::OutputFile output((dir / "layer.exr").c_str(), header);
        output.setFrameBuffer(frameOver(planes, Imf::HALF, "diffuse."));
        output.writePixels(kHeight);
    }
    {
        Imf::Header header(kWindow, kWindow);
        header.channels().insert("N", Imf::Channel(Imf::FLOAT));
        header.channels().insert("Z", Imf::Channel(Imf::FLOAT));
        Imf::OutputFile output((dir / "data.exr").c_str(), header);
        output.setFrameBuffer(Imf::FrameBuffer());
        output.writePixels(kHeight);
    }
    EXPECT_NE(loadError(dir / "data.exr", "").find("no R, G, B or Y channel in any part (part 0 has: N, Z)"),
              std::string::npos);

    image::ImageF layer = image::loadHdrImage(dir / "layer.exr");
    EXPECT_EQ(layer.at(9, 2)[2], float(Imath::half(sourceValue(9, 2, 2))));
    EXPECT_EQ(image::loadHdrImage(dir / "layer.exr", "diffuse").at(9, 2)[0], float(Imath::half(sourceValue(9, 2, 0))));
}

/// A two-part file: part 0 "depth" holds only Z, part 1 "beauty" holds RGBA; `views` (if any) are
/// the parts' view attributes.
fs::path writeTwoParts(const fs::path& dir, Planes& planes, const std::vector<std::string>& views = {})
{
    fs::path path = dir / "parts.exr";
    Imf::Header depth(kWindow, kWindow);
    depth.setName("depth");
    depth.setType(Imf::SCANLINEIMAGE);
    depth.channels().insert("Z", Imf::Channel(Imf::FLOAT));
    Imf::Header beauty = headerFor(Imf::ZIP_COMPRESSION, Imf::FLOAT);
    beauty.setName("beauty");
    beauty.setType(Imf::SCANLINEIMAGE);
    if (views.size() == 2) {
        depth.setView(views[0]);
        beauty.setView(views[1]);
    }
    std::vector<Imf::Header> headers = {depth, beauty};
    Imf::MultiPartOutputFile output(path.c_str(), headers.data(), int(headers.size()));
    Imf::OutputPart depthPart(output, 0);
    Imf::FrameBuffer depthFrame;
    depthFrame.insert(
        "Z", Imf::Slice::Make(Imf::FLOAT, planes.values[3].data(), kWindow, sizeof(float), sizeof(float) * kWidth));
    depthPart.setFrameBuffer(depthFrame);
    depthPart.writePixels(kHeight);
    Imf::OutputPart beautyPart(output, 1);
    beautyPart.setFrameBuffer(frameOver(planes, Imf::FLOAT));
    beautyPart.writePixels(kHeight);
    return path;
}

TEST(ExrReader, MultiPartFilesReadTheFirstColourPartOrTheOneAskedFor)
{
    fs::path dir = scratchDir("exr-reader-parts");
    Planes planes(kWidth * kHeight);
    fs::path path = writeTwoParts(dir, planes);
    EXPECT_EQ(image::loadHdrImage(path).at(3, 4)[1], sourceValue(3, 4, 1)) << "default: the first part with colour";
    EXPECT_EQ(image::loadHdrImage(path, "1").at(3, 4)[2], sourceValue(3, 4, 2));
    EXPECT_EQ(image::loadHdrImage(path, "beauty").at(3, 4)[0], sourceValue(3, 4, 0));
    EXPECT_EQ(image::loadHdrImage(path, "depth").at(3, 4)[0], sourceValue(3, 4, 3)) << "a lone channel is grey";
    EXPECT_NE(loadError(path, "7").find("no part 7: the file has 2 parts"), std::string::npos);
    EXPECT_NE(loadError(path, "specular").find("no part, view or layer named 'specular'"), std::string::npos);
}

TEST(ExrReader, MultiViewFilesReadTheDefaultViewOrTheOneAskedFor)
{
    fs::path path = scratchDir("exr-reader-views") / "stereo.exr";
    Planes left(kWidth * kHeight);
    Planes right(kWidth * kHeight);
    for (int c = 0; c < 4; ++c)
        for (float& value : right.values[c])
            value *= 2.0f;
    {
        Imf::Header header = headerFor(Imf::PIZ_COMPRESSION, Imf::FLOAT);
        for (const char* name : kRgba)
            header.channels().insert(std::string("right.") + name, Imf::Channel(Imf::FLOAT));
        Imf::addMultiView(header, Imf::StringVector{"left", "right"});
        Imf::OutputFile output(path.c_str(), header);
        Imf::FrameBuffer frame = frameOver(left, Imf::FLOAT);
        Imf::FrameBuffer rightFrame = frameOver(right, Imf::FLOAT, "right.");
        for (auto it = rightFrame.begin(); it != rightFrame.end(); ++it)
            frame.insert(it.name(), it.slice());
        output.setFrameBuffer(frame);
        output.writePixels(kHeight);
    }
    EXPECT_EQ(image::loadHdrImage(path).at(6, 6)[0], sourceValue(6, 6, 0));
    EXPECT_EQ(image::loadHdrImage(path, "left").at(6, 6)[0], sourceValue(6, 6, 0));
    EXPECT_EQ(image::loadHdrImage(path, "right").at(6, 6)[0], 2.0f * sourceValue(6, 6, 0));
}

TEST(ExrReader, MultiPartViewsAreFoundByTheirViewAttribute)
{
    // OpenEXR 2's multi-part stereo: a part per view and kind, named freely, its view an attribute.
    fs::path dir = scratchDir("exr-reader-part-views");
    Planes planes(kWidth * kHeight);
    fs::path path = writeTwoParts(dir, planes, {"left", "right"});
    EXPECT_EQ(image::loadHdrImage(path, "right").at(3, 4)[1], sourceValue(3, 4, 1));
    EXPECT_NE(loadError(path, "left").find("part 0 'depth' of view 'left'"), std::string::npos)
        << "a view with only a depth part has no colour";
}

// ---- deep images ----

/// Which channels a deep test file has and how it is stored.
struct DeepLayout
{
    bool tiled = false;
    bool grey = false;        // Y instead of R, G, B
    std::string colourLayer;  // "diffuse": diffuse.R, diffuse.G, diffuse.B (alpha stays A)
    std::string view;         // "right": every channel of view "right" (right.R ... right.Z) of views left, right
    bool alpha = true;
    bool depth = true;
    bool depthBack = false;
    Imf::Compression compression = Imf::ZIPS_COMPRESSION;
};

/// Writes a deep file with OpenEXR over `window`: `pixels` row-major, each a list of samples in
/// stored order. Colour and alpha are half, Z and ZBack float.
void writeDeepFile(const fs::path& path,
                   const Imath::Box2i& window,
                   const Imath::Box2i& display,
                   const std::vector<std::vector<image::DeepSample>>& pixels,
                   const DeepLayout& layout)
{
    const int width = window.max.x - window.min.x + 1;
    const int height = window.max.y - window.min.y + 1;
    ASSERT_EQ(pixels.size(), std::size_t(width) * std::size_t(height));
    Imf::Header header(display, window);
    header.compression() = layout.compression;
    header.setType(layout.tiled ? Imf::DEEPTILE : Imf::DEEPSCANLINE);
    if (layout.tiled)
        header.setTileDescription(Imf::TileDescription(3, 1, Imf::ONE_LEVEL));

    struct Channel
    {
        std::string name;
        Imf::PixelType type;
        float image::DeepSample::*field;
    };
    std::vector<Channel> channels;
    const std::string prefix = !layout.view.empty()          ? layout.view + "."
                               : !layout.colourLayer.empty() ? layout.colourLayer + "."
                                                             : "";
    const std::string otherPrefix = layout.view.empty() ? "" : layout.view + ".";
    if (!layout.view.empty())
        Imf::addMultiView(header, Imf::StringVector{"left", layout.view});
    if (layout.grey)
        channels.push_back({prefix + "Y", Imf::HALF, &image::DeepSample::red});
    else
        channels.insert(channels.end(), {{prefix + "R", Imf::HALF, &image::DeepSample::red},
                                         {prefix + "G", Imf::HALF, &image::DeepSample::green},
                                         {prefix + "B", Imf::HALF, &image::DeepSample::blue}});
    if (layout.alpha)
        channels.push_back({otherPrefix + "A", Imf::HALF, &image::DeepSample::alpha});
    if (layout.depth)
        channels.push_back({otherPrefix + "Z", Imf::FLOAT, &image::DeepSample::z});
    if (layout.depthBack)
        channels.push_back({otherPrefix + "ZBack", Imf::FLOAT, &image::DeepSample::zBack});

    std::vector<unsigned int> counts;
    for (const auto& samples : pixels)
        counts.push_back(unsigned(samples.size()));
    // Per channel: every sample's value (half or float) and a pointer per pixel to its first one.
    std::vector<std::vector<Imath::half>> halves(channels.size());
    std::vector<std::vector<float>> floats(channels.size());
    std::vector<std::vector<char*>> pointers(channels.size());
    Imf::DeepFrameBuffer frame;
    frame.insertSampleCountSlice(
        Imf::Slice::Make(Imf::UINT, counts.data(), window, sizeof(unsigned int), sizeof(unsigned int) * width));
    for (std::size_t c = 0; c < channels.size(); ++c) {
        header.channels().insert(channels[c].name, Imf::Channel(channels[c].type));
        for (const auto& samples : pixels)
            for (const image::DeepSample& sample : samples) {
                halves[c].push_back(Imath::half(sample.*channels[c].field));
                floats[c].push_back(sample.*channels[c].field);
            }
        const bool half = channels[c].type == Imf::HALF;
        const std::size_t size = half ? sizeof(Imath::half) : sizeof(float);
        char* values = half ? reinterpret_cast<char*>(halves[c].data()) : reinterpret_cast<char*>(floats[c].data());
        std::size_t next = 0;
        for (const auto& samples : pixels) {
            pointers[c].push_back(values + next * size);
            next += samples.size();
        }
        char* base =
            Imf::Slice::Make(channels[c].type, pointers[c].data(), window, sizeof(char*), sizeof(char*) * width).base;
        frame.insert(channels[c].name,
                     Imf::DeepSlice(channels[c].type, base, sizeof(char*), sizeof(char*) * width, size));
    }
    if (layout.tiled) {
        Imf::DeepTiledOutputFile output(path.c_str(), header);
        output.setFrameBuffer(frame);
        output.writeTiles(0, output.numXTiles(0) - 1, 0, output.numYTiles(0) - 1);
    } else {
        Imf::DeepScanLineOutputFile output(path.c_str(), header);
        output.setFrameBuffer(frame);
        output.writePixels(height);
    }
}

image::DeepSample deepSample(float z, float red, float green, float blue, float alpha, float zBack = -1.0f)
{
    return {z, zBack < 0.0f ? z : zBack, red, green, blue, alpha};
}

void expectPixel(const image::ImageF& image, int x, int y, const std::array<float, 4>& expected)
{
    const float* pixel = image.at(x, y);
    EXPECT_EQ((std::array<float, 4>{pixel[0], pixel[1], pixel[2], pixel[3]}), expected) << "pixel " << x << "," << y;
}

TEST(ExrReader, DeepScanlineAndTiledImagesAreFlattenedFrontToBack)
{
    // A 4x2 data window at (-2, 3), shown in a display window one column wider on the left. Every
    // stored value is exact in half and every composite exact in float, so the result must equal
    // the composite computed by hand bit for bit.
    const Imath::Box2i window(Imath::V2i(-2, 3), Imath::V2i(1, 4));
    const Imath::Box2i display(Imath::V2i(-3, 3), Imath::V2i(1, 4));
    using image::DeepSample;
    std::vector<std::vector<DeepSample>> pixels = {
        {},
        {deepSample(3, 0.25f, 0.5f, 0.125f, 0.5f)},
        // Unsorted: white at 5 (opaque), red at 1, green at 3.
        {deepSample(5, 1, 1, 1, 1), deepSample(1, 0.5f, 0, 0, 0.5f), deepSample(3, 0, 0.25f, 0, 0.25f)},
        // An opaque sample at 2 hides the one at 4, though it is stored first.
        {deepSample(4, 8, 8, 8, 0.5f), deepSample(2, 0.75f, 0.5f, 0.25f, 1)},
        // HDR values above 1.
        {deepSample(1, 16, 2, 0.5f, 0.5f), deepSample(2, 4, 4, 4, 1)},
        {},
        {deepSample(7, 0.125f, 0.125f, 0.125f, 0.125f)},
        {deepSample(2, 0, 0, 0.5f, 0.5f, 3), deepSample(1, 0.5f, 0, 0, 0.5f, 2)},
    };
    // By hand, front to back: C += (1 - A) * c; A += (1 - A) * a.
    const std::array<float, 4> expected[8] = {
        {0, 0, 0, 0},
        {0.25f, 0.5f, 0.125f, 0.5f},
        {0.875f, 0.5f, 0.375f, 1},  // (0.5,0,0) + 0.5 * (0,0.25,0) + 0.375 * (1,1,1)
        {0.75f, 0.5f, 0.25f, 1},
        {18, 4, 2.5f, 1},  // (16,2,0.5) + 0.5 * (4,4,4)
        {0, 0, 0, 0},
        {0.125f, 0.125f, 0.125f, 0.125f},
        {0.5f, 0, 0.25f, 0.75f},  // (0.5,0,0) + 0.5 * (0,0,0.5)
    };
    const fs::path dir = scratchDir("exr-reader-deep");
    int files = 0;
    for (bool tiled : {false, true}) {
        // The compressions OpenEXR allows for deep data.
        for (Imf::Compression compression : {Imf::NO_COMPRESSION, Imf::RLE_COMPRESSION, Imf::ZIPS_COMPRESSION}) {
            DeepLayout layout;
            layout.tiled = tiled;
            layout.depthBack = tiled;  // pixel 7's samples are then touching volumes [1, 2] and [2, 3]
            layout.compression = compression;
            const fs::path path = dir / ("deep-" + std::to_string(int(compression)) + (tiled ? "-tiled.exr" : ".exr"));
            writeDeepFile(path, window, display, pixels, layout);
            SCOPED_TRACE(path.filename().string());
            const image::ImageF image = image::loadHdrImage(path);
            ASSERT_EQ(image.width, 5);
            ASSERT_EQ(image.height, 2);
            for (int y = 0; y < 2; ++y) {
                expectPixel(image, 0, y, {0, 0, 0, 0});  // outside the data window
                for (int x = 0; x < 4; ++x)
                    expectPixel(image, x + 1, y, expected[y * 4 + x]);
            }
            ++files;
        }
    }
    EXPECT_EQ(files, 6);
}

TEST(ExrReader, DeepImagesWithoutAlphaOrDepthFollowTheDocumentedRules)
{
    const Imath::Box2i window(Imath::V2i(0, 0), Imath::V2i(1, 0));
    const fs::path dir = scratchDir("exr-reader-deep-rules");
    using image::DeepSample;
    // No alpha: every sample is opaque, so the front one is the pixel (grey Y here).
    DeepLayout noAlpha;
    noAlpha.grey = true;
    noAlpha.alpha = false;
    writeDeepFile(dir / "no-alpha.exr", window, window,
                  {{deepSample(2, 0.5f, 0.5f, 0.5f, 1), deepSample(1, 0.25f, 0.25f, 0.25f, 1)}, {}}, noAlpha);
    image::ImageF image = image::loadHdrImage(dir / "no-alpha.exr");
    expectPixel(image, 0, 0, {0.25f, 0.25f, 0.25f, 1});
    expectPixel(image, 1, 0, {0, 0, 0, 0});

    // No Z: the stored order is the only order (sorted by a zero depth it would not move either,
    // but a merge of coincident samples would give neither 0.75 nor 1).
    DeepLayout noDepth;
    noDepth.depth = false;
    writeDeepFile(dir / "no-depth.exr", window, window,
                  {{deepSample(0, 0.25f, 0.25f, 0.25f, 0.5f), deepSample(0, 1, 1, 1, 1)}, {deepSample(0, 2, 4, 8, 1)}},
                  noDepth);
    image = image::loadHdrImage(dir / "no-depth.exr");
    expectPixel(image, 0, 0, {0.75f, 0.75f, 0.75f, 1});
    expectPixel(image, 1, 0, {2, 4, 8, 1});

    // A layer without its own alpha takes the enclosing (here the base) layer's A.
    DeepLayout layer;
    layer.colourLayer = "diffuse";
    writeDeepFile(dir / "layer.exr", window, window,
                  {{deepSample(2, 1, 1, 1, 1), deepSample(1, 0.25f, 0.25f, 0.25f, 0.5f)}, {}}, layer);
    image = image::loadHdrImage(dir / "layer.exr");
    expectPixel(image, 0, 0, {0.75f, 0.75f, 0.75f, 1});  // not 0.25: the front sample is half transparent

    // A multi-view part's non-default view keeps its own depth (right.Z) and alpha (right.A).
    DeepLayout view;
    view.view = "right";
    writeDeepFile(dir / "view.exr", window, window,
                  {{deepSample(2, 1, 1, 1, 1), deepSample(1, 0.25f, 0.25f, 0.25f, 0.5f)}, {}}, view);
    image = image::loadHdrImage(dir / "view.exr", "right");
    expectPixel(image, 0, 0, {0.75f, 0.75f, 0.75f, 1});  // sorted by right.Z: the opaque white one is behind
}

TEST(ExrReader, DeepPixelsWithTooManySamplesAreRefused)
{
    const Imath::Box2i window(Imath::V2i(0, 0), Imath::V2i(0, 0));
    const fs::path path = scratchDir("exr-reader-deep-many") / "many.exr";
    writeDeepFile(path, window, window,
                  {std::vector<image::DeepSample>(std::size_t(image::kMaxDeepSamplesPerPixel) + 1)}, DeepLayout{});
    const std::string message = loadError(path, "");
    EXPECT_NE(message.find("pixel (0, 0) holds 262145 deep samples; hdrlab flattens at most 262144 per pixel"),
              std::string::npos)
        << message;
}

TEST(ExrReader, AskingForAPartOfAnotherFormatIsAnError)
{
    fs::path path = scratchDir("exr-reader-not-exr") / "flat.hdr";
    image::ImageF small(2, 2);
    small.pixels.assign(16, 0.5f);
    image::writeExr(path.parent_path() / "small.exr", small);
    EXPECT_EQ(image::loadHdrImage(path.parent_path() / "small.exr", "0").width, 2);
    image::writePng(path.parent_path() / "small.png", image::encodeSrgb8(small));
    EXPECT_NE(loadError(path.parent_path() / "small.png", "0").find("not an OpenEXR file"), std::string::npos);
}

}  // namespace
