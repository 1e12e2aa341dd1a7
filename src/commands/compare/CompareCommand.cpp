// CompareCommand.cpp: `hdrlab compare`: renders one frame of a scene (or loads an image) in a
// headless context and prints compareMethods' table (and CSV), once per bin count of --bins, each
// followed by the scan methods on the CPU histogram of that frame (compareScanMethods); --chart
// draws the median build times against bins, one line per method (util::SvgChart).
#include "commands/compare/CompareCommand.h"

#include "compare/CompareMethods.h"
#include "compare/CompareScans.h"
#include "frames/SceneFrameSource.h"
#include "image/ImageIo.h"
#include "platform/GlContext.h"
#include "post/CudaProbe.h"
#include "post/histogram/HistogramMethod.h"
#include "profiling/Profiler.h"
#include "scene/PreExposure.h"
#include "scene/Scene.h"
#include "scene/SceneRenderer.h"
#include "util/Log.h"
#include "util/OutputFile.h"
#include "util/Paths.h"
#include "util/SvgChart.h"

#include <CLI/CLI.hpp>

#include <iostream>
#include <optional>
#include <stdexcept>

namespace app {

namespace {

glm::ivec2 frameSizeOnThisGpu(const std::string& text, int maxTextureSize)
{
    int width = 0;
    int height = 0;
    char separator = 0;
    char extra = 0;
    if (std::sscanf(text.c_str(), "%d%c%d%c", &width, &separator, &height, &extra) != 3 ||
        (separator != 'x' && separator != 'X'))
        throw std::invalid_argument(util::format("--size '{}': expected WxH, e.g. 1280x720", text));
    if (width < 1 || height < 1 || width > maxTextureSize || height > maxTextureSize)
        throw std::invalid_argument(
            util::format("--size '{}': each side must be 1..{} pixels on this GPU", text, maxTextureSize));
    return {width, height};
}

}  // namespace

/// What CLI11 fills: the options it binds directly, and the flags read() checks.
struct CompareParser::Flags
{
    CLI::App* command = nullptr;
    CompareOptions bound;
    std::string scene, size = CompareOptions{}.size, csv, scanCsv, image, chart, frameFormat;
    std::string bins = std::to_string(hd::kDefaultHistogramBins), repeat = std::to_string(CompareOptions{}.repeat);
    std::vector<std::string> methods;
    CLI::Option *sceneOption = nullptr, *csvOption = nullptr, *chartOption = nullptr, *scanCsvOption = nullptr,
                *imageOption = nullptr, *frameFormatOption = nullptr;
};

CompareParser::CompareParser(CLI::App& cli, CommonFlags& common) : mFlags(std::make_unique<Flags>())
{
    Flags& f = *mFlags;
    CLI::App& compare = *(f.command = cli.add_subcommand("compare",
                                                         "Run every available histogram method and scan on one "
                                                         "frame: correctness against the CPU reference and timings"));
    f.sceneOption =
        compare.add_option("--scene", f.scene, "Scene file (default: the built-in scene)")->type_name("FILE");
    compare.add_option("--size", f.size, "Frame size (default 1280x720)")->type_name("WxH");
    compare
        .add_option("--bins", f.bins,
                    "Histogram bins, 1..4096, or a list to sweep, or all = 64,256,1024,4096 (default 256)")
        ->type_name("N[,N...]|all");
    compare.add_option("--repeat", f.repeat, "Timed repetitions per method (default 10)")->type_name("K");
    f.csvOption = compare.add_option("--csv", f.csv, "Also write the results as CSV ('-': standard output)")
                      ->type_name("OUT.csv");
    f.chartOption =
        compare.add_option("--chart", f.chart, "Also draw median build time against bins, per method (log axes)")
            ->type_name("OUT.svg");
    compare.add_option("--methods", f.methods, "Only these histogram methods (comma-separated ids; default all)")
        ->delimiter(',')
        ->type_name("ID,...");
    f.scanCsvOption =
        compare
            .add_option("--scan-csv", f.scanCsv, "Also write the scan methods' results as CSV ('-': standard output)")
            ->type_name("OUT.csv");
    f.imageOption =
        compare.add_option("--image", f.image, "Compare on an image file instead of a scene frame")->type_name("IN");
    f.frameFormatOption =
        compare
            .add_option("--frame-format", f.frameFormat,
                        "How the scene frame is stored (rgba16f|rgba32f|auto; default: the app's, rgba16f)")
            ->type_name("F")
            ->check(CLI::IsMember(frameFormatChoices()));
    compare
        .add_option("--part", f.bound.exrPart, "With --image IN.exr: the part (index or name), view or layer to read")
        ->type_name("NAME|INDEX");
    addCommonOptions(compare, common);
}

CompareParser::~CompareParser() = default;

bool CompareParser::parsed() const
{
    return mFlags->command->parsed();
}

CompareOptions CompareParser::read(bool& standardOutputIsData) const
{
    const Flags& f = *mFlags;
    CompareOptions options = f.bound;
    parseSize(f.size);
    options.size = f.size;
    options.bins = parseBinList(f.bins);
    options.repeat = unsigned(parseWholeNumber("--repeat", f.repeat, 1, kMaxRepeat));
    for (const std::string& id : f.methods)
        if (!post::createHistogramMethod(id))
            throw CliError("--methods: unknown histogram method '" + id + "' (see hdrlab --list)");
    options.methods = f.methods;
    if (f.sceneOption->count())
        options.scene = f.scene;
    if (f.csvOption->count())
        options.csv = f.csv;
    if (f.scanCsvOption->count())
        options.scanCsv = f.scanCsv;
    if (f.chartOption->count())
        options.chart = f.chart;
    if (f.imageOption->count())
        options.image = f.image;
    if (f.frameFormatOption->count()) {
        if (options.image)
            throw CliError("--frame-format applies to the scene, not to --image, which stays RGBA32F");
        options.frameFormat = f.frameFormat;
    }
    if (!options.exrPart.empty() && !options.image)
        throw CliError("--part needs --image (it picks the part of an OpenEXR image)");
    standardOutputIsData = checkOutputFlags({{f.csvOption, &f.csv, kStreamsText, ".csv"},
                                             {f.scanCsvOption, &f.scanCsv, kStreamsText, ".csv"},
                                             {f.chartOption, &f.chart, kStreamsText, ".svg"}});
    return options;
}

int runCompareCommand(const CommonOptions& common, const CompareOptions& options)
{
    try {
        if (options.bins.empty())
            throw std::invalid_argument("--bins: needs at least one bin count");
        for (unsigned bins : options.bins)
            if (bins < 1 || bins > hd::kMaxHistogramBins)
                throw std::invalid_argument(util::format("--bins {}: must be 1..{}", bins, hd::kMaxHistogramBins));
        if (options.repeat < 1 || options.repeat > 100000)
            throw std::invalid_argument(util::format("--repeat {}: must be 1..100000", options.repeat));
        if (options.image && options.scene)
            throw std::invalid_argument("--image and --scene exclude each other");
        const std::filesystem::path dataRoot = util::findDataRoot(common.dataDir);
        platform::ContextOptions contextOptions;
        contextOptions.debug = common.verbose;
        std::unique_ptr<platform::GlContext> context = platform::createHeadlessContext(contextOptions);
        gl::ShaderLibrary shaders(dataRoot / "shaders");
        post::GpuCaps caps = post::queryGpuCaps(context->info());
        cuda::probeCudaForGl(caps);  // the CUDA methods join the comparison where a CUDA GPU drives GL
        profiling::Profiler profiler(caps.glTimersUseful);
        post::PassContext ctx{shaders, profiler, caps, 0};

        CompareSettings settings;
        settings.repeat = options.repeat;
        settings.onlyMethods = options.methods;
        std::vector<CompareReport> reports;  // one per bin count
        std::optional<gl::Texture> imageTexture;
        std::optional<scene::SceneRenderer> renderer;
        std::optional<post::ImageInput> input;
        std::string source;
        if (options.image) {
            image::ImageF hdr = image::loadHdrImage(*options.image, options.exrPart);
            if (hdr.empty())
                throw std::invalid_argument("'" + *options.image + "' has no pixels");
            if (hdr.width > caps.maxTextureSize || hdr.height > caps.maxTextureSize)
                throw std::invalid_argument(
                    util::format("'{}' is {}x{}; this GPU takes textures up to {} pixels a side", *options.image,
                                 hdr.width, hdr.height, caps.maxTextureSize));
            imageTexture.emplace("compare/image", GL_RGBA32F, glm::ivec2{hdr.width, hdr.height});
            imageTexture->upload(GL_RGBA, GL_FLOAT, hdr.pixels.data());
            input.emplace(post::ImageInput{*imageTexture, {hdr.width, hdr.height}});
            source = "image '" + *options.image + "'";
        } else {
            const glm::ivec2 size = frameSizeOnThisGpu(options.size, caps.maxTextureSize);
            const scene::Scene scene = options.scene ? scene::loadSceneFile(*options.scene) : scene::defaultScene();
            // The frame as the app stores it (pre-exposed RGBA16F by default, k from the scene's brightest
            // source as in the app's first frames), or the format asked for.
            const scene::FrameFormat format =
                options.frameFormat ? *scene::parseFrameFormat(*options.frameFormat) : scene::kDefaultFrameFormat;
            renderer.emplace(shaders, scene, format);
            renderer->resize(size);
            renderer->render(scene.camera, scene::RenderOptions{}, nullptr);
            input.emplace(post::ImageInput{renderer->hdrTarget(), size, renderer->preExposure()});
            source = "scene '" + scene.sourceName + "' (" + std::string(scene::frameFormatName(format)) +
                     (renderer->preExposed() ? ", pre-exposed by 2^" + std::to_string(renderer->preExposure()) : "") +
                     ")";
            // The fused-lighting method: the same frame rendered again, binned by its deferred lighting pass.
            settings.renderFused = [&renderer, camera = scene.camera](post::FusedHistogramTarget& target) {
                const scene::FusedHistogramOutputs outputs = fusedHistogramOutputs(target, scene::PixelInjection{});
                scene::RenderOptions options;
                options.fusedHistogram = &outputs;
                renderer->render(camera, options, nullptr);
            };
        }
        std::string csv;
        std::string scanCsv;
        bool anyFailed = false;
        for (unsigned bins : options.bins) {
            settings.bins = bins;
            CompareReport& report = reports.emplace_back(compareMethods(ctx, *input, settings));
            report.source = source;
            std::cout << (reports.size() > 1 ? "\n" : "") << formatCompareTable(report) << std::flush;
            csv += formatCompareCsv(report, reports.size() == 1);
            for (const CompareRow& row : report.rows)
                anyFailed = anyFailed || row.failed;
            const CompareScanReport scans = compareScanMethods(ctx, report.cpuHistogram, settings.repeat);
            std::cout << formatCompareScanTable(scans);
            std::string rows = formatCompareScanCsv(scans);
            if (reports.size() > 1)  // one header for every bin count's rows
                rows.erase(0, rows.find('\n') + 1);
            scanCsv += rows;
            for (const CompareScanRow& row : scans.rows)  // a scan has no tolerance: any difference fails
                anyFailed = anyFailed || row.failed || (row.available && !row.exact());
        }
        if (options.csv)
            util::writeTextOutput(*options.csv, csv);
        if (options.scanCsv)
            util::writeTextOutput(*options.scanCsv, scanCsv);
        if (options.chart)
            util::writeTextOutput(*options.chart, util::renderSvgChart(compareTimeChart(reports)));
        return anyFailed ? 1 : 0;
    } catch (const std::exception& error) {
        return reportCommandError(std::cerr, error);
    }
}

}  // namespace app
