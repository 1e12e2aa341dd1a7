// RadianceReaderTest.cpp: hdrlab's Radiance picture reader on tiny pictures written byte by byte
// here: flat, new-style and old-style run-length scanlines, the 8 orientations of the resolution
// line, the header lines that carry units (EXPOSURE, PRIMARIES...), XYZE, Radiance's mantissa
// rounding, and damaged headers and streams.
#include "image/ImageIo.h"
#include "image/RadianceColour.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace {

using Colr = std::array<std::uint8_t, 4>;

std::string bytesOf(const Colr& c)
{
    return std::string(reinterpret_cast<const char*>(c.data()), 4);
}

std::string picture(const std::string& headerLines, const std::string& resolution, const std::string& pixels)
{
    return "#?RADIANCE\n" + headerLines + "\n" + resolution + "\n" + pixels;
}

std::string flatScanline(const std::vector<Colr>& scan)
{
    std::string out;
    for (const Colr& c : scan)
        out += bytesOf(c);
    return out;
}

/// New-style run-length scanline: per component, runs of 3 or more equal bytes (at most 127) as
/// runs, the rest as dumps (at most 128).
std::string newStyleScanline(const std::vector<Colr>& scan)
{
    std::string out{char(2), char(2), char(scan.size() >> 8), char(scan.size() & 0xff)};
    for (std::size_t component = 0; component < 4; ++component) {
        std::size_t at = 0;
        while (at < scan.size()) {
            std::size_t run = 1;
            while (at + run < scan.size() && run < 127 && scan[at + run][component] == scan[at][component])
                ++run;
            if (run >= 3) {
                out += char(128 + run);
                out += char(scan[at][component]);
                at += run;
                continue;
            }
            std::size_t dump = 0;
            while (at + dump < scan.size() && dump < 128) {
                std::size_t ahead = 1;
                while (at + dump + ahead < scan.size() && ahead < 3 &&
                       scan[at + dump + ahead][component] == scan[at + dump][component])
                    ++ahead;
                if (ahead >= 3)
                    break;
                ++dump;
            }
            out += char(dump);
            for (std::size_t k = 0; k < dump; ++k)
                out += char(scan[at + k][component]);
            at += dump;
        }
    }
    return out;
}

image::ImageF decode(const std::string& bytes, const std::string& name = "test.hdr")
{
    return image::decodeHdrImage(std::span(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()), name);
}

std::string errorOf(const std::string& bytes)
{
    try {
        decode(bytes, "bad.hdr");
    } catch (const image::ImageError& error) {
        return error.what();
    }
    return "(no error)";
}

/// Radiance's colr_color of one channel.
float radianceValue(int mantissa, int exponent)
{
    return exponent == 0 ? 0.0f : float(std::ldexp(mantissa + 0.5, exponent - 136));
}

/// A distinct colour per index, with an exponent that varies too.
Colr colourOf(int index)
{
    return {std::uint8_t(10 + 7 * index), std::uint8_t(200 - 3 * index), std::uint8_t(index),
            std::uint8_t(120 + index)};
}

void expectPixel(const image::ImageF& image, int x, int y, const Colr& c, const std::string& where)
{
    for (int channel = 0; channel < 3; ++channel)
        EXPECT_EQ(image.at(x, y)[channel], radianceValue(c[std::size_t(channel)], c[3]))
            << where << ": pixel " << x << "," << y << " channel " << channel;
    EXPECT_EQ(image.at(x, y)[3], 1.0f);
}

TEST(RadianceReader, MantissasDecodeAsRadianceDoes)
{
    const std::vector<Colr> scan{{128, 64, 1, 129}, {255, 255, 255, 0}, {0, 0, 0, 1}, {255, 0, 17, 255}};
    const image::ImageF image = decode(picture("FORMAT=32-bit_rle_rgbe\n", "-Y 1 +X 4", flatScanline(scan)));
    ASSERT_EQ(image.width, 4);
    ASSERT_EQ(image.height, 1);
    // (m + 0.5) 2^(129 - 136), exactly.
    EXPECT_EQ(image.at(0, 0)[0], 128.5f / 128.0f);
    EXPECT_EQ(image.at(0, 0)[1], 64.5f / 128.0f);
    EXPECT_EQ(image.at(0, 0)[2], 1.5f / 128.0f);
    for (int c = 0; c < 3; ++c)
        EXPECT_EQ(image.at(1, 0)[c], 0.0f) << "exponent 0 is black whatever the mantissas";
    EXPECT_EQ(image.at(2, 0)[0], std::ldexp(1.0f, -136)) << "the smallest value, a denormal float";
    EXPECT_EQ(image.at(3, 0)[0], 255.5f * std::ldexp(1.0f, 119)) << "the largest value";
    EXPECT_EQ(image.at(3, 0)[2], 17.5f * std::ldexp(1.0f, 119));
    ASSERT_TRUE(image.radiance);
    EXPECT_EQ(image.radiance->exposure, 1.0);
    EXPECT_FALSE(image.radiance->primaries);
    EXPECT_EQ(image.radiance->orientation, "-Y +X");
    EXPECT_FALSE(image.radiance->xyz);
}

TEST(RadianceReader, NewStyleRunLengthScanlinesEqualFlatOnes)
{
    for (int width : {8, 9, 130, 300}) {
        std::vector<std::vector<Colr>> rows(3);
        for (int y = 0; y < 3; ++y)
            for (int x = 0; x < width; ++x)  // runs of 1, 2, 40 and 200 pixels, and dumps of 128+
                rows[std::size_t(y)].push_back(x % 200 < 40 ? Colr{1, 2, 3, 130}
                                                            : colourOf((x * (y + 1)) % 37 + (x > 250 ? x / 2 : 0)));
        std::string flat, rle;
        for (const auto& row : rows) {
            flat += flatScanline(row);
            rle += newStyleScanline(row);
        }
        const std::string resolution = "-Y 3 +X " + std::to_string(width);
        const image::ImageF fromFlat = decode(picture("", resolution, flat));
        const image::ImageF fromRle = decode(picture("", resolution, rle));
        ASSERT_EQ(fromRle.width, width);
        EXPECT_EQ(fromRle.pixels, fromFlat.pixels) << width;
        for (int y = 0; y < 3; ++y)
            for (int x = 0; x < width; x += 7)
                expectPixel(fromRle, x, y, rows[std::size_t(y)][std::size_t(x)], "width " + std::to_string(width));
    }
}

TEST(RadianceReader, OldStyleRunLengthRepeatsThePixelBefore)
{
    const Colr a{100, 50, 25, 130}, b{7, 8, 9, 128};
    const Colr repeat3{1, 1, 1, 3}, repeat1{1, 1, 1, 1}, repeat0{1, 1, 1, 0};
    // Row 0: a, then 3 repeats; b, then 1 + (1 << 8) repeats cut at the scanline's end (20 pixels).
    // Row 1: starts with a repeat of row 0's last pixel (b), then a, then 0 repeats (nothing).
    std::string pixels = bytesOf(a) + bytesOf(repeat3) + bytesOf(b) + bytesOf(repeat1) + bytesOf(repeat1);
    pixels += bytesOf(repeat3) + bytesOf(a) + bytesOf(repeat0) + flatScanline(std::vector<Colr>(16, b));
    // 20 pixels: not run-length encoded in the new style as no scanline starts with 2, 2.
    const image::ImageF image = decode(picture("", "-Y 2 +X 20", pixels));
    for (int x = 0; x < 4; ++x)
        expectPixel(image, x, 0, a, "row 0");
    for (int x = 4; x < 20; ++x)
        expectPixel(image, x, 0, b, "row 0 (the second marker repeats 1 << 8 times, cut at the end)");
    for (int x = 0; x < 3; ++x)
        expectPixel(image, x, 1, b, "row 1 (a marker first repeats the previous scanline's last pixel)");
    expectPixel(image, 3, 1, a, "row 1");
    for (int x = 4; x < 20; ++x)
        expectPixel(image, x, 1, b, "row 1 (a marker of 0 repeats nothing)");

    // Short scanlines (below 8 pixels) are never new-style, even when they start with 2, 2.
    const Colr two{2, 2, 0, 3};
    const image::ImageF narrow = decode(picture("", "-Y 1 +X 2", bytesOf(two) + bytesOf(a)));
    expectPixel(narrow, 0, 0, two, "narrow");
    // A wide scanline that starts with 2 but not 2, 2, length: the 4 bytes are pixel 0, the rest flat.
    std::vector<Colr> wide(9, a);
    wide[0] = {2, 3, 0, 130};
    const image::ImageF fallback = decode(picture("", "-Y 1 +X 9", flatScanline(wide)));
    expectPixel(fallback, 0, 0, wide[0], "fallback");
    expectPixel(fallback, 8, 0, a, "fallback");

    EXPECT_EQ(errorOf(picture("", "-Y 1 +X 2", bytesOf(repeat1) + bytesOf(a))),
              "cannot read 'bad.hdr': damaged Radiance HDR file: a run marker (1,1,1,n) before the first pixel");
}

// Radiance's picture coordinates have their origin at the bottom left, y up; the resolution line
// says along which axis scanlines run (the first one named is the slow one) and in which direction.
TEST(RadianceReader, EveryOrientationLandsRowZeroTop)
{
    constexpr int kWidth = 3, kHeight = 2;
    auto indexOf = [](int x, int yUp) { return yUp * kWidth + x; };  // the pixel at picture (x, yUp)
    for (const char* orientation : {"-Y +X", "-Y -X", "+Y +X", "+Y -X", "+X +Y", "+X -Y", "-X +Y", "-X -Y"}) {
        const std::string text(orientation);
        const bool yMajor = text[1] == 'Y';
        const bool xDecreasing = text.find("-X") != std::string::npos;
        const bool yDecreasing = text.find("-Y") != std::string::npos;
        std::string pixels;
        const int scans = yMajor ? kHeight : kWidth, length = yMajor ? kWidth : kHeight;
        for (int s = 0; s < scans; ++s) {
            for (int p = 0; p < length; ++p) {
                const int slow = s, fast = p;
                const int x =
                    yMajor ? (xDecreasing ? kWidth - 1 - fast : fast) : (xDecreasing ? kWidth - 1 - slow : slow);
                const int yUp =
                    yMajor ? (yDecreasing ? kHeight - 1 - slow : slow) : (yDecreasing ? kHeight - 1 - fast : fast);
                pixels += bytesOf(colourOf(indexOf(x, yUp)));
            }
        }
        const std::string first = text.substr(0, 2), second = text.substr(3, 2);
        const std::string resolution = first + " " + std::to_string(first[1] == 'Y' ? kHeight : kWidth) + " " + second +
                                       " " + std::to_string(second[1] == 'Y' ? kHeight : kWidth);
        const image::ImageF image = decode(picture("", resolution, pixels));
        ASSERT_EQ(image.width, kWidth) << orientation;
        ASSERT_EQ(image.height, kHeight) << orientation;
        ASSERT_TRUE(image.radiance);
        EXPECT_EQ(image.radiance->orientation, text);
        for (int row = 0; row < kHeight; ++row)
            for (int x = 0; x < kWidth; ++x)
                expectPixel(image, x, row, colourOf(indexOf(x, kHeight - 1 - row)), orientation);
    }
}

TEST(RadianceReader, HeaderLinesCarryUnitsAndView)
{
    const std::string header =
        "FORMAT=32-bit_rle_rgbe\r\n"
        "EXPOSURE=2\n"
        "SOFTWARE= RADIANCE 5.4a \n"
        "EXPOSURE= 1.5e0\n"
        "PRIMARIES= 0.640 0.330 0.300 0.600 0.150 0.060 0.3127 0.3290\n"
        "PRIMARIES= 0.1 0.2\n"  // incomplete: ignored, as pcond ignores it
        "PIXASPECT=0.5\n"
        "PIXASPECT=3\n"
        "COLORCORR= 1 2 0.5\n"
        "VIEW= -vtv -vp 0 0 0\n"
        "VIEW= -vh 45\n";
    const image::ImageF image = decode("#?RGBE\n" + header + "\r\n-Y 1 +X 1\n" + bytesOf({128, 128, 128, 129}));
    ASSERT_TRUE(image.radiance);
    const image::RadianceHeader& h = *image.radiance;
    EXPECT_EQ(h.exposure, 3.0) << "EXPOSURE lines multiply";
    ASSERT_TRUE(h.primaries);
    EXPECT_EQ(*h.primaries, (std::array<float, 8>{0.640f, 0.330f, 0.300f, 0.600f, 0.150f, 0.060f, 0.3127f, 0.3290f}));
    EXPECT_EQ(h.pixelAspect, 1.5);
    ASSERT_TRUE(h.colorCorrection);
    EXPECT_EQ(*h.colorCorrection, (std::array<float, 3>{1.0f, 2.0f, 0.5f}));
    EXPECT_EQ(h.view, "-vtv -vp 0 0 0 -vh 45");
    EXPECT_EQ(h.software, "RADIANCE 5.4a");
    EXPECT_FALSE(h.xyz);
    EXPECT_EQ(image.at(0, 0)[0], 128.5f / 128.0f) << "EXPOSURE and COLORCORR leave the pixels as stored";
}

TEST(RadianceReader, XyzePicturesAreConvertedToRgb)
{
    const Colr xyz{100, 120, 90, 130};
    const image::ImageF image = decode(picture("FORMAT=32-bit_rle_xyze\nEXPOSURE=4\n", "-Y 1 +X 1", bytesOf(xyz)));
    ASSERT_TRUE(image.radiance);
    EXPECT_TRUE(image.radiance->xyz);
    const std::array<float, 3> stored{radianceValue(100, 130), radianceValue(120, 130), radianceValue(90, 130)};
    const std::array<float, 3> rgb = image::radianceColourTransform(image::radianceXyzToRgbMatrix(), stored);
    for (int c = 0; c < 3; ++c)
        EXPECT_EQ(image.at(0, 0)[c], rgb[std::size_t(c)]);
    // Radiance's default luminance weights give Y back, up to float rounding.
    const std::array<float, 3> weights = *image::radianceLuminanceWeights(std::nullopt);
    const double y = double(weights[0]) * rgb[0] + double(weights[1]) * rgb[1] + double(weights[2]) * rgb[2];
    EXPECT_NEAR(y, stored[1], 1e-6 * stored[1]);
    EXPECT_NE(rgb[0], stored[0]) << "converted, not XYZ shown as RGB";
}

TEST(RadianceReader, DamagedHeadersAreOneClearError)
{
    const std::string pixel = bytesOf({128, 128, 128, 129});
    const std::string prefix = "cannot read 'bad.hdr': ";
    EXPECT_EQ(errorOf("#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n"),
              prefix + "damaged Radiance HDR file: the header never ends (no empty line before the resolution line)");
    EXPECT_EQ(errorOf(picture("FORMAT=32-bit_rle_rgbf\n", "-Y 1 +X 1", pixel)),
              prefix +
                  "unsupported Radiance HDR file: FORMAT=32-bit_rle_rgbf (hdrlab reads 32-bit_rle_rgbe and "
                  "32-bit_rle_xyze)");
    EXPECT_EQ(errorOf(picture("EXPOSURE=2\nEXPOSURE=nonsense\n", "-Y 1 +X 1", pixel)),
              prefix +
                  "damaged Radiance HDR file: its EXPOSURE lines multiply to 0 (a picture's exposure is a "
                  "positive number)");
    EXPECT_NE(errorOf(picture("PIXASPECT=-1\n", "-Y 1 +X 1", pixel)).find("PIXASPECT"), std::string::npos);
    EXPECT_NE(errorOf(picture("PRIMARIES= 0.3 0.3 0.3 0.3 0.3 0.3 0.3 0.3\n", "-Y 1 +X 1", pixel))
                  .find("its PRIMARIES give no RGB to XYZ conversion"),
              std::string::npos);
    for (const char* bad : {"Y 1 X 1", "-Y 1 -Y 1", "-Y 1 +X", "-Y 1 +X 1 junk", "", "-Y +X 1"})
        EXPECT_EQ(errorOf(picture("", bad, pixel)), prefix + "damaged Radiance HDR file: bad resolution line '" + bad +
                                                        "' (Radiance's form is e.g. '-Y 480 +X 640')")
            << bad;
    EXPECT_EQ(errorOf(picture("", "-Y 0 +X 1", pixel)), prefix + "image is 1x0");
    EXPECT_EQ(errorOf(picture("", "-Y 20000 +X 1", pixel)),
              prefix + "image of 1x20000 pixels is too large (limit 16384x16384)");
    EXPECT_EQ(errorOf("#?RADIANCE\n\n"), prefix + "damaged Radiance HDR file: no resolution line after the header");
    const std::string control = errorOf(picture("", "-Y 1 +\x01X 1", pixel));
    EXPECT_NE(control.find("\\x01"), std::string::npos) << "control bytes are escaped: " << control;
}

TEST(RadianceReader, DamagedScanlinesAreOneClearError)
{
    const std::string prefix = "cannot read 'bad.hdr': damaged Radiance HDR file: ";
    std::vector<Colr> row(12, Colr{5, 6, 7, 128});
    row[3] = {9, 9, 9, 140};
    const std::string rle = newStyleScanline(row);
    const std::string whole = picture("", "-Y 2 +X 12", rle + rle);
    ASSERT_EQ(decode(whole).width, 12);
    // Cut anywhere in the pixels: "truncated ..." (the first scanline's own bytes, or the second's).
    for (std::size_t cut = 1; cut < 2 * rle.size(); ++cut) {
        const std::string message = errorOf(whole.substr(0, whole.size() - cut));
        EXPECT_EQ(message.rfind(prefix + "truncated", 0), 0u) << cut << ": " << message;
    }
    std::string wrongLength = rle;
    wrongLength[3] = 11;
    EXPECT_EQ(errorOf(picture("", "-Y 2 +X 12", wrongLength + rle)),
              prefix + "scanline 1 of 2 says it holds 11 pixels, the picture's scanlines hold 12");
    const std::string overrun = std::string{2, 2, 0, 12} + char(128 + 13) + char(1);
    EXPECT_EQ(errorOf(picture("", "-Y 1 +X 12", overrun)),
              prefix + "a run of 13 bytes overruns scanline 1 of 1 (12 pixels)");
    const std::string dumpOverrun = std::string{2, 2, 0, 12} + char(13) + std::string(13, 'x');
    EXPECT_EQ(errorOf(picture("", "-Y 1 +X 12", dumpOverrun)),
              prefix + "a run of 13 bytes overruns scanline 1 of 1 (12 pixels)");
    // Flat pixels cut short, and a huge picture in a few bytes: refused before anything is allocated.
    EXPECT_EQ(errorOf(picture("", "-Y 2 +X 2", std::string(12, 'a'))), prefix + "truncated in scanline 2 of 2");
    EXPECT_EQ(errorOf(picture("", "-Y 16000 +X 16000", std::string(64, 'a'))), prefix + "truncated pixel data");
    EXPECT_EQ(errorOf(picture("", "-Y 16000 +X 16000", std::string(16000 * 4, 'a'))),
              prefix +
                  "a 16000x16000 picture cannot be stored in 64030 bytes (more than 4096 decoded bytes per "
                  "byte)");
}

}  // namespace
