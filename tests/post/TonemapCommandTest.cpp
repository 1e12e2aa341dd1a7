// `hdrlab tonemap`'s core (app::tonemapImage) in the shared test context: the real EXRs with every
// registered operator (or the placeholder curve when none is registered), every damaged EXR (error
// line, exit code 1, no crash), the 8-bit grey PNG equalization path, CSV outputs and --range parsing.
#include "commands/tonemap/TonemapCore.h"
#include "image/HdrPng.h"
#include "image/ImageIo.h"
#include "post/tonemap/ToneOperator.h"
#include "reference/WardPcondRef.h"
#include "support/Equalize8Example.h"
#include "support/GlTestEnvironment.h"
#include "support/HistogramTestSupport.h"
#include "support/TestPaths.h"

#include <fstream>
#include <iostream>
#include <sstream>

namespace ts = testing_support;

namespace {

class TonemapCommand : public ts::GlTest
{
protected:
    int run(const app::TonemapOptions& options)
    {
        out.str("");
        err.str("");
        return app::tonemapImage(options, ts::shaderLibrary(), ts::testGpuCaps(), out, err);
    }
    std::ostringstream out;
    std::ostringstream err;
};

std::vector<std::filesystem::path> filesIn(const std::filesystem::path& folder)
{
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(folder))
        if (entry.is_regular_file())
            files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

TEST_F(TonemapCommand, RealExrsGiveAPngOfTheRightSize)
{
    auto exr = ts::sharedData("exr");
    if (!exr)
        GTEST_SKIP() << "../shared/exr not present";
    std::vector<std::string> operators;
    for (const post::ToneOperatorEntry& entry : post::toneOperatorRegistry())
        operators.emplace_back(entry.id);
    if (operators.empty())
        operators.emplace_back("placeholder");
    const auto scratch = ts::scratchDir("tonemap-real");
    int files = 0;
    for (const auto& input : filesIn(*exr / "real")) {
        if (input.extension() != ".exr")
            continue;
        ++files;
        const image::ImageF source = image::loadHdrImage(input);
        for (const std::string& op : operators) {
            app::TonemapOptions options;
            options.input = input;
            options.output = scratch / (input.stem().string() + "-" + op + ".png");
            options.toneOperator = op;
            options.curveOut = scratch / (input.stem().string() + "-" + op + "-curve.csv");
            options.histogramOut = scratch / (input.stem().string() + "-" + op + "-hist.csv");
            options.verify = true;
            ASSERT_EQ(run(options), 0) << input << " " << op << ": " << err.str() << out.str();
            const image::Image8 png = image::loadImage8(options.output);
            EXPECT_EQ(png.width, source.width);
            EXPECT_EQ(png.height, source.height);
            EXPECT_TRUE(std::filesystem::file_size(*options.curveOut) > 0);
            std::ifstream histogram(*options.histogramOut);
            std::string header;
            std::getline(histogram, header);
            EXPECT_EQ(header, "bin,log2_lower,log2_upper,count");
        }
    }
    EXPECT_GE(files, 1);
}

TEST_F(TonemapCommand, DamagedFilesFailWithOneErrorLine)
{
    auto exr = ts::sharedData("exr");
    if (!exr)
        GTEST_SKIP() << "../shared/exr not present";
    const auto scratch = ts::scratchDir("tonemap-damaged");
    int files = 0;
    int refused = 0;
    for (const auto& input : filesIn(*exr / "damaged")) {
        ++files;
        app::TonemapOptions options;
        options.input = input;
        options.output = scratch / "out.png";
        const int code = run(options);
        if (code == 0) {
            // A few "damaged" files of the fuzz corpus may still be readable images: then a PNG exists.
            EXPECT_TRUE(std::filesystem::exists(options.output)) << input;
            continue;
        }
        ++refused;
        EXPECT_EQ(code, 1) << input;
        const std::string message = err.str();
        EXPECT_EQ(message.rfind("hdrlab: error: ", 0), 0u) << input << ": " << message;
        EXPECT_EQ(std::count(message.begin(), message.end(), '\n'), 1) << input << ": " << message;
    }
    EXPECT_GE(files, 1);
    EXPECT_GE(refused, files - 2) << "nearly every damaged file must be refused";
    std::cout << "[ info     ] " << refused << " of " << files << " damaged files refused\n";
}

TEST_F(TonemapCommand, MissingInputAndBadOptionsFailCleanly)
{
    const auto scratch = ts::scratchDir("tonemap-bad");
    app::TonemapOptions options;
    options.input = scratch / "does-not-exist.exr";
    options.output = scratch / "out.png";
    EXPECT_EQ(run(options), 1);
    EXPECT_NE(err.str().find("hdrlab: error: "), std::string::npos);
    options.range = "5:1";  // a bad command line: exit 2, as every usage error
    EXPECT_EQ(run(options), 2);
    EXPECT_NE(err.str().find("MIN must be below MAX"), std::string::npos) << err.str();
    options.range.reset();
    options.bins = 0;
    EXPECT_EQ(run(options), 2);
    EXPECT_NE(err.str().find("--bins"), std::string::npos) << err.str();
}

TEST_F(TonemapCommand, GreyPngWithEqualizeTakesTheExact8BitPath)
{
    const auto scratch = ts::scratchDir("tonemap-equalize8");
    image::Image8 grey(8, 8, 1);
    grey.pixels.assign(ts::kEqualizeExampleInput.begin(), ts::kEqualizeExampleInput.end());
    app::TonemapOptions options;
    options.input = scratch / "example.png";
    options.output = scratch / "equalized.png";
    options.toneOperator = "equalize";
    options.histogramOut = scratch / "levels.csv";
    image::writePng(options.input, grey);
    ASSERT_EQ(run(options), 0) << err.str();
    const image::Image8 result = image::loadImage8(options.output);
    ASSERT_EQ(result.channels, 1);
    EXPECT_EQ(result.pixels,
              std::vector<std::uint8_t>(ts::kEqualizeExampleOutput.begin(), ts::kEqualizeExampleOutput.end()));
}

TEST_F(TonemapCommand, SyntheticExrWithManualRangeWritesCsvs)
{
    const auto scratch = ts::scratchDir("tonemap-synthetic");
    ts::TestImage image = ts::randomHdrImage(33, 17, -4.0f, 6.0f, 2);
    const ts::SpecialCounts special = ts::addSpecialPixels(image, 7);
    image::ImageF hdr(33, 17);
    hdr.pixels = image.rgba;
    app::TonemapOptions options;
    options.input = scratch / "in.exr";
    image::writeExr(options.input, hdr, image::ExrPixelType::Float);
    options.output = scratch / "out.png";
    options.range = "-5:7";
    options.bins = 48;
    options.histogramOut = scratch / "hist.csv";
    options.curveOut = scratch / "curve.csv";
    if (post::toneOperatorRegistry().empty())
        options.toneOperator = "placeholder";
    else
        options.toneOperator = std::string(post::toneOperatorRegistry().front().id);
    ASSERT_EQ(run(options), 0) << err.str();
    std::ifstream histogram(*options.histogramOut);
    std::string line;
    int rows = 0;
    std::getline(histogram, line);
    while (std::getline(histogram, line) && !line.empty())
        ++rows;
    EXPECT_EQ(rows, 48);
    std::getline(histogram, line);
    EXPECT_EQ(line, "counter,count");
    std::getline(histogram, line);
    EXPECT_EQ(line, "nan," + std::to_string(special.nan));  // EXR float keeps NaN
    std::getline(histogram, line);
    EXPECT_EQ(line, "inf," + std::to_string(special.inf));
}

TEST(TonemapRange, ParsesMinMaxAndRejectsBadValues)
{
    auto range = app::parseTonemapRange("-4.5:12");
    ASSERT_TRUE(range);
    EXPECT_EQ(range->first, -4.5f);
    EXPECT_EQ(range->second, 12.0f);
    EXPECT_FALSE(app::parseTonemapRange("auto"));
    for (const char* bad : {"", "3", "1:", ":2", "a:b", "2:1", "1:1", "nan:3", "0:inf", "1:2:3", "1 :2x"})
        EXPECT_THROW(app::parseTonemapRange(bad), app::CliError) << bad;
}

}  // namespace

namespace {

std::vector<std::pair<double, double>> readPcondPairs(const std::filesystem::path& csv)
{
    std::ifstream in(csv);
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(line, "log2_Lw,Ld,world_cd_m2,display_cd_m2");
    std::vector<std::pair<double, double>> pairs;
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        std::string a, b, world, display;
        std::getline(fields, a, ',');
        std::getline(fields, b, ',');
        std::getline(fields, world, ',');
        std::getline(fields, display, ',');
        pairs.emplace_back(std::stod(world), std::stod(display));
    }
    return pairs;
}

TEST_F(TonemapCommand, WardPcondSamplingOnThePhotographsEqualsTheCpuReference)
{
    // tonemap's Ward curve with pcond sampling (GPU) against reference/WardPcondRef on the same
    // pixels: every printed point within 1e-6 of log10 display luminance, both ceilings.
    auto exr = ts::sharedData("exr");
    if (!exr)
        GTEST_SKIP() << "../shared/exr not present";
    const auto scratch = ts::scratchDir("tonemap-pcond");
    int files = 0;
    for (const auto& input : filesIn(*exr / "real")) {
        if (input.extension() != ".exr")
            continue;
        ++files;
        const image::ImageF source = image::loadHdrImage(input);
        for (bool human : {false, true}) {
            app::TonemapOptions options;
            options.input = input;
            options.output = scratch / (input.stem().string() + ".png");
            options.toneOperator = "ward";
            options.curveOut = scratch / (input.stem().string() + "-pcond.csv");
            options.settingAssignments = {"ward.sampling=pcond",
                                          std::string("ward.human_contrast=") + (human ? "true" : "false")};
            ASSERT_EQ(run(options), 0) << input << ": " << err.str() << out.str();
            const auto gpu = readPcondPairs(*options.curveOut);
            ref::PcondPicture picture;  // EXR: 1 unit = 1 cd/m^2 with Rec. 709 weights, no view
            picture.width = source.width;
            picture.height = source.height;
            picture.rgba = source.pixels.data();
            picture.weights = {hd::kLumaR, hd::kLumaG, hd::kLumaB};
            picture.efficacy = 1.0;
            post::WardSettings settings;
            settings.humanContrast = human;
            const ref::PcondMapping mapping = ref::pcondMapping(ref::pcondHistogram(picture, settings), settings);
            const auto cpu = ref::pcondPrintedMapping(mapping, settings);
            ASSERT_EQ(gpu.size(), cpu.size()) << input;
            ASSERT_FALSE(cpu.empty()) << input;
            double worst = 0.0;
            for (std::size_t i = 0; i < cpu.size(); ++i) {
                EXPECT_NEAR(gpu[i].first / cpu[i].first, 1.0, 1e-12) << input << " point " << i;
                worst = std::max(worst, std::abs(std::log10(gpu[i].second) - std::log10(cpu[i].second)));
            }
            EXPECT_LE(worst, 1e-6) << input << (human ? " (TVI ceiling)" : "");
        }
    }
    EXPECT_GE(files, 1);
}

}  // namespace

namespace {

std::string fileText(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

TEST_F(TonemapCommand, HistogramOutThenInGivesTheSameCurveBitForBit)
{
    // Every operator (Ward with both samplings): the curve made from the written histogram equals the
    // curve made from the picture, byte for byte, and so does the picture.
    ts::TestImage image = ts::randomHdrImage(61, 37, -9.0f, 13.0f, 11);
    const auto scratch = ts::scratchDir("tonemap-histogram-in");
    const auto input = scratch / "in.exr";
    image::ImageF hdr(image.width, image.height);
    hdr.pixels = image.rgba;
    image::writeExr(input, hdr);
    std::vector<std::pair<std::string, std::string>> cases;
    for (const post::ToneOperatorEntry& entry : post::toneOperatorRegistry())
        cases.emplace_back(std::string(entry.id), "");
    cases.emplace_back("ward", "ward.sampling=frame");
    cases.emplace_back("ward", "ward.sampling=pcond");
    cases.emplace_back("ward", "ward.human_contrast=true");
    for (const auto& [op, set] : cases) {
        const std::string name = op + (set.empty() ? "" : "-" + set.substr(set.find('=') + 1));
        app::TonemapOptions measured;
        measured.input = input;
        measured.toneOperator = op;
        if (!set.empty())
            measured.settingAssignments = {set};
        measured.output = scratch / (name + "-measured.png");
        measured.curveOut = scratch / (name + "-measured.csv");
        measured.histogramOut = scratch / (name + "-histogram.csv");
        ASSERT_EQ(run(measured), 0) << name << ": " << err.str();
        app::TonemapOptions fed = measured;
        fed.histogramOut.reset();
        fed.histogramIn = measured.histogramOut;
        fed.output = scratch / (name + "-fed.png");
        fed.curveOut = scratch / (name + "-fed.csv");
        ASSERT_EQ(run(fed), 0) << name << ": " << err.str();
        EXPECT_NE(out.str().find("histogram from"), std::string::npos) << out.str();
        EXPECT_EQ(fileText(*fed.curveOut), fileText(*measured.curveOut)) << name;
        EXPECT_EQ(fileText(fed.output), fileText(measured.output)) << name;
    }
}

TEST_F(TonemapCommand, HistogramFromAnotherToolGivesEveryOperatorACurve)
{
    ts::TestImage image = ts::randomHdrImage(8, 8, 0.0f, 1.0f, 3);
    const auto scratch = ts::scratchDir("tonemap-histogram-plain");
    const auto input = scratch / "in.exr";
    image::ImageF hdr(image.width, image.height);
    hdr.pixels = image.rgba;
    image::writeExr(input, hdr);
    std::ofstream(scratch / "plain.csv") << "log2_lower,log2_upper,count\n"
                                            "-8,-6,10\n-6,-4,40\n-4,-2,100\n-2,0,400\n0,2,90\n2,4,0\n4,6,12.5\n";
    for (const post::ToneOperatorEntry& entry : post::toneOperatorRegistry()) {
        app::TonemapOptions options;
        options.input = input;
        options.toneOperator = std::string(entry.id);
        options.histogramIn = scratch / "plain.csv";
        options.output = scratch / (options.toneOperator + ".png");
        options.curveOut = scratch / (options.toneOperator + ".csv");
        ASSERT_EQ(run(options), 0) << entry.id << ": " << err.str();
        EXPECT_NE(err.str().find("scaled by 2^"), std::string::npos) << err.str();  // 12.5 is not whole
        EXPECT_GT(fileText(*options.curveOut).size(), 40u);
    }
    // A broken file: one line, exit 1, no picture.
    std::ofstream(scratch / "bad.csv") << "log2_lower,log2_upper,count\n0,1,5\n1,0.5,3\n";
    app::TonemapOptions bad;
    bad.input = input;
    bad.histogramIn = scratch / "bad.csv";
    bad.output = scratch / "bad.png";
    EXPECT_EQ(run(bad), 1);
    EXPECT_NE(err.str().find("bad.csv': line 3: edges not increasing"), std::string::npos) << err.str();
    const std::string message = err.str();
    EXPECT_EQ(std::count(message.begin(), message.end(), '\n'), 1) << message;
    EXPECT_FALSE(std::filesystem::exists(bad.output));
    bad.histogramIn = scratch / "missing.csv";
    EXPECT_EQ(run(bad), 1);
    EXPECT_NE(err.str().find("cannot be read"), std::string::npos) << err.str();
}

// display.target=hdr10: the PNG is 16-bit PQ with cICP/mDCV/cLLI before IDAT, its pixels are the PQ
// codes of --hdr-exr's linear BT.2020 cd/m^2, mDCV's peak is display.peak, cLLI's MaxCLL the brightest
// channel, and --verify passes (its HDR10 check).
TEST_F(TonemapCommand, Hdr10WritesAPqPngWithItsChunksAndTheNitsExr)
{
    const auto scratch = ts::scratchDir("tonemap-hdr10");
    ts::TestImage picture = ts::randomHdrImage(40, 24, -6.0f, 10.0f, 3);
    image::ImageF input(picture.width, picture.height);
    input.pixels = picture.rgba;
    image::writeExr(scratch / "in.exr", input, image::ExrPixelType::Float);
    app::TonemapOptions options;
    options.input = scratch / "in.exr";
    options.output = scratch / "out.png";
    options.toneOperator = "exposure";
    options.hdrExr = scratch / "nits.exr";
    options.verify = true;
    options.settingAssignments = {"exposure.display_curve=agx", "display.target=hdr10", "display.peak=2000"};
    ASSERT_EQ(run(options), 0) << err.str() << out.str();
    EXPECT_NE(out.str().find("HDR10 output (peak 2000 cd/m^2) vs CPU reference"), std::string::npos) << out.str();
    const image::ImageF nits = image::loadHdrImage(*options.hdrExr);
    const image::Image16 png = image::loadPng16(options.output);
    ASSERT_EQ(png.width, 40);
    ASSERT_EQ(png.height, 24);
    float brightest = 0.0f;
    for (std::size_t i = 0; i < std::size_t(40 * 24); ++i)
        for (int c = 0; c < 3; ++c) {
            const float value = nits.pixels[i * 4 + std::size_t(c)];
            brightest = std::max(brightest, value);
            EXPECT_EQ(png.samples[i * 3 + std::size_t(c)], image::pqCode16(value)) << i << "," << c;
        }
    EXPECT_GT(brightest, 203.0f) << "the highlights go above SDR white";
    EXPECT_LE(brightest, 2000.0f);
    bool mdcv = false, clli = false, cicp = false;
    for (const image::PngChunk& chunk : image::readPngChunks(options.output)) {
        if (chunk.type == "IDAT")
            break;
        cicp |= chunk.type == "cICP" && chunk.data == std::vector<std::uint8_t>{9, 16, 0, 1};
        mdcv |= chunk.type == "mDCV" && chunk.data.size() == 24 && chunk.data[16] == 0x01 && chunk.data[17] == 0x31 &&
                chunk.data[18] == 0x2d && chunk.data[19] == 0x00;  // 2000 cd/m^2 = 20000000 x 0.0001
        if (chunk.type == "cLLI" && chunk.data.size() == 8) {
            const std::uint32_t maxCll = std::uint32_t(chunk.data[0]) << 24 | std::uint32_t(chunk.data[1]) << 16 |
                                         std::uint32_t(chunk.data[2]) << 8 | chunk.data[3];
            clli = std::abs(double(maxCll) * 1e-4 - double(brightest)) < 1e-3 * brightest;
        }
    }
    EXPECT_TRUE(cicp);
    EXPECT_TRUE(mdcv);
    EXPECT_TRUE(clli);
}

}  // namespace
