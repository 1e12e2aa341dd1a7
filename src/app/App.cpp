// App.cpp: the live app's construction from its options and its public API (app/App.h); the frame
// loop, the panels' side and the run's outputs are in FrameLoop.cpp, AppPanels.cpp and
// RunOutputs.cpp (app/AppImpl.h holds the state they share).
#include "app/AppImpl.h"
#include "app/FileArgument.h"

#include "gl/Debug.h"
#include "post/MethodListing.h"
#include "post/SettingsFile.h"
#include "scene/Scene.h"
#include "util/Log.h"
#include "util/Paths.h"
#include "util/PrintableText.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <utility>

namespace app {
namespace {
/// The preset the app starts on: the one whose file is `sceneFile`, or "default" without a file.
std::optional<int> presetIndexOf(const std::vector<scene::ScenePreset>& presets,
                                 const std::optional<std::filesystem::path>& sceneFile)
{
    std::optional<int> found;
    for (std::size_t i = 0; i < presets.size(); ++i) {
        std::error_code ec;
        if (sceneFile ? std::filesystem::equivalent(presets[i].path, *sceneFile, ec) : presets[i].name == "default")
            found = int(i);
    }
    return found;
}
}  // namespace

App::App(const AppOptions& options) : mImpl(std::make_unique<Impl>())
{
    Impl& a = *mImpl;
    a.options = options;
    a.vsync = options.vsync;
    a.showUi = !options.hideUi;
    glm::ivec2 size = options.size.value_or(kDefaultSize);

    a.context = createAppContext(options, size);
    a.isWindow = a.context->isWindow();
    const gl::GlInfo& gl = a.context->info();
    std::cout << "hdrlab " << HDRLAB_VERSION << " | " << gl.vendor << " | " << gl.renderer << " | OpenGL " << gl.version
              << " | " << gl.platform << std::endl;
    gl::installDebugCallback(false);
    a.displayFramebuffer = gl::Framebuffer("app.display-read");

    if (!a.isWindow) {
        if (options.noArguments) {
            // The demo: no flags and no display.
            a.options.screenshot = kDemoScreenshot;
            a.options.capture = kDemoCapture;
            const DemoRun demo = demoRunFor(gl.isSoftwareRenderer());
            a.options.frames = demo.frames;
            size = {demo.width, demo.height};
            std::error_code ec;
            std::cout << "demo run: " << demo.frames << " frames of " << demo.width << "x" << demo.height << " headless"
                      << (gl.isSoftwareRenderer() ? " (a software renderer: fewer and smaller frames than on a GPU)"
                                                  : "")
                      << ", writing " << (std::filesystem::current_path(ec) / kDemoScreenshot).string() << " and "
                      << (std::filesystem::current_path(ec) / kDemoCapture).string() << std::endl;
        }
        a.frameCount = a.options.frames.value_or(kDefaultHeadlessFrames);
    } else {
        a.frameCount = options.frames.value_or(-1);
    }
    if (a.frameCount == 0 && (a.options.screenshot || a.options.screenshotExr || a.options.windowScreenshot ||
                              a.options.verify || a.options.hdrSequenceOut || a.options.displaySequenceOut))
        throw std::runtime_error("--frames 0 renders nothing to write or verify");
    if (a.options.resizeStorm && !a.isWindow)
        throw std::runtime_error("--resize-storm needs a window (a display, e.g. xvfb-run), and this run is headless");
    if (a.options.windowScreenshot && !a.isWindow)
        throw std::runtime_error("--window-screenshot needs a window, and this run is headless");
    if (a.options.windowScreenshot && a.frameCount < 0 && !a.options.resizeStorm)  // the storm sets its count
        throw std::runtime_error("--window-screenshot needs --frames N (it is taken after the last frame)");
    a.recordFrom = a.frameCount < 0 ? kRecordFromFrame : std::min(kRecordFromFrame, a.frameCount / 3);

    a.caps = probeGpuCaps(*a.context);
    a.shaders = std::make_unique<gl::ShaderLibrary>(util::findDataRoot(options.dataDir) / "shaders");
    if (options.watchShaders.value_or(a.isWindow))
        a.shaderWatcher = std::make_unique<util::FolderWatcher>(a.shaders->root());
    a.profiler = std::make_unique<profiling::Profiler>(a.caps.glTimersUseful);
    if (options.captureFrames)
        a.profiler->setRecordingCapacity(std::size_t(*options.captureFrames));
    a.pacer = std::make_unique<gl::FramePacer>();
    a.cudaInterop = post::chooseCudaInterop(
        a.caps, options.cudaInteropShared ? post::CudaInteropMode::Shared : post::CudaInteropMode::Map);
    a.caps.cudaInterop = a.cudaInterop.status;
    if (options.listen) {
        a.createTevSource();
        if (!a.isWindow && !options.ui)
            size = a.source->size();  // headless output is the first image at its own size
    } else if (options.viewImage && isSequenceInput(*options.viewImage)) {
        a.createSequenceSource();
        size = a.source->size();  // headless output is every frame at the frames' own size
    } else if (options.viewImage) {
        if (options.sequenceFps || options.badFramePolicy)
            throw std::runtime_error(
                util::format("--fps and --on-bad-frame apply to a sequence (a folder, a glob or a "
                             "%d pattern); '{}' is one image",
                             options.viewImage->string()));
        auto still = std::make_unique<StillImageSource>(*options.viewImage, options.exrPart, a.caps.maxTextureSize);
        a.stillImage = still.get();
        a.source = std::move(still);
        if (!a.isWindow && !options.ui) {
            if (options.size)
                util::logWarning("--size is ignored headless: view runs on the whole image at its own size ({} x {})",
                                 a.source->size().x, a.source->size().y);
            size = a.source->size();  // headless output is the whole image at its own size
        }
    } else {
        // A scene name or a relative path not found here is looked up in the data folder.
        const std::optional<std::filesystem::path> sceneFile =
            options.sceneFile ? std::optional(resolveSceneFile(*options.sceneFile, options.dataDir)) : std::nullopt;
        auto sceneSource = std::make_unique<SceneFrameSource>(
            *a.shaders, sceneFile ? scene::loadSceneFile(*sceneFile) : scene::defaultScene(),
            a.cudaInterop.allocator.get(), a.isWindow ? glm::max(a.context->framebufferSize(), glm::ivec2(1)) : size,
            options.frameFormat ? *scene::parseFrameFormat(*options.frameFormat) : scene::kDefaultFrameFormat);
        if (options.lighting)
            sceneSource->setLightingPath(*scene::parseLightingPath(*options.lighting));
        a.sceneSource = sceneSource.get();
        a.source = std::move(sceneSource);
        a.presets = scene::listScenePresets(util::findDataRoot(options.dataDir) / "scenes");
        a.currentPreset = presetIndexOf(a.presets, sceneFile).value_or(a.currentPreset);
    }
    a.pipeline = std::make_unique<post::PostPipeline>(*a.shaders, *a.profiler, a.caps);
    a.pipeline->setSharedAllocator(a.cudaInterop.allocator.get());
    // Only a scene lit by the deferred pass can bin its frame for the fused-lighting method.
    a.pipeline->setFusedHistogramProducer(a.sceneSource && a.sceneSource->canFuseHistogram());
    applyRequestedSettings(*a.pipeline, a.options);
    if (a.stillImage) {  // what one unit of the image is (post/LuminanceUnits.h)
        a.pipeline->setInputRadiance(a.stillImage->radiance());
        util::logInfo("{}: {}", a.stillImage->name(), a.pipeline->luminanceUnits().describe());
    }
    if (options.view)
        a.pipeline->setViewMode(*post::parseViewMode(*options.view), !a.isWindow);  // headless: legend in the image
    a.split = std::make_unique<SplitView>(*a.shaders, *a.profiler, a.caps, a.cudaInterop.allocator.get());
    a.split->setLegendStrip(!a.isWindow);
    if (options.split && *options.split != "off") {
        a.split->setMode(*post::parseSplitMode(*options.split), *a.pipeline);
        applyRequestedSettingsB(*a.split->pipelineB(), options);
        a.split->setPosition(options.splitPosition.value_or(post::kDefaultSplitPosition));
        a.split->setGain(options.splitGain.value_or(post::kDefaultSplitGain));
    }
    for (const glm::ivec2 point : options.probes)
        if (!a.isWindow && (point.x >= a.source->size().x || point.y >= a.source->size().y))
            throw std::runtime_error(util::format("--probe {},{} is outside the {}x{} frame (X 0..{}, Y 0..{})",
                                                  point.x, point.y, a.source->size().x, a.source->size().y,
                                                  a.source->size().x - 1, a.source->size().y - 1));
    if (options.resizeStorm) {
        a.storm = std::make_unique<ResizeStorm>(*options.resizeStorm, a.context->framebufferSize(), a.caps,
                                                a.pipeline->settings());
        a.frameCount = std::max(a.frameCount, a.storm->frameCount());
    }

    if (a.isWindow || options.ui) {
        a.imgui = std::make_unique<ui::ImGuiLayer>(a.isWindow ? a.context->window() : nullptr);
        a.panels = std::make_unique<ui::PanelSet>(a.caps, a.presets);
        a.noteStartFile();
        if (options.settingsFile)
            for (const std::string& warning :
                 ui::applyLayoutKeys(post::readSettingsSection(*options.settingsFile, post::kLayoutKeyPrefix),
                                     a.panels->columns().state()))
                util::logWarning("{}: {}", options.settingsFile->string(), warning);
    }
    if (a.isWindow)
        a.windowEvents = std::make_unique<WindowEvents>(a.context->window());
    if (options.hdrSequenceOut)
        a.hdrSequenceOut = std::make_unique<FrameSequenceWriter>(
            *options.hdrSequenceOut, FrameSequenceWriter::Kind::HdrExr, "--hdr-sequence-out");
    if (options.displaySequenceOut)
        a.displaySequenceOut = std::make_unique<FrameSequenceWriter>(*options.displaySequenceOut,
                                                                     FrameSequenceWriter::Kind::DisplayPng, "-o");
    if (!a.isWindow && options.ui) {
        a.uiTarget = gl::Texture("app.ui-target", GL_RGBA8, size);
        a.uiFramebuffer = gl::Framebuffer("app.ui-target");
        a.uiFramebuffer.attachTexture(GL_COLOR_ATTACHMENT0, a.uiTarget);
        a.uiFramebuffer.checkComplete("app.ui-target");
    }
}

void App::Impl::createSequenceSource()
{
    SequenceOptions playback;
    playback.fps = options.sequenceFps.value_or(kDefaultSequenceFps);
    playback.onBadFrame = parseBadFramePolicy(options.badFramePolicy.value_or("stop")).value_or(BadFramePolicy::Stop);
    playback.loop = isWindow || options.frames.has_value();  // headless without --frames: once through
    playback.exrPart = options.exrPart;
    auto frames =
        std::make_unique<SequenceSource>(listFrameSequence(*options.viewImage), playback, caps.maxTextureSize);
    sequence = frames.get();
    source = std::move(frames);
    fixedDt = 1.0 / playback.fps;
    if (!isWindow && !options.frames) {
        frameCount = int(std::min<std::size_t>(sequence->sequence().fileCount(), std::size_t(INT32_MAX)));
        recordFrom = std::min(kRecordFromFrame, frameCount / 3);
    }
    if (options.size && !isWindow)
        util::logWarning("--size is ignored headless: view runs on the sequence at its frames' size ({} x {})",
                         source->size().x, source->size().y);
}

void App::Impl::createTevSource()
{
    net::ListenAddress address;
    try {
        address = net::parseListenAddress(*options.listen);
    } catch (const std::invalid_argument& error) {
        throw std::runtime_error(error.what());
    }
    auto server = std::make_unique<TevFrameSource>(address, caps.maxTextureSize);
    tev = server.get();
    source = std::move(server);
    if (isWindow)
        return;
    // Headless: the run's frames are of the first image, once its sender pauses (a script streams
    // it, then captures), at most --listen-timeout seconds after the start.
    const double seconds = options.listenTimeout.value_or(kDefaultListenTimeout);
    const auto timeout = std::chrono::milliseconds(static_cast<long long>(seconds * 1000.0));
    if (!tev->waitForFirstImage(timeout, std::chrono::milliseconds(250)))
        throw std::runtime_error(util::format("--listen: no image arrived on {} within {} s (--listen-timeout)",
                                              tev->server().endpoint(), seconds));
    util::logInfo("tev: running on '{}' ({} x {})", util::escapeControlCharacters(tev->name(), true, 80),
                  source->size().x, source->size().y);
}

App::~App() = default;

int App::run()
{
    Impl& a = *mImpl;
    // Headless runs record every frame for the summary table; a resource report (the soak) records
    // only for --capture, since a recording that keeps every frame is growth by design.
    a.recordForOutputs = a.options.capture || a.options.captureCsv || (!a.isWindow && !a.options.resourceReport);
    const int rendered = a.runFrames(a.frameCount);
    if (a.options.resourceReport)
        a.reportResources(std::uint64_t(a.frame));
    if (a.storm)
        std::cout << a.storm->summary() << std::endl;
    if (const std::string kept = a.describeKeptPictureRate(); !kept.empty())
        util::logInfo("{}", kept);
    const int exitCode = a.finish(rendered);
    if (const std::string reason = a.source->stopReason(); !reason.empty())
        throw std::runtime_error(reason);  // after the outputs of the frames before it are written
    return exitCode;
}

void App::setFrameObserver(FrameObserver observer)
{
    mImpl->frameObserver = std::move(observer);
}

void App::renderFrames(int count)
{
    if (mImpl->isWindow)
        throw std::logic_error("App::renderFrames is for headless runs");
    mImpl->runFrames(std::max(count, 0));
}

int App::renderToEnd()
{
    if (mImpl->isWindow)
        throw std::logic_error("App::renderToEnd is for headless runs");
    const int rendered = mImpl->runFrames(-1);
    if (const std::string reason = mImpl->source->stopReason(); !reason.empty())
        throw std::runtime_error(reason);
    return rendered;
}

void App::rewindCameraPath()
{
    mImpl->frame = 0;
}

void App::resizeFrame(glm::ivec2 size)
{
    if (mImpl->isWindow)
        throw std::logic_error("App::resizeFrame is for headless runs");
    mImpl->source->resize(size);
}

void App::waitForTimings()
{
    mImpl->waitForTimings();
}

App::Flicker App::flicker()
{
    Impl& a = *mImpl;
    a.collectKeyValues();
    Flicker out{a.runExposure.flickerEvPerSecond(), 0, a.cuts.size(), {}};
    for (const Impl::CutRecord& cut : a.cuts)
        out.cutFrames.push_back(cut.sourceFrame);
    for (const post::ExposureHistory::Frame& f : a.runExposure.frames()) {
        out.framesWithKeyValue += f.keyEv ? 1 : 0;
        if (f.keyEv)
            out.lastKeyEv = *f.keyEv;
    }
    return out;
}

post::PostPipeline& App::pipeline()
{
    return *mImpl->pipeline;
}
profiling::Profiler& App::profiler()
{
    return *mImpl->profiler;
}
const post::GpuCaps& App::caps() const
{
    return mImpl->caps;
}
const gl::ShaderLibrary& App::shaders() const
{
    return *mImpl->shaders;
}
const gl::GlInfo& App::glInfo() const
{
    return mImpl->context->info();
}
float App::cameraFovYDegrees() const
{
    return mImpl->source->verticalFovDegrees();
}
unsigned App::frameFormat() const
{
    return mImpl->source->hdr().format();
}

std::optional<FrameStoreStatus> App::frameStore()
{
    if (!mImpl->sceneSource)
        return std::nullopt;
    return mImpl->sceneSource->storeStatus();
}

int listMethods(const AppOptions& options)
{
    AppOptions headless = options;
    headless.headless = true;
    auto context = createAppContext(headless, kDefaultSize);
    post::GpuCaps caps = probeGpuCaps(*context);
    const gl::GlInfo& gl = context->info();
    std::cout << "GPU: " << gl.vendor << " | " << gl.renderer << " | OpenGL " << gl.version << " | " << gl.platform
              << "\n\n"
              << post::describeAvailableMethods(caps);
    return 0;
}

}  // namespace app
