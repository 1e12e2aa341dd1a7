// ClaheCommand.cpp: `hdrlab clahe`'s flags and run (commands/clahe/ClaheCommand.h): load (16-bit
// PNGs at 16 bits, everything else at 8), refuse or split channels, run the backend on each plane,
// time the passes, --verify against the CPU reference, write at the input's bit depth.
#include "commands/clahe/ClaheCommand.h"

#include "commands/clahe/ClaheBackends.h"
#include "image/HdrPng.h"
#include "image/ImageIo.h"
#include "post/clahe/ClaheGl.h"
#include "reference/Clahe.h"
#include "util/Stats.h"

#include <CLI/CLI.hpp>

#include <cmath>
#include <cstdio>
#include <exception>
#include <iostream>

namespace app {

/// What CLI11 fills: the options it binds directly, and the flags read() checks.
struct ClaheParser::Flags
{
    CLI::App* command = nullptr;
    ClaheOptions bound;
    std::string input, output, clipLimit = "40", tileGrid = "8x8", runs = "10";
    CLI::Option* outputOption = nullptr;
};

ClaheParser::ClaheParser(CLI::App& cli, CommonFlags& common) : mFlags(std::make_unique<Flags>())
{
    Flags& f = *mFlags;
    CLI::App& clahe = *(f.command = cli.add_subcommand(
                            "clahe",
                            "Contrast-limited adaptive histogram equalization of an 8-bit or 16-bit grey image, "
                            "OpenCV's bytes exactly (cv::CLAHE), on the GPU or the CPU"));
    clahe.add_option("input", f.input, "Input image: 8-bit (PNG, JPEG...) or 16-bit PNG, one channel")
        ->required()
        ->type_name("IN.png");
    f.outputOption = clahe.add_option("-o,--output", f.output, "Output PNG, the input's bit depth")
                         ->required()
                         ->type_name("OUT.png");
    clahe.add_option("--clip-limit", f.clipLimit, "OpenCV's clipLimit: >= 0, 0 no clipping (default 40)")
        ->type_name("C");
    clahe.add_option("--tile-grid", f.tileGrid, "OpenCV's tileGridSize, 1..64 tiles a side (default 8x8)")
        ->type_name("WxH");
    clahe.add_option("--backend", f.bound.backend, "gl, cuda or cpu (default gl)")
        ->type_name("ID")
        ->check(CLI::IsMember({"gl", "cuda", "cpu"}));
    clahe.add_flag("--per-channel", f.bound.perChannel,
                   "Process an RGB, RGBA or grey + alpha image one colour channel at a time (alpha untouched); "
                   "without it such images are refused");
    clahe.add_flag("--verify", f.bound.verify,
                   "Also run the CPU reference and report the samples that differ (exit 1 if any)");
    clahe.add_option("--runs", f.runs, "Timed runs after the first; the median per pass is printed (default 10)")
        ->type_name("N");
    addCommonOptions(clahe, common);
}

ClaheParser::~ClaheParser() = default;

bool ClaheParser::parsed() const
{
    return mFlags->command->parsed();
}

void parseTileGrid(std::string_view text, int& tilesX, int& tilesY)
{
    const std::string range = "1.." + std::to_string(hd::kClaheMaxTiles);
    const std::size_t x = text.find_first_of("xX");
    long long w = 0, h = 0;
    if (x == std::string_view::npos || parseInt(text.substr(0, x), w) != IntParse::Ok ||
        parseInt(text.substr(x + 1), h) != IntParse::Ok)
        throw CliError("--tile-grid " + quoted(text) + " is not WxH (e.g. 8x8)");
    if (w < 1 || h < 1 || w > hd::kClaheMaxTiles || h > hd::kClaheMaxTiles)
        throw CliError("--tile-grid " + quoted(text) + " is outside " + range + " tiles a side");
    tilesX = int(w);
    tilesY = int(h);
}

ClaheOptions ClaheParser::read() const
{
    const Flags& f = *mFlags;
    ClaheOptions options = f.bound;
    options.input = f.input;
    options.output = f.output;
    options.clipLimit = parseNumberInRange("--clip-limit", f.clipLimit, 0.0, 1e9);
    if (!std::isfinite(options.clipLimit))  // NaN passes a range check
        throw CliError("--clip-limit " + quoted(std::string_view(f.clipLimit)) +
                       " is not a number; give one in 0..1e9");
    parseTileGrid(f.tileGrid, options.tilesX, options.tilesY);
    options.runs = int(parseWholeNumber("--runs", f.runs, 1, kMaxRepeat));
    checkOutputFlags({{f.outputOption, &f.output, kBinaryImage}});
    return options;
}

namespace {

/// The loaded image, interleaved: 8-bit (Image8) or 16-bit samples.
struct LoadedImage
{
    int width = 0, height = 0, channels = 0;
    bool sixteenBit = false;
    std::vector<std::uint8_t> samples8;
    std::vector<std::uint16_t> samples16;
};

LoadedImage loadImage(const std::filesystem::path& path)
{
    LoadedImage image;
    if (image::isPng16(path)) {
        image::Png16 png = image::loadPng16Samples(path);
        image = {png.width, png.height, png.channels, true, {}, std::move(png.samples)};
    } else {
        image::Image8 decoded = image::loadImage8(path, 0);
        image = {decoded.width, decoded.height, decoded.channels, false, std::move(decoded.pixels), {}};
    }
    return image;
}

const char* layoutName(int channels)
{
    static const char* const kNames[] = {"", "grey", "grey + alpha", "RGB", "RGBA"};
    return channels >= 1 && channels <= 4 ? kNames[channels] : "?";
}

/// Runs every colour channel of `samples` (interleaved, `channels` a pixel; alpha of 2- and 4-channel
/// images untouched) through `runner`, in place; with `verify`, counts the samples that differ from
/// the CPU reference.
template <class Sample>
std::size_t processPlanes(ClaheRunner& runner,
                          std::vector<Sample>& samples,
                          int channels,
                          const hd::ClaheGeometry& geometry,
                          bool verify)
{
    const std::size_t pixels = std::size_t(geometry.width) * std::size_t(geometry.height);
    const int colours = channels == 2 || channels == 4 ? channels - 1 : channels;
    std::size_t differing = 0;
    for (int c = 0; c < colours; ++c) {
        ref::ClaheImage<Sample> plane{geometry.width, geometry.height, std::vector<Sample>(pixels)};
        for (std::size_t i = 0; i < pixels; ++i)
            plane.samples[i] = samples[i * std::size_t(channels) + std::size_t(c)];
        std::vector<Sample> result;
        if constexpr (sizeof(Sample) == 1)
            result = runner.run8(plane.samples.data(), geometry);
        else
            result = runner.run16(plane.samples.data(), geometry);
        if (verify) {
            const ref::ClaheImage<Sample> expected =
                ref::claheBlend(plane, ref::claheLuts(ref::claheTileHistograms(plane, geometry), geometry), geometry);
            for (std::size_t i = 0; i < pixels; ++i)
                differing += result[i] != expected.samples[i];
        }
        for (std::size_t i = 0; i < pixels; ++i)
            samples[i * std::size_t(channels) + std::size_t(c)] = result[i];
    }
    return differing;
}

void printTimings(const std::vector<ClaheStageTimings>& runs)
{
    std::vector<double> histogram, lut, blend, total;
    for (const ClaheStageTimings& t : runs) {
        histogram.push_back(t.histogramMs);
        lut.push_back(t.lutMs);
        blend.push_back(t.blendMs);
        total.push_back(t.totalMs());
    }
    std::printf("| pass | median ms (%zu runs) |\n|---|---|\n", runs.size());
    std::printf("| histogram (with its clear) | %.4f |\n| lut | %.4f |\n| blend | %.4f |\n| total | %.4f |\n",
                util::median(histogram), util::median(lut), util::median(blend), util::median(total));
}

}  // namespace

int runClaheCommand(const CommonOptions& common, const ClaheOptions& options)
{
    const ClaheBackend* backend = findClaheBackend(options.backend);
    if (!backend) {
        std::cerr << "hdrlab: error: unknown backend '" << options.backend << "' (" << claheBackendIds() << ")\n";
        return 2;
    }
    if (const auto reason = backend->unavailableReason()) {
        // Like a missing CUDA device for equalize8: the command line is fine, this machine cannot run it.
        std::cerr << "hdrlab: error: the " << backend->id << " backend is unavailable: " << *reason << "\n";
        return 1;
    }
    try {
        LoadedImage image = loadImage(options.input);
        if (image.channels != 1 && !options.perChannel) {
            std::cerr << "hdrlab: error: '" << options.input.string() << "' has " << image.channels << " channels ("
                      << layoutName(image.channels)
                      << "); CLAHE equalizes one channel: convert it to grey, or pass --per-channel to process each "
                         "colour channel on its own (alpha untouched)\n";
            return 1;
        }
        const int bins = image.sixteenBit ? hd::kClaheBins16 : hd::kClaheBins8;
        if (auto error = post::claheParameterError(image.width, image.height, options.tilesX, options.tilesY,
                                                   options.clipLimit, bins)) {
            std::cerr << "hdrlab: error: '" << options.input.string() << "': " << *error << "\n";
            return 1;
        }
        const hd::ClaheGeometry geometry =
            hd::claheGeometry(image.width, image.height, options.tilesX, options.tilesY, options.clipLimit, bins);
        std::unique_ptr<ClaheRunner> runner = backend->create(common);
        const std::size_t differing =
            image.sixteenBit ? processPlanes(*runner, image.samples16, image.channels, geometry, options.verify)
                             : processPlanes(*runner, image.samples8, image.channels, geometry, options.verify);
        const std::vector<ClaheStageTimings> timings = runner->time(options.runs);

        if (image.sixteenBit) {
            image::writePng16(options.output, {image.width, image.height, image.channels, std::move(image.samples16)});
        } else {
            image::Image8 output(image.width, image.height, image.channels);
            output.pixels = std::move(image.samples8);
            image::writePng(options.output, output);
        }
        std::printf(
            "clahe %dx%d %d-bit %s, grid %dx%d (tiles %dx%d), clip limit %g (%d counts a bin), backend %s on %s\n",
            image.width, image.height, image.sixteenBit ? 16 : 8, layoutName(image.channels), options.tilesX,
            options.tilesY, geometry.tileWidth, geometry.tileHeight, options.clipLimit, geometry.clipLimit,
            std::string(backend->id).c_str(), runner->device().c_str());
        printTimings(timings);
        std::printf("wrote %s\n", options.output.string().c_str());
        if (options.verify) {
            const std::size_t samples =
                std::size_t(image.width) * std::size_t(image.height) *
                std::size_t(image.channels == 2 || image.channels == 4 ? image.channels - 1 : image.channels);
            std::printf("verify: %zu of %zu samples differ from the CPU reference\n", differing, samples);
            if (differing != 0) {
                std::cerr << "hdrlab: error: --verify: " << differing << " samples differ from the CPU reference\n";
                return 1;
            }
        }
        return 0;
    } catch (const std::exception& error) {
        std::cerr << "hdrlab: error: " << error.what() << "\n";
        return 1;
    }
}

}  // namespace app
