// ImageIoTest.cpp: tests of src/image (loading, writing, sRGB conversion, robustness). Files are
// generated in scratchDir so a fresh clone runs everything except the tests on ../shared/exr data
// (real photographs and OpenEXR's damaged-file corpus), which skip when that folder is absent.
#include "image/ImageIo.h"
#include "support/TestPaths.h"

#include <gtest/gtest.h>
#include <stb_image_write.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <random>

namespace {
namespace fs = std::filesystem;
using testing_support::scratchDir;
using testing_support::sharedData;

std::string readBytes(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

void writeBytes(const fs::path& path, const std::string& bytes)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), std::streamsize(bytes.size()));
}

/// A small image whose every value differs, so flips, swaps and offsets show up.
image::ImageF makeGradient(int width, int height)
{
    image::ImageF result(width, height);
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            float* pixel = result.at(x, y);
            pixel[0] = 0.25f + float(x);
            pixel[1] = 0.5f + float(y) * 2.0f;
            pixel[2] = 4.0f + float(x + y * width);
            pixel[3] = 0.125f * float((x + y) % 8);
        }
    }
    return result;
}

void expectSameValues(const image::ImageF& expected, const image::ImageF& actual)
{
    ASSERT_EQ(expected.width, actual.width);
    ASSERT_EQ(expected.height, actual.height);
    ASSERT_EQ(expected.pixels.size(), actual.pixels.size());
    for (std::size_t i = 0; i < expected.pixels.size(); ++i) {
        if (std::isnan(expected.pixels[i]))
            EXPECT_TRUE(std::isnan(actual.pixels[i])) << "value " << i;
        else
            EXPECT_EQ(expected.pixels[i], actual.pixels[i]) << "value " << i;
    }
}

/// Offset of the value of header attribute `name` in an OpenEXR file written by us.
std::size_t attributeValueOffset(const std::string& file, const std::string& name, const std::string& type)
{
    std::string key = name + std::string(1, '\0') + type + std::string(1, '\0');
    std::size_t at = file.find(key);
    EXPECT_NE(at, std::string::npos) << name;
    return at == std::string::npos ? 0 : at + key.size() + 4;
}

void putInt32(std::string& file, std::size_t offset, std::int32_t value)
{
    for (int i = 0; i < 4; ++i)
        file[offset + std::size_t(i)] = char((std::uint32_t(value) >> (8 * i)) & 0xff);
}

/// Loads `path` expecting an ImageError whose message names the file and contains `expected`.
void expectLoadError(const fs::path& path, const std::string& expected)
{
    try {
        image::loadHdrImage(path);
        ADD_FAILURE() << path << " loaded, expected: " << expected;
    } catch (const image::ImageError& error) {
        std::string message = error.what();
        EXPECT_NE(message.find("'" + path.string() + "'"), std::string::npos) << message;
        EXPECT_NE(message.find(expected), std::string::npos) << message;
        EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
}

TEST(ImageExr, FloatRoundTripKeepsHdrValuesNanAndInf)
{
    fs::path dir = scratchDir("image-exr-float");
    image::ImageF original = makeGradient(3, 5);
    original.at(0, 0)[0] = 1.0e6f;
    original.at(1, 0)[1] = 3.0e-7f;
    original.at(2, 0)[2] = 65504.0f * 100.0f;
    original.at(0, 1)[0] = std::numeric_limits<float>::quiet_NaN();
    original.at(1, 1)[1] = std::numeric_limits<float>::infinity();
    original.at(2, 1)[2] = -2.5f;
    image::writeExr(dir / "odd.exr", original, image::ExrPixelType::Float);
    EXPECT_EQ(image::detectFileKind(dir / "odd.exr"), image::FileKind::OpenExr);
    expectSameValues(original, image::loadHdrImage(dir / "odd.exr"));
}

TEST(ImageExr, HalfRoundTripOneByOneAndOddSize)
{
    fs::path dir = scratchDir("image-exr-half");
    image::ImageF single(1, 1);
    single.pixels = {1.5f, 1000.0f, 0.0009765625f, 1.0f};
    image::writeExr(dir / "single.exr", single);
    expectSameValues(single, image::loadHdrImage(dir / "single.exr"));

    image::ImageF odd = makeGradient(3, 5);  // all values are exact in half precision
    image::writeExr(dir / "odd.exr", odd, image::ExrPixelType::Half);
    expectSameValues(odd, image::loadHdrImage(dir / "odd.exr"));

    image::ImageF tooBright(1, 1);
    tooBright.pixels = {1.0e6f, 0.5f, 0.25f, 1.0f};
    image::writeExr(dir / "bright.exr", tooBright, image::ExrPixelType::Half);
    image::ImageF loaded = image::loadHdrImage(dir / "bright.exr");
    EXPECT_TRUE(std::isinf(loaded.pixels[0])) << "half cannot hold 1e6: documented as +Inf";
    EXPECT_EQ(loaded.pixels[1], 0.5f);
}

TEST(ImageExr, DisplayWindowFramesTheDataWindow)
{
    fs::path dir = scratchDir("image-exr-window");
    image::ImageF original = makeGradient(3, 2);
    image::writeExr(dir / "plain.exr", original, image::ExrPixelType::Float);
    std::string file = readBytes(dir / "plain.exr");
    std::size_t display = attributeValueOffset(file, "displayWindow", "box2i");
    putInt32(file, display + 0, -1);  // one column on the left, two on the right, one row below
    putInt32(file, display + 8, 4);
    putInt32(file, display + 12, 2);
    writeBytes(dir / "framed.exr", file);
    image::ImageF framed = image::loadHdrImage(dir / "framed.exr");
    ASSERT_EQ(framed.width, 6);
    ASSERT_EQ(framed.height, 3);
    for (int y = 0; y < 3; ++y) {
        for (int x = 0; x < 6; ++x) {
            bool inside = x >= 1 && x <= 3 && y <= 1;
            for (int c = 0; c < 4; ++c) {
                float expected = inside ? original.at(x - 1, y)[c] : 0.0f;
                EXPECT_EQ(framed.at(x, y)[c], expected) << x << "," << y << " channel " << c;
            }
        }
    }
}

TEST(ImagePng, RoundTripEveryChannelCount)
{
    fs::path dir = scratchDir("image-png");
    for (int channels = 1; channels <= 4; ++channels) {
        image::Image8 original(7, 3, channels);
        for (std::size_t i = 0; i < original.pixels.size(); ++i)
            original.pixels[i] = std::uint8_t((i * 37 + 11) % 256);
        fs::path path = dir / ("c" + std::to_string(channels) + ".png");
        image::writePng(path, original);
        EXPECT_EQ(image::detectFileKind(path), image::FileKind::Png);
        image::Image8 loaded = image::loadImage8(path);
        EXPECT_EQ(loaded.width, 7);
        EXPECT_EQ(loaded.height, 3);
        EXPECT_EQ(loaded.channels, channels);
        EXPECT_EQ(loaded.pixels, original.pixels);
        EXPECT_EQ(image::loadImage8(path, 4).channels, 4);
    }
}

TEST(ImagePng, DecodesSrgbToLinear)
{
    fs::path dir = scratchDir("image-png-linear");
    image::Image8 grey(3, 1, 2);
    grey.pixels = {0, 255, 128, 128, 255, 0};
    image::writePng(dir / "grey.png", grey);
    image::ImageF linear = image::loadHdrImage(dir / "grey.png");
    ASSERT_EQ(linear.width, 3);
    EXPECT_FLOAT_EQ(linear.at(0, 0)[0], 0.0f);
    EXPECT_NEAR(linear.at(1, 0)[0], 0.2158f, 1e-4f);
    EXPECT_NEAR(linear.at(1, 0)[2], 0.2158f, 1e-4f);
    EXPECT_FLOAT_EQ(linear.at(2, 0)[1], 1.0f);
    EXPECT_FLOAT_EQ(linear.at(0, 0)[3], 1.0f);  // alpha stays linear
    EXPECT_NEAR(linear.at(1, 0)[3], 128.0f / 255.0f, 1e-6f);
    EXPECT_FLOAT_EQ(linear.at(2, 0)[3], 0.0f);
}

TEST(ImagePng, EncodeSrgb8ClampsAndRoundTrips)
{
    image::ImageF linear(5, 1);
    linear.pixels = {0.2158f,
                     0.0f,
                     1.0f,
                     1.0f,
                     std::numeric_limits<float>::quiet_NaN(),
                     -1.0f,
                     7.0f,
                     0.5f,
                     std::numeric_limits<float>::infinity(),
                     0.0031308f,
                     0.05f,
                     2.0f,
                     0.0f,
                     0.0f,
                     0.0f,
                     std::numeric_limits<float>::quiet_NaN(),
                     0.214f,
                     0.5f,
                     0.8f,
                     0.0f};
    image::Image8 encoded = image::encodeSrgb8(linear, 4);
    EXPECT_EQ(std::vector<std::uint8_t>(encoded.pixels.begin(), encoded.pixels.begin() + 12),
              (std::vector<std::uint8_t>{128, 0, 255, 255, 0, 0, 255, 128, 255, 10, 63, 255}));
    EXPECT_EQ(encoded.at(3, 0)[3], 0);
    image::ImageF decoded = image::decodeSrgb8(encoded);
    for (int c = 0; c < 3; ++c)
        EXPECT_NEAR(decoded.at(4, 0)[c], linear.at(4, 0)[c], 0.01f);
    EXPECT_EQ(image::encodeSrgb8(linear, 3).channels, 3);
    EXPECT_THROW(image::encodeSrgb8(linear, 2), image::ImageError);
}

TEST(ImageRadiance, LoadsRgbe)
{
    fs::path dir = scratchDir("image-hdr");
    std::vector<float> rgb = {0.5f, 100.0f, 2.0f, 3000.0f, 0.01f, 1.0f};
    std::string encoded;
    auto append = [](void* context, void* data, int size) {
        static_cast<std::string*>(context)->append(static_cast<const char*>(data), std::size_t(size));
    };
    ASSERT_TRUE(stbi_write_hdr_to_func(append, &encoded, 2, 1, 3, rgb.data()));
    writeBytes(dir / "tiny.hdr", encoded);
    EXPECT_EQ(image::detectFileKind(dir / "tiny.hdr"), image::FileKind::RadianceHdr);
    image::ImageF loaded = image::loadHdrImage(dir / "tiny.hdr");
    ASSERT_EQ(loaded.width, 2);
    ASSERT_EQ(loaded.height, 1);
    for (int x = 0; x < 2; ++x) {
        for (int c = 0; c < 3; ++c) {
            float expected = rgb[std::size_t(x * 3 + c)];
            float maxOfPixel =
                std::max({rgb[std::size_t(x * 3)], rgb[std::size_t(x * 3 + 1)], rgb[std::size_t(x * 3 + 2)]});
            EXPECT_NEAR(loaded.at(x, 0)[c], expected, maxOfPixel / 128.0f) << x << "," << c;  // shared exponent
        }
        EXPECT_EQ(loaded.at(x, 0)[3], 1.0f);
    }
}

std::string encodeRadiance(int width, int height, const std::vector<float>& rgb)
{
    std::string encoded;
    auto append = [](void* context, void* data, int size) {
        static_cast<std::string*>(context)->append(static_cast<const char*>(data), std::size_t(size));
    };
    EXPECT_TRUE(stbi_write_hdr_to_func(append, &encoded, width, height, 3, rgb.data()));
    return encoded;
}

// stb writes run-length scanlines from 8 pixels wide. Values decode as Radiance decodes them,
// (m + 0.5) 2^(e - 136): stb stores 0.25 as mantissa 128, exponent 127 and 4 as 128, 131.
TEST(ImageRadiance, LoadsRunLengthScanlines)
{
    const int width = 300;
    const int height = 3;
    std::vector<float> rgb(std::size_t(width * height * 3));
    for (std::size_t i = 0; i < rgb.size(); ++i)
        rgb[i] = (i / 90) % 2 ? 4.0f : 0.25f;  // long runs and changes
    const std::string encoded = encodeRadiance(width, height, rgb);
    const image::ImageF loaded = image::decodeHdrImage(
        std::span(reinterpret_cast<const std::uint8_t*>(encoded.data()), encoded.size()), "rle.hdr");
    ASSERT_EQ(loaded.width, width);
    ASSERT_EQ(loaded.height, height);
    EXPECT_EQ(loaded.at(0, 0)[0], 128.5f / 512.0f);
    EXPECT_EQ(loaded.at(30, 0)[0], 128.5f / 32.0f);
    EXPECT_EQ(loaded.at(width - 1, height - 1)[2], rgb.back() == 4.0f ? 128.5f / 32.0f : 128.5f / 512.0f);
}

std::string radianceMessage(const std::string& bytes)
{
    try {
        image::decodeHdrImage(std::span(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()), "bad.hdr");
    } catch (const image::ImageError& error) {
        return error.what();
    }
    return "(no error)";
}

// Found by fuzzing stb_image 2.27, which looped forever on a run of length 0 (and on a file cut
// inside a scanline, where it read zeros) and allocated a whole image a tiny file cannot hold. In
// Radiance's format a zero-length dump is legal and consumes its byte: a stream of them ends.
TEST(ImageRadiance, DamagedRunLengthDataIsRefusedQuickly)
{
    const std::string header = "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n";
    const auto started = std::chrono::steady_clock::now();
    std::string zeroRuns =
        header + "-Y 2 +X 8\n" + std::string("\x02\x02\x00\x08\x08", 5) + "12345678" + std::string(100000, '\0');
    EXPECT_EQ(radianceMessage(zeroRuns),
              "cannot read 'bad.hdr': damaged Radiance HDR file: truncated in scanline 1 of 2");

    std::string valid = encodeRadiance(16, 2, std::vector<float>(16 * 2 * 3, 1.0f));
    std::string cut = valid.substr(0, valid.size() - 3);
    EXPECT_NE(radianceMessage(cut).find("damaged Radiance HDR file: truncated"), std::string::npos)
        << radianceMessage(cut);

    std::string huge = header + "-Y 11500 +X 11500\n" + std::string("\x02\x02\x2c\xec\x01", 5);
    EXPECT_EQ(radianceMessage(huge), "cannot read 'bad.hdr': damaged Radiance HDR file: truncated pixel data");
    EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5));
}

// Found by fuzzing: stb_image 2.27 writes past its Huffman arrays for a table of more than 256
// symbols; the file is refused before stb reads it, while a valid JPEG still loads.
TEST(ImageIo, JpegWithAnOversizedHuffmanTableIsRefused)
{
    const fs::path corpus = testing_support::sourceDir() / "tests/fuzz/corpus/png";
    const image::Image8 valid = image::loadImage8(corpus / "gen-jpeg.jpg");
    EXPECT_GE(valid.width, 1);
    try {
        image::loadImage8(corpus / "regress-jpeg-huffman-table-overflow.jpg");
        ADD_FAILURE() << "the damaged JPEG loaded";
    } catch (const image::ImageError& error) {
        EXPECT_NE(std::string(error.what()).find("damaged JPEG file: Huffman table of"), std::string::npos)
            << error.what();
    }
}

// Found by fuzzing: stb 2.27 decodes a scan whose Huffman table the file never defined from
// uninitialised memory, so the same damaged file could load once and fail the next time.
TEST(ImageIo, JpegScanUsingAnUndefinedHuffmanTableIsRefused)
{
    const fs::path corpus = testing_support::sourceDir() / "tests/fuzz/corpus/png";
    std::string file = readBytes(corpus / "gen-jpeg.jpg");
    const std::size_t scan = file.find("\xff\xda");
    ASSERT_NE(scan, std::string::npos);
    ASSERT_GE(std::uint8_t(file[scan + 4]), 1) << "components in the scan";
    fs::path dir = scratchDir("image-jpeg-undefined-table");
    for (auto [selectors, expected] : {std::pair{char(0x20), "table DC2"}, {char(0x03), "table AC3"}}) {
        std::string damaged = file;
        damaged[scan + 6] = selectors;  // first component's DC/AC table selectors
        writeBytes(dir / "damaged.jpg", damaged);
        try {
            image::loadImage8(dir / "damaged.jpg");
            ADD_FAILURE() << "a scan with an undefined table loaded";
        } catch (const image::ImageError& error) {
            EXPECT_NE(std::string(error.what()).find(std::string("a scan uses Huffman ") + expected), std::string::npos)
                << error.what();
        }
    }
    writeBytes(dir / "intact.jpg", file);
    EXPECT_EQ(image::loadImage8(dir / "intact.jpg").width, image::loadImage8(corpus / "gen-jpeg.jpg").width);
}

// Found by fuzzing: stb 2.27 dequantizes a component whose quantization table the file never
// defined with uninitialised memory (a signed overflow in its IDCT under UBSan); the file is refused.
TEST(ImageIo, JpegComponentUsingAnUndefinedQuantizationTableIsRefused)
{
    const fs::path corpus = testing_support::sourceDir() / "tests/fuzz/corpus/png";
    auto expectRefused = [](const fs::path& path) {
        try {
            image::loadImage8(path);
            ADD_FAILURE() << path << " loaded";
        } catch (const image::ImageError& error) {
            EXPECT_NE(std::string(error.what()).find("which the file has not defined"), std::string::npos)
                << error.what();
            EXPECT_NE(std::string(error.what()).find("quantization table"), std::string::npos) << error.what();
        }
    };
    expectRefused(corpus / "regress-jpeg-undefined-quantization-table.jpg");

    // The valid JPEG with its first frame component pointed at table 3, which it does not define.
    std::string file = readBytes(corpus / "gen-jpeg.jpg");
    const std::size_t frame = file.find("\xff\xc0");
    ASSERT_NE(frame, std::string::npos);
    ASSERT_EQ(file.find("\xff\xdb") < frame, true) << "the tables come before the frame";
    fs::path dir = scratchDir("image-jpeg-undefined-quantization");
    std::string damaged = file;
    damaged[frame + 4 + 6 + 2] = char(3);  // marker, length, precision, height, width, count; id, sampling, table
    writeBytes(dir / "damaged.jpg", damaged);
    expectRefused(dir / "damaged.jpg");
    writeBytes(dir / "intact.jpg", file);
    EXPECT_EQ(image::loadImage8(dir / "intact.jpg").width, image::loadImage8(corpus / "gen-jpeg.jpg").width);
}

// Found by fuzzing: stb sizes its IDAT buffer from the chunk's length field before reading it, so
// a 96-byte PNG reserved 1.1 GB; chunks running past the end are refused first.
TEST(ImageIo, PngChunkLongerThanTheFileIsRefused)
{
    const fs::path file = testing_support::sourceDir() / "tests/fuzz/corpus/png/regress-png-idat-length-past-end.png";
    try {
        image::loadImage8(file);
        ADD_FAILURE() << "the damaged PNG loaded";
    } catch (const image::ImageError& error) {
        EXPECT_NE(std::string(error.what())
                      .find("damaged PNG file: chunk of 1192034343 bytes at offset 33 runs past the end"),
                  std::string::npos)
            << error.what();
    }
}

// Found by fuzzing: a 41-byte GIF declaring an 8193 x 13569 canvas made stb allocate 444 MB before
// reading a pixel; a canvas no compression could fit in the file is refused first.
TEST(ImageIo, HugeCanvasInATinyFileIsRefusedBeforeAllocation)
{
    const fs::path corpus = testing_support::sourceDir() / "tests/fuzz/corpus/png";
    EXPECT_GE(image::loadImage8(corpus / "gen-gif.gif").width, 1);
    try {
        image::loadImage8(corpus / "regress-gif-huge-canvas-tiny-file.gif");
        ADD_FAILURE() << "the damaged GIF loaded";
    } catch (const image::ImageError& error) {
        EXPECT_NE(std::string(error.what()).find("damaged GIF file: a 8193x13569 image cannot be stored in 41 bytes"),
                  std::string::npos)
            << error.what();
    }
}

// Found by fuzzing: stb quotes an unknown PNG chunk's type, raw bytes included.
TEST(ImageIo, ErrorMessagesHoldNoControlCharacters)
{
    // Signature, IHDR of a 1x1 grey image, then an empty critical chunk whose type holds 0x01 and 0x02.
    const std::string png = std::string("\x89PNG\r\n\x1a\n", 8) +
                            std::string("\0\0\0\x0dIHDR\0\0\0\x01\0\0\0\x01\x08\0\0\0\0", 21) + "CRC!" +
                            std::string(
                                "\0\0\0\0\x01"
                                "AB\x02",
                                8) +
                            "CRC!" + std::string("\0\0\0\0IENDCRC!", 12);
    std::string message;
    try {
        image::decodeHdrImage(std::span(reinterpret_cast<const std::uint8_t*>(png.data()), png.size()), "x.png");
    } catch (const image::ImageError& error) {
        message = error.what();
    }
    EXPECT_NE(message.find("PNG chunk not known"), std::string::npos) << message;
    EXPECT_NE(message.find("\\x"), std::string::npos) << message;
    for (char c : message)
        EXPECT_TRUE(static_cast<unsigned char>(c) >= 0x20 && static_cast<unsigned char>(c) < 0x7f) << message;
}

TEST(ImageIo, TypeComesFromMagicBytesNotExtension)
{
    fs::path dir = scratchDir("image-magic");
    image::ImageF original = makeGradient(2, 2);
    image::writeExr(dir / "really-exr.png", original, image::ExrPixelType::Float);
    EXPECT_EQ(image::detectFileKind(dir / "really-exr.png"), image::FileKind::OpenExr);
    expectSameValues(original, image::loadHdrImage(dir / "really-exr.png"));

    image::Image8 png(2, 2, 3);
    png.pixels.assign(12, 200);
    image::writePng(dir / "really-png.exr", png);
    EXPECT_EQ(image::loadImage8(dir / "really-png.exr").pixels, png.pixels);

    EXPECT_THROW(image::loadImage8(dir / "really-exr.png"), image::ImageError);  // HDR data, no 8-bit view
    EXPECT_EQ(image::detectFileKind(dir / "missing.exr"), image::FileKind::Unknown);
}

TEST(ImageIo, BrokenFilesGiveOneClearLine)
{
    fs::path dir = scratchDir("image-broken");
    writeBytes(dir / "empty.exr", "");
    expectLoadError(dir / "empty.exr", "file is empty");
    expectLoadError(dir / "missing.exr", "no such file");
    expectLoadError(dir, "is a folder");

    writeBytes(dir / "text.exr", "this is not an image, just some text\n");
    expectLoadError(dir / "text.exr", "not an OpenEXR file (bad magic number)");
    writeBytes(dir / "text.xyz", "this is not an image, just some text\n");
    expectLoadError(dir / "text.xyz", "unsupported file type");

    std::mt19937 random(12345);
    std::string noise(4096, '\0');
    for (char& byte : noise)
        byte = char(random() & 0xff);
    writeBytes(dir / "noise.exr", noise);
    expectLoadError(dir / "noise.exr", "not an OpenEXR file");
    writeBytes(dir / "noise-with-magic.exr", std::string("\x76\x2f\x31\x01", 4) + noise);
    expectLoadError(dir / "noise-with-magic.exr", "OpenEXR file");

    // A PNG header claiming 200000x200000 pixels: rejected before stb allocates anything.
    std::string hugePng("\x89PNG\r\n\x1a\n", 8);
    hugePng += std::string("\0\0\0\x0dIHDR", 8);
    hugePng += std::string("\x00\x03\x0d\x40\x00\x03\x0d\x40\x08\x06\x00\x00\x00", 13);
    hugePng += std::string("\0\0\0\0", 4);
    writeBytes(dir / "huge.png", hugePng);
    expectLoadError(dir / "huge.png", "image of 200000x200000 pixels is too large (limit 16384x16384)");
    EXPECT_THROW(image::loadImage8(dir / "huge.png"), image::ImageError);
    writeBytes(dir / "truncated.png", hugePng.substr(0, 12));
    expectLoadError(dir / "truncated.png", "damaged PNG file");
}

// stb reads zeros past the end of a file: a truncated uncompressed (flat) .hdr used to decode as
// black rows with no error. Flat and run-length files, whole and cut anywhere in the pixels.
TEST(ImageIo, TruncatedRadianceIsAnError)
{
    fs::path dir = scratchDir("image-truncated-hdr");
    for (int width : {4, 64}) {  // stb writes rows narrower than 8 flat, wider ones run-length encoded
        std::vector<float> rgb(std::size_t(width) * 3 * 3);
        for (std::size_t i = 0; i < rgb.size(); ++i)
            rgb[i] = 0.25f + float(i % 7);
        std::string encoded;
        auto append = [](void* context, void* data, int size) {
            static_cast<std::string*>(context)->append(static_cast<const char*>(data), std::size_t(size));
        };
        ASSERT_TRUE(stbi_write_hdr_to_func(append, &encoded, width, 3, 3, rgb.data()));
        writeBytes(dir / "whole.hdr", encoded);
        EXPECT_EQ(image::loadHdrImage(dir / "whole.hdr").width, width);
        for (std::size_t cut : {std::size_t(1), std::size_t(5), encoded.size() / 3}) {
            SCOPED_TRACE("width " + std::to_string(width) + ", " + std::to_string(cut) + " bytes cut");
            writeBytes(dir / "cut.hdr", encoded.substr(0, encoded.size() - cut));
            expectLoadError(dir / "cut.hdr", "damaged Radiance HDR file");
        }
    }
}

TEST(ImageIo, BadExrHeadersAreRejected)
{
    fs::path dir = scratchDir("image-bad-header");
    image::writeExr(dir / "good.exr", makeGradient(3, 5));
    const std::string good = readBytes(dir / "good.exr");
    const std::size_t dataWindow = attributeValueOffset(good, "dataWindow", "box2i");

    std::string huge = good;
    putInt32(huge, dataWindow + 8, 199999);
    putInt32(huge, dataWindow + 12, 199999);
    writeBytes(dir / "huge.exr", huge);
    expectLoadError(dir / "huge.exr", "Invalid width (200000) too large (max 16384)");

    std::string inverted = good;
    putInt32(inverted, dataWindow + 8, -5);
    writeBytes(dir / "inverted.exr", inverted);
    expectLoadError(dir / "inverted.exr", "damaged OpenEXR file: Invalid data window");

    std::string big = good;  // within limits but far too much for a file this size
    putInt32(big, dataWindow + 8, 16383);
    putInt32(big, dataWindow + 12, 16383);
    writeBytes(dir / "big.exr", big);
    expectLoadError(dir / "big.exr", "damaged OpenEXR file");

    std::string b44 = good;  // ZIP data declared as B44
    b44[attributeValueOffset(good, "compression", "compression")] = 6;
    writeBytes(dir / "b44.exr", b44);
    expectLoadError(dir / "b44.exr", "damaged OpenEXR file: Error reading pixel data");

    std::string unknown = good;
    unknown[attributeValueOffset(good, "compression", "compression")] = 42;
    writeBytes(dir / "unknown.exr", unknown);
    expectLoadError(dir / "unknown.exr", "damaged OpenEXR file");
}

TEST(ImageIo, TruncatedAndMutatedExrNeverCrash)
{
    fs::path dir = scratchDir("image-mutated");
    image::ImageF original = makeGradient(19, 23);
    image::writeExr(dir / "good.exr", original);
    const std::string good = readBytes(dir / "good.exr");

    int truncatedCount = 0;
    for (std::size_t length = 1; length < good.size(); length += 7) {
        fs::path path = dir / ("cut" + std::to_string(length) + ".exr");
        writeBytes(path, good.substr(0, length));
        EXPECT_THROW(image::loadHdrImage(path), image::ImageError) << "length " << length;
        ++truncatedCount;
    }
    EXPECT_GT(truncatedCount, 10);

    // Deterministic byte mutations: each must load (with the right size) or throw ImageError.
    std::mt19937 random(2024);
    int loaded = 0;
    int rejected = 0;
    for (int round = 0; round < 300; ++round) {
        std::string file = good;
        int changes = 1 + int(random() % 4);
        for (int i = 0; i < changes; ++i)
            file[random() % file.size()] = char(random() & 0xff);
        fs::path path = dir / "mutated.exr";
        writeBytes(path, file);
        try {
            image::ImageF result = image::loadHdrImage(path);
            EXPECT_GT(result.width, 0);
            EXPECT_EQ(result.pixels.size(), std::size_t(result.width) * std::size_t(result.height) * 4);
            ++loaded;
        } catch (const image::ImageError&) {
            ++rejected;
        }
    }
    std::printf("[          ] mutated EXR files: %d loaded, %d rejected\n", loaded, rejected);
    EXPECT_EQ(loaded + rejected, 300);
}

TEST(ImageWrite, MissingFolderThrowsAndLeavesNothing)
{
    fs::path dir = scratchDir("image-write-missing");
    fs::path missing = dir / "no-such-folder";
    image::Image8 png(2, 2, 3);
    png.pixels.assign(12, 1);
    try {
        image::writePng(missing / "out.png", png);
        ADD_FAILURE() << "writePng into a missing folder succeeded";
    } catch (const image::ImageError& error) {
        EXPECT_NE(std::string(error.what()).find("out.png"), std::string::npos) << error.what();
        EXPECT_NE(std::string(error.what()).find("does not exist"), std::string::npos) << error.what();
    }
    EXPECT_THROW(image::writeExr(missing / "out.exr", makeGradient(2, 2)), image::ImageError);
    EXPECT_THROW(image::writePng(dir / "empty.png", image::Image8()), image::ImageError);
    EXPECT_THROW(image::writeExr(dir / "empty.exr", image::ImageF()), image::ImageError);
    EXPECT_FALSE(fs::exists(missing));
    EXPECT_TRUE(fs::is_empty(dir));
}

TEST(ImageShared, RealExrPhotosLoad)
{
    std::optional<fs::path> shared = sharedData("exr");
    if (!shared)
        GTEST_SKIP() << "../shared/exr is not available";
    struct Expected
    {
        const char* name;
        int width;
        int height;
    };
    for (Expected expected : {Expected{"Desk.exr", 644, 874}, Expected{"MtTamWest.exr", 1214, 732},
                              Expected{"CandleGlass.exr", 1000, 810}, Expected{"KernerEnvLatLong.exr", 1024, 512}}) {
        SCOPED_TRACE(expected.name);
        image::ImageF loaded = image::loadHdrImage(*shared / "real" / expected.name);
        EXPECT_EQ(loaded.width, expected.width);
        EXPECT_EQ(loaded.height, expected.height);
        std::size_t finite = 0;
        float brightest = 0.0f;
        float darkestPositive = std::numeric_limits<float>::max();
        for (std::size_t i = 0; i < loaded.pixels.size(); i += 4) {
            float luminance =
                0.2126f * loaded.pixels[i] + 0.7152f * loaded.pixels[i + 1] + 0.0722f * loaded.pixels[i + 2];
            if (!std::isfinite(luminance))
                continue;
            ++finite;
            brightest = std::max(brightest, luminance);
            if (luminance > 0.0f)
                darkestPositive = std::min(darkestPositive, luminance);
        }
        std::size_t pixelCount = loaded.pixels.size() / 4;
        EXPECT_EQ(finite, pixelCount);
        EXPECT_GT(brightest, 1.0f) << "an HDR photo has values above display white";
        EXPECT_GT(brightest / darkestPositive, 1000.0f) << "dynamic range";
        std::printf("[          ] %s %dx%d luminance %.3g .. %.3g\n", expected.name, loaded.width, loaded.height,
                    double(darkestPositive), double(brightest));
    }
}

TEST(ImageShared, EveryDamagedExrFailsCleanly)
{
    std::optional<fs::path> shared = sharedData("exr");
    if (!shared)
        GTEST_SKIP() << "../shared/exr is not available";
    std::vector<fs::path> files;
    for (const fs::directory_entry& entry : fs::directory_iterator(*shared / "damaged")) {
        if (entry.is_regular_file())
            files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    ASSERT_FALSE(files.empty());
    auto start = std::chrono::steady_clock::now();
    int rejected = 0;
    for (const fs::path& path : files) {
        try {
            image::loadHdrImage(path);
            ADD_FAILURE() << path.filename() << " loaded although it is damaged";
        } catch (const image::ImageError& error) {
            std::string message = error.what();
            EXPECT_NE(message.find(path.filename().string()), std::string::npos) << message;
            EXPECT_EQ(message.find('\n'), std::string::npos) << message;
            ++rejected;
        }
    }
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("[          ] damaged files: %d of %zu rejected with ImageError in %.2f s\n", rejected, files.size(),
                seconds);
    RecordProperty("damaged_files", int(files.size()));
    EXPECT_EQ(rejected, int(files.size()));
}

}  // namespace
