// CompareCommand.cpp: `hdrlab compare`: renders one frame of a scene (or loads an image) in a
// headless context and prints compareMethods' table (and CSV), then the scan methods on the CPU
// histogram of that frame (compareScanMethods).
#include "app/Commands.h"
#include "app/CompareMethods.h"
#include "app/CompareScans.h"
#include "app/TonemapCore.h"
#include "image/ImageIo.h"
#include "platform/GlContext.h"
#include "post/CudaProbe.h"
#include "profiling/Profiler.h"
#include "scene/Scene.h"
#include "scene/SceneRenderer.h"
#include "util/Log.h"
#include "util/OutputFile.h"
#include "util/Paths.h"

#include <iostream>
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
        if (options.bins < 1 || options.bins > hd::kMaxHistogramBins)
            throw std::invalid_argument(util::format("--bins {}: must be 1..{}", options.bins, hd::kMaxHistogramBins));
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
        settings.bins = options.bins;
        settings.repeat = options.repeat;
        settings.onlyMethods = options.methods;
        CompareReport report;
        if (options.image) {
            image::ImageF hdr = image::loadHdrImage(*options.image, options.exrPart);
            if (hdr.empty())
                throw std::invalid_argument("'" + *options.image + "' has no pixels");
            if (hdr.width > caps.maxTextureSize || hdr.height > caps.maxTextureSize)
                throw std::invalid_argument(
                    util::format("'{}' is {}x{}; this GPU takes textures up to {} pixels a side", *options.image,
                                 hdr.width, hdr.height, caps.maxTextureSize));
            gl::Texture texture("compare/image", GL_RGBA32F, {hdr.width, hdr.height});
            texture.upload(GL_RGBA, GL_FLOAT, hdr.pixels.data());
            report = compareMethods(ctx, post::ImageInput{texture, {hdr.width, hdr.height}}, settings);
            report.source = "image '" + *options.image + "'";
        } else {
            const glm::ivec2 size = parseSize(options.size, caps.maxTextureSize);
            const scene::Scene scene = options.scene ? scene::loadSceneFile(*options.scene) : scene::defaultScene();
            scene::SceneRenderer renderer(shaders, scene);
            renderer.resize(size);
            renderer.render(scene.camera, scene::RenderOptions{}, nullptr);
            report = compareMethods(ctx, post::ImageInput{renderer.hdrTarget(), size}, settings);
            report.source = "scene '" + scene.sourceName + "'";
        }
        std::cout << formatCompareTable(report);
        if (options.csv)
            util::writeTextOutput(*options.csv, formatCompareCsv(report));
        const CompareScanReport scans = compareScanMethods(ctx, report.cpuHistogram, settings.repeat);
        std::cout << formatCompareScanTable(scans);
        if (options.scanCsv)
            util::writeTextOutput(*options.scanCsv, formatCompareScanCsv(scans));
        bool anyFailed = false;
        for (const CompareRow& row : report.rows)
            anyFailed = anyFailed || row.failed;
        for (const CompareScanRow& row : scans.rows)  // a scan has no tolerance: any difference is a failure
            anyFailed = anyFailed || row.failed || (row.available && !row.exact());
        return anyFailed ? 1 : 0;
    } catch (const std::exception& error) {
        std::cerr << kPrefix << error.what() << "\n";
        return 1;
    }
}

}  // namespace app
