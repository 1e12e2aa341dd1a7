// HDR10 files: the PQ curve against SMPTE ST 2084's reference points, and the 16-bit PNG's chunks
// (cICP, mDCV, cLLI before IDAT) and pixels read back.
#include "image/HdrPng.h"
#include "image/Image.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>

namespace {

// ST 2084 / BT.2100 PQ signal values (full range): 0, 100, 203 (BT.2408 reference white, "58 %"),
// 1000 and 10000 cd/m^2; as 10-bit full-range codes 0, 520, 594, 769, 1023.
TEST(HdrPng, PqEncodeMatchesSt2084ReferencePoints)
{
    EXPECT_EQ(image::pqEncode(0.0), 0.0);
    EXPECT_NEAR(image::pqEncode(100.0), 0.508078, 1e-6);
    EXPECT_NEAR(image::pqEncode(203.0), 0.580689, 1e-6);
    EXPECT_NEAR(image::pqEncode(1000.0), 0.751827, 1e-6);
    EXPECT_DOUBLE_EQ(image::pqEncode(10000.0), 1.0);
    EXPECT_EQ(std::lround(image::pqEncode(100.0) * 1023), 520);
    EXPECT_EQ(std::lround(image::pqEncode(203.0) * 1023), 594);
    EXPECT_EQ(std::lround(image::pqEncode(1000.0) * 1023), 769);
    EXPECT_EQ(image::pqCode16(10000.0), 65535);
    EXPECT_EQ(image::pqCode16(1e9), 65535);  // clamped at the PQ peak
    EXPECT_EQ(image::pqCode16(std::numeric_limits<double>::quiet_NaN()), 0);
    EXPECT_EQ(image::pqCode16(-5.0), 0);
    for (double nits : {0.001, 0.1, 1.0, 48.0, 203.0, 600.0, 4000.0, 9999.0})
        EXPECT_NEAR(image::pqDecode(image::pqEncode(nits)), nits, 1e-9 * nits + 1e-12) << nits;
}

std::uint32_t be32(const std::vector<std::uint8_t>& d, std::size_t at)
{
    return std::uint32_t(d[at]) << 24 | std::uint32_t(d[at + 1]) << 16 | std::uint32_t(d[at + 2]) << 8 | d[at + 3];
}
std::uint16_t be16(const std::vector<std::uint8_t>& d, std::size_t at)
{
    return std::uint16_t(d[at] << 8 | d[at + 1]);
}

TEST(HdrPng, WritesPqPngWithCicpMdcvClliBeforeIdatAndPixelsDecodeBack)
{
    image::ImageF nits(3, 2);
    const float values[6][3] = {{0, 0, 0}, {100, 100, 100}, {1000, 20, 5}, {203, 203, 203}, {4000, 0, 0}, {1, 2, 3}};
    for (int i = 0; i < 6; ++i)
        for (int c = 0; c < 4; ++c)
            nits.pixels[std::size_t(i) * 4 + std::size_t(c)] = c < 3 ? values[i][c] : 1.0f;
    const image::Hdr10Metadata metadata = image::contentLightLevels(nits, 1000.0);
    EXPECT_DOUBLE_EQ(metadata.maxContentLightLevel, 4000.0);
    EXPECT_NEAR(metadata.maxFrameAverageLightLevel, (0 + 100 + 1000 + 203 + 4000 + 3) / 6.0, 1e-9);
    const std::filesystem::path path = std::filesystem::path(::testing::TempDir()) / "hdrlab_hdr10_test.png";
    image::writeHdr10Png(path, nits, metadata);

    const std::vector<image::PngChunk> chunks = image::readPngChunks(path);
    std::vector<std::string> order;
    for (const image::PngChunk& chunk : chunks) {
        order.push_back(chunk.type);
        EXPECT_TRUE(chunk.crcOk) << chunk.type;
    }
    ASSERT_GE(order.size(), 6u);
    EXPECT_EQ(order.front(), "IHDR");
    EXPECT_EQ(order.back(), "IEND");
    auto position = [&](const std::string& type) {
        return std::find(order.begin(), order.end(), type) - order.begin();
    };
    const auto idat = position("IDAT");
    for (const char* type : {"cICP", "mDCV", "cLLI"})
        EXPECT_LT(position(type), idat) << type << " must precede IDAT";
    for (const image::PngChunk& chunk : chunks) {
        if (chunk.type == "IHDR") {
            EXPECT_EQ(be32(chunk.data, 0), 3u);
            EXPECT_EQ(be32(chunk.data, 4), 2u);
            EXPECT_EQ(chunk.data[8], 16);  // bit depth
            EXPECT_EQ(chunk.data[9], 2);   // RGB
        } else if (chunk.type == "cICP") {
            EXPECT_EQ(chunk.data, (std::vector<std::uint8_t>{9, 16, 0, 1}));
        } else if (chunk.type == "mDCV") {
            ASSERT_EQ(chunk.data.size(), 24u);
            EXPECT_EQ(be16(chunk.data, 0), 35400);       // red x 0.708 / 0.00002
            EXPECT_EQ(be16(chunk.data, 2), 14600);       // red y 0.292
            EXPECT_EQ(be16(chunk.data, 4), 8500);        // green x 0.170
            EXPECT_EQ(be16(chunk.data, 10), 2300);       // blue y 0.046
            EXPECT_EQ(be16(chunk.data, 12), 15635);      // white x 0.3127
            EXPECT_EQ(be16(chunk.data, 14), 16450);      // white y 0.3290
            EXPECT_EQ(be32(chunk.data, 16), 10000000u);  // 1000 cd/m^2 in 0.0001 units
            EXPECT_EQ(be32(chunk.data, 20), 1u);         // 0.0001 cd/m^2
        } else if (chunk.type == "cLLI") {
            ASSERT_EQ(chunk.data.size(), 8u);
            EXPECT_EQ(be32(chunk.data, 0), 40000000u);
            EXPECT_EQ(be32(chunk.data, 4), std::uint32_t(std::lround(metadata.maxFrameAverageLightLevel * 1e4)));
        }
    }
    const image::Image16 decoded = image::loadPng16(path);
    ASSERT_EQ(decoded.width, 3);
    ASSERT_EQ(decoded.height, 2);
    for (int i = 0; i < 6; ++i)
        for (int c = 0; c < 3; ++c) {
            const std::uint16_t code = decoded.samples[std::size_t(i) * 3 + std::size_t(c)];
            EXPECT_EQ(code, image::pqCode16(values[i][c])) << "pixel " << i << " channel " << c;
            EXPECT_NEAR(image::pqDecode(code / 65535.0), values[i][c], 1e-3 * values[i][c] + 1e-4);
        }
    EXPECT_EQ(decoded.samples[3], 33297);  // 100 cd/m^2
    EXPECT_EQ(decoded.samples[6], 49271);  // 1000 cd/m^2
    std::filesystem::remove(path);
}

TEST(HdrPng, RefusesEmptyImagesAndUnwritablePaths)
{
    EXPECT_THROW(image::writeHdr10Png("x.png", image::ImageF{}, {}), image::ImageError);
    image::ImageF one(1, 1);
    EXPECT_THROW(image::writeHdr10Png("/nonexistent-folder/x.png", one, {}), image::ImageError);
    EXPECT_THROW(image::readPngChunks("/nonexistent-folder/x.png"), image::ImageError);
}

}  // namespace

namespace {

// Plain 16-bit PNGs (`clahe`'s 16-bit images): every channel count round-trips sample for sample,
// including 0, 65535 and values whose bytes differ (big-endian in the file); 8-bit PNGs are not
// isPng16; bad images and paths are refused.
TEST(Png16, EveryChannelCountRoundTripsExactly)
{
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / "hdrlab-png16-test";
    std::filesystem::create_directories(dir);
    for (int channels = 1; channels <= 4; ++channels) {
        image::Png16 png{7, 3, channels, {}};
        for (int i = 0; i < 7 * 3 * channels; ++i)
            png.samples.push_back(std::uint16_t(i == 0 ? 0 : i == 1 ? 65535 : (i * 2654435761u) >> 16));
        const std::filesystem::path path = dir / ("c" + std::to_string(channels) + ".png");
        image::writePng16(path, png);
        EXPECT_TRUE(image::isPng16(path));
        const image::Png16 back = image::loadPng16Samples(path);
        EXPECT_EQ(back.width, 7);
        EXPECT_EQ(back.height, 3);
        EXPECT_EQ(back.channels, channels);
        EXPECT_EQ(back.samples, png.samples) << channels << " channels";
        const std::vector<image::PngChunk> chunks = image::readPngChunks(path);
        ASSERT_GE(chunks.size(), 3u);
        EXPECT_EQ(chunks[0].type, "IHDR");
        EXPECT_EQ(chunks[0].data[8], 16);                 // bit depth
        const std::uint8_t colourTypes[] = {0, 4, 2, 6};  // grey, grey + alpha, RGB, RGBA
        EXPECT_EQ(chunks[0].data[9], colourTypes[channels - 1]);
        for (const image::PngChunk& chunk : chunks)
            EXPECT_TRUE(chunk.crcOk) << chunk.type;
    }
    // An HDR10 PNG is 16-bit too; a missing file and a non-PNG are not.
    EXPECT_FALSE(image::isPng16(dir / "missing.png"));
    EXPECT_THROW(image::loadPng16Samples(dir / "missing.png"), image::ImageError);
    EXPECT_THROW(image::writePng16(dir / "empty.png", image::Png16{0, 0, 1, {}}), image::ImageError);
    EXPECT_THROW(image::writePng16(dir / "five.png", image::Png16{1, 1, 5, {1, 2, 3, 4, 5}}), image::ImageError);
    EXPECT_THROW(image::writePng16(dir / "short.png", image::Png16{2, 2, 1, {1, 2, 3}}), image::ImageError);
    std::filesystem::remove_all(dir);
}

}  // namespace
