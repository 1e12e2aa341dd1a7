// ExrReaderTest.cpp: hdrlab's EXR reader against files written by OpenEXR 3 itself, in every
// compression, scanline and tiled (one level, mipmapped, ripmapped), half and float, with data
// windows off the origin, luminance-chroma, multi-part, multi-view, layers and deep data. What the
// reader returns must equal, bit for bit, what OpenEXR's own InputFile reads from the same file
// (lossy compressions included); lossless ones must also give back the values written.
#include "image/ImageIo.h"
#include "support/TestPaths.h"

#include <ImfArray.h>
#include <ImfChannelList.h>
#include <ImfDeepFrameBuffer.h>
#include <ImfDeepScanLineOutputFile.h>
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

/// A two-part file: part 0 "depth" holds only Z, part 1 "beauty" holds RGBA.
fs::path writeTwoParts(const fs::path& dir, Planes& planes)
{
    fs::path path = dir / "parts.exr";
    Imf::Header depth(kWindow, kWindow);
    depth.setName("depth");
    depth.setType(Imf::SCANLINEIMAGE);
    depth.channels().insert("Z", Imf::Channel(Imf::FLOAT));
    Imf::Header beauty = headerFor(Imf::ZIP_COMPRESSION, Imf::FLOAT);
    beauty.setName("beauty");
    beauty.setType(Imf::SCANLINEIMAGE);
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

TEST(ExrReader, DeepImagesAreRefusedWithAClearError)
{
    fs::path path = scratchDir("exr-reader-deep") / "deep.exr";
    {
        Imf::Header header(kWindow, kWindow);
        header.setType(Imf::DEEPSCANLINE);
        header.compression() = Imf::ZIPS_COMPRESSION;
        header.channels().insert("Z", Imf::Channel(Imf::FLOAT));
        Imf::DeepScanLineOutputFile output(path.c_str(), header);
        std::vector<unsigned int> counts(std::size_t(kWidth) * kHeight, 1);
        std::vector<float> depths(counts.size(), 1.0f);
        std::vector<float*> pointers(counts.size());
        for (std::size_t i = 0; i < counts.size(); ++i)
            pointers[i] = &depths[i];
        Imf::DeepFrameBuffer frame;
        frame.insertSampleCountSlice(
            Imf::Slice::Make(Imf::UINT, counts.data(), kWindow, sizeof(unsigned int), sizeof(unsigned int) * kWidth));
        frame.insert("Z",
                     Imf::DeepSlice(Imf::FLOAT,
                                    reinterpret_cast<char*>(pointers.data() - kWindow.min.x - kWindow.min.y * kWidth),
                                    sizeof(float*), sizeof(float*) * kWidth, sizeof(float)));
        output.setFrameBuffer(frame);
        output.writePixels(kHeight);
    }
    EXPECT_NE(loadError(path, "").find("deep"), std::string::npos);
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
