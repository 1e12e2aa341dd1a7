// CompareCommand.cpp: `hdrlab compare`: renders one frame of a scene (or loads an image) in a
// headless context and prints compareMethods' table (and CSV), once per bin count of --bins, each
// followed by the scan methods on the CPU histogram of that frame (compareScanMethods); --chart
// draws the median build times against bins, one line per method (util::SvgChart).
#include "cli/Commands.h"
#include "compare/CompareMethods.h"
#include "compare/CompareScans.h"
#include "frames/SceneFrameSource.h"
#include "commands/tonemap/TonemapCore.h"
#include "image/ImageIo.h"
#include "platform/GlContext.h"
#include "post/CudaProbe.h"
#include "profiling/Profiler.h"
#include "scene/PreExposure.h"
#include "scene/Scene.h"
#include "scene/SceneRenderer.h"
#include "util/Log.h"
#include "util/OutputFile.h"
#include "util/Paths.h"
#include "util/SvgChart.h"

#include <iostream>
#include <optional>
#include <stdexcept>

namespace app {

namespace {

constexpr std::string_view kPrefix = "hdrlab compare: ";

glm::ivec2 parseSize(const std::string& text, int maxTextureSize)
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
        post::GpuCaps caps = queryGpuCaps(context->info());
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
            const glm::ivec2 size = parseSize(options.size, caps.maxTextureSize);
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
        std::cerr << kPrefix << error.what() << "\n";
        return 1;
    }
}

}  // namespace app
