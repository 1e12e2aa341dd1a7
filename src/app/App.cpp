#include "app/App.h"

#include "app/AppSetup.h"
#include "app/ResizeStorm.h"
#include "app/ResourceReport.h"
#include "app/SplitView.h"
#include "app/WindowEvents.h"
#include "compare/CompareMethods.h"
#include "frames/FrameSequence.h"
#include "frames/FrameSequenceWriter.h"
#include "frames/FrameSource.h"
#include "frames/SceneFrameSource.h"
#include "frames/SequenceSource.h"
#include "frames/StillImageSource.h"
#include "gl/Debug.h"
#include "gl/FramePacer.h"
#include "gl/Framebuffer.h"
#include "gl/Gl.h"
#include "post/CudaInterop.h"
#include "post/ExposureHistory.h"
#include "post/MethodListing.h"
#include "post/PostPipeline.h"
#include "post/SettingsFile.h"
#include "profiling/Capture.h"
#include "profiling/Profiler.h"
#include "scene/Scene.h"
#include "scene/ScenePresets.h"
#include "ui/CompareView.h"
#include "ui/ExposurePanel.h"
#include "ui/FramePanel.h"
#include "ui/HistogramView.h"
#include "ui/ImGuiLayer.h"
#include "ui/PanelColumns.h"
#include "ui/PipelinePanel.h"
#include "ui/SplitPanel.h"
#include "ui/TextFit.h"
#include "ui/TimingsPanel.h"
#include "ui/ViewPanel.h"
#include "util/Log.h"
#include "util/OutputFile.h"
#include "util/Paths.h"
#include "util/Stats.h"
#include "verify/PipelineVerify.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <limits>
#include <optional>
#include <thread>
#include <utility>

namespace app {
namespace {

constexpr double kFixedDt = 1.0 / 60.0;               ///< headless: time step of the camera path and adaptation
constexpr int kRecordFromFrame = 10;                  ///< recording for --capture starts after this warm-up
constexpr double kExposurePlotSeconds = 10.0;         ///< the Exposure panel's window
constexpr std::size_t kRunExposureFrames = 1u << 18;  ///< the whole run's key values (flicker line, --capture)
constexpr glm::ivec2 kDefaultSize{1280, 720};
constexpr double kMaxWindowDt = 0.25;  ///< a stalled window frame must not jump the camera

/// "hdrlab-capture.json", or "standard output" for "-".
std::string describeOutput(const std::filesystem::path& path)
{
    return util::isStandardOutput(path) ? std::string("standard output") : path.string();
}

/// Says, once per written capture, that the recording ring dropped older frames.
void logDroppedFrames(const profiling::Profiler& profiler)
{
    if (profiler.droppedFrames() > 0)
        util::logWarning(
            "capture: the recording kept its last {} frames and dropped {} older ones (ring of {} frames; "
            "--capture-frames N or the Timings panel's \"keep last N frames\" sets it)",
            profiler.recordedFrames().size(), profiler.droppedFrames(), profiler.recordingCapacity());
}

/// The flicker figure with a fixed 6 decimals (EV/s), so that two runs compare as text.
std::string formatFlicker(double evPerSecond)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.6f", evPerSecond);
    return text;
}

void printSummary(const std::deque<profiling::FrameRecord>& frames, std::uint64_t droppedFrames)
{
    if (frames.empty()) {
        std::cout << "no frames were recorded (recording starts at frame " << kRecordFromFrame
                  << "; use more --frames)\n";
        return;
    }
    std::cout << "\nper-pass GPU time over " << frames.size() << " recorded frames (" << frames.front().frame << ".."
              << frames.back().frame << ")"
              << (droppedFrames > 0 ? ", " + std::to_string(droppedFrames) + " earlier frames dropped by the ring" : "")
              << ":\n"
              << profiling::formatSummaryTable(profiling::summarizePasses(frames));
    // Frame-to-frame CPU time of the recorded frames (paced at two frames in flight): the frame rate.
    std::vector<double> frameMs;
    for (const profiling::FrameRecord& frame : frames)
        if (frame.cpuFrameMs > 0.0)
            frameMs.push_back(frame.cpuFrameMs);
    if (!frameMs.empty()) {
        const util::Summary s = util::summarize(frameMs);
        std::cout << "frame time: median " << s.median << " ms (" << 1000.0 / s.median << " fps), mean " << s.mean
                  << " ms, min " << s.min << ", max " << s.max << "\n";
    }
}

}  // namespace

struct App::Impl
{
    AppOptions options;
    std::unique_ptr<platform::GlContext> context;
    post::GpuCaps caps;
    std::unique_ptr<gl::ShaderLibrary> shaders;
    std::unique_ptr<profiling::Profiler> profiler;
    std::unique_ptr<gl::FramePacer> pacer;    ///< at most two frames in flight, window or headless
    post::CudaInterop cudaInterop;            ///< outlives the renderer and pipeline that allocate through it
    std::unique_ptr<FrameSource> source;      ///< the scene renderer, or the image of `hdrlab view`
    StillImageSource* stillImage = nullptr;   ///< `source` when it is an image (dropped files replace it)
    SceneFrameSource* sceneSource = nullptr;  ///< `source` when it is a scene (the scene combo replaces it)
    SequenceSource* sequence = nullptr;       ///< `source` when it is a sequence of frames
    double fixedDt = kFixedDt;                ///< headless time step: 1/60 s, or a sequence's 1/fps
    std::vector<scene::ScenePreset> presets;  ///< the scene combo's entries (data root's scenes/)
    int currentPreset = -1;                   ///< index into presets; -1: a scene file not listed
    std::optional<int> requestedPreset;       ///< chosen in the combo; loaded before the next frame
    std::unique_ptr<post::PostPipeline> pipeline;
    std::unique_ptr<ui::ImGuiLayer> imgui;
    std::unique_ptr<ui::PipelinePanel> pipelinePanel;
    std::unique_ptr<WindowEvents> windowEvents;  ///< after imgui: chains to, and restores, its callbacks
    std::string sourceStatus;                    ///< the last dropped file's outcome (Frame panel)
    ui::HistogramView histogramView;
    ui::TimingsPanel timingsPanel;
    ui::ExposurePanel exposurePanel;

    std::unique_ptr<SplitView> split;                   ///< pipeline B and the composite (--split, Split view panel)
    std::unique_ptr<ui::PipelinePanel> pipelinePanelB;  ///< "Pipeline B"
    bool draggingDivider = false;                       ///< the left button holds the split view's divider
    bool leftButtonWasDown = false;                     ///< the left button on the previous frame (window)
    const gl::Texture* lastDisplay = nullptr;           ///< what the last frame showed (the split composite too)

    gl::Framebuffer displayFramebuffer;  ///< reads the display image for blits
    gl::Texture uiTarget;                ///< headless --ui: the panels and, in their viewport, the display image
    gl::Framebuffer uiFramebuffer;
    std::unique_ptr<ui::PanelColumns> columns;  ///< where the panels go and what they leave to the picture
    glm::ivec2 canvas{0};     ///< this frame's window framebuffer (headless --ui: uiTarget's size), pixels
    glm::ivec4 viewport{0};   ///< this frame's viewport in the canvas: x, y (GL's bottom-left origin), width, height
    glm::ivec2 frameSize{0};  ///< the size a source that follows the window renders at this frame
    bool uiDrawn = false;     ///< this frame drew the panels
    bool isWindow = false;
    bool showUi = true;
    bool vsync = true;
    int frameCount = -1;  ///< frames to render; -1 = until the window closes
    int recordFrom = kRecordFromFrame;
    int uiCaptureFrames = 0;        ///< > 0 while a "Capture N frames" from the UI runs
    int frame = 0;                  ///< frames rendered (headless: the camera path's frame index)
    bool recordForOutputs = false;  ///< run(): start recording at recordFrom (captures, summary)
    bool uiRecording = false;       ///< "Record" from the UI runs until "Stop and write"
    std::string captureStatus;
    /// "compare all" results, one per bin count, latest last (the Compare panel's chart draws them all)
    std::vector<CompareReport> compareSweep;
    std::unique_ptr<ResizeStorm> storm;  ///< --resize-storm
    std::size_t stormIteration = 0;      ///< resize-storm steps applied (window loop iterations)
    std::uint64_t lastResourceReport = ~std::uint64_t(0);
    std::vector<std::string> probeNames;  ///< this frame's pixel probes in record order: "mouse" (window), "1"...
    glm::ivec2 mouseTexel{-1, 0};         ///< the mouse probe, bottom-up texel (kept while over the panels)
    post::ExposureHistory exposurePlot{kExposurePlotSeconds};  ///< the Exposure panel's last N seconds
    post::ExposureHistory runExposure{std::numeric_limits<double>::infinity(), kRunExposureFrames};  ///< the run
    std::string keyValueOperator;  ///< the operator whose key values the two histories hold
    double clockSeconds = 0.0;     ///< the histories' time: sum of frame dt (headless: the fixed step)
    std::optional<std::chrono::steady_clock::time_point> lastExposureFrame;  ///< wall clock of the last one

    /// Numbered per-frame outputs: --hdr-sequence-out (the HDR frame) and a sequence's PNGs (tonemap).
    std::unique_ptr<FrameSequenceWriter> hdrSequenceOut;
    std::unique_ptr<FrameSequenceWriter> displaySequenceOut;

    /// The frame the pipeline reads: the source's HDR texture, its size and pre-exposure.
    post::ImageInput frameInput() const;
    /// Adds this frame to the exposure histories (before it renders).
    void noteExposureFrame(double dt);
    /// Attaches the key values whose readbacks arrived; a new operator starts the series over.
    void collectKeyValues();
    /// "flicker: X EV/s over N frames (operator ID, key value NAME)", or why there is none.
    std::string flickerLine() const;

    void reportResources(std::uint64_t frame);
    /// Sets the pipeline's probe points: the pixel under the mouse (window) and the --probe points.
    void updateProbes(bool mouseFree);
    /// Window: a left drag that starts on the divider moves it; returns true while it does.
    bool updateDividerDrag(bool mouseFree);
    /// The Split view panel (in the current region); a change applies to the split view.
    void drawSplitPanel();
    /// The split view's side labels over the picture.
    void drawSplitLabels();
    ui::SplitPanelInput splitPanelInput();
    void openDroppedFiles();
    void switchToRequestedPreset();
    /// Capture metadata: the GPU, the pipeline's settings and, for a scene, its lighting path.
    profiling::CaptureMetadata frameMetadata() const;
    /// `view SEQUENCE`: the sequence source, its time step and (headless) its frame count.
    void createSequenceSource();
    /// Queues this frame's per-frame output files (--hdr-sequence-out, a sequence's PNGs).
    void writeSequenceOutputs();

    /// Follows the monitor's content scale (or --ui-scale); between frames.
    void updateUiScale();
    /// Lays this frame's panels out (after ImGui's new frame) and sets `viewport` (the whole canvas
    /// when no panels are drawn) and `frameSize`: the viewport's size, or with the panels hidden in a
    /// window the aspect of the viewport they would leave, fitted into the window (the camera's
    /// framing, and so the exposure, do not change when the panels are toggled: ui/PanelLayout.h).
    void layOutFrame(bool drawUi);
    /// The canvas in ImGui units (a window's size in screen units; headless, the canvas).
    glm::vec2 displayUnits() const;
    /// Where the source's frame goes in the canvas: its placement in the viewport, moved there.
    BlitRects placementInCanvas() const;
    /// The mouse in canvas pixels from the bottom-left corner (window).
    glm::dvec2 cursorInCanvas() const;
    /// "viewport 328,0 952x546 of 1280x720 (pixels from the top-left); picture 952x546, 56.4 % of the
    /// window; combos visible without scrolling: method, scan, operator; no name cut short": tests
    /// crop screenshots with it; the picture is the frame's rectangle as placed in the viewport; the
    /// Pipeline panel's three combos are found by the names they show (ui::comboPlacements); then the
    /// combos' names found too narrow since the last call (ui::checkNamesFit).
    std::string describeLayout() const;
    /// "combos visible without scrolling: method, scan, operator", or which are not, or drawn nowhere.
    std::string describeCombos() const;

    void drawPanels(double pathSeconds);
    void drawFramePanel(double pathSeconds);
    void drawTimingsPanel();
    void drawExposurePanels();
    void renderFrame(double dt, double pathSeconds, bool drawUi);
    /// Clears the canvas of `target` (0: the window) and blits the display image into the viewport.
    void presentInViewport(const gl::Texture& display, GLuint target);
    void updateUiCapture();
    /// The frame loop: renders until `count` frames are done (count < 0: until the window closes).
    /// Returns the frames rendered by this call.
    int runFrames(int count);
    void waitForTimings();
    void writeUiCapture();
    int finish(int renderedFrames);
};

App::App(const AppOptions& options) : mImpl(std::make_unique<Impl>())
{
    Impl& a = *mImpl;
    a.options = options;
    a.vsync = options.vsync;
    a.showUi = !options.hideUi;
    glm::ivec2 size = options.size.value_or(kDefaultSize);

    a.context = createAppContext(options, size);
    a.isWindow = a.context->isWindow();
    const platform::GlInfo& gl = a.context->info();
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
    a.profiler = std::make_unique<profiling::Profiler>(a.caps.glTimersUseful);
    if (options.captureFrames)
        a.profiler->setRecordingCapacity(std::size_t(*options.captureFrames));
    a.pacer = std::make_unique<gl::FramePacer>();
    a.cudaInterop = post::chooseCudaInterop(
        a.caps, options.cudaInteropShared ? post::CudaInteropMode::Shared : post::CudaInteropMode::Map);
    a.caps.cudaInterop = a.cudaInterop.status;
    if (options.viewImage && isSequenceInput(*options.viewImage)) {
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
        auto sceneSource = std::make_unique<SceneFrameSource>(
            *a.shaders, options.sceneFile ? scene::loadSceneFile(*options.sceneFile) : scene::defaultScene(),
            a.cudaInterop.allocator.get(), a.isWindow ? glm::max(a.context->framebufferSize(), glm::ivec2(1)) : size,
            options.frameFormat ? *scene::parseFrameFormat(*options.frameFormat) : scene::kDefaultFrameFormat);
        if (options.lighting)
            sceneSource->setLightingPath(*scene::parseLightingPath(*options.lighting));
        a.sceneSource = sceneSource.get();
        a.source = std::move(sceneSource);
        a.presets = scene::listScenePresets(util::findDataRoot(options.dataDir) / "scenes");
        for (std::size_t i = 0; i < a.presets.size(); ++i) {
            std::error_code ec;
            bool current = options.sceneFile ? std::filesystem::equivalent(a.presets[i].path, *options.sceneFile, ec)
                                             : a.presets[i].name == "default";
            if (current)
                a.currentPreset = int(i);
        }
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
        a.pipelinePanel = std::make_unique<ui::PipelinePanel>(a.caps);
        a.pipelinePanelB = std::make_unique<ui::PipelinePanel>(a.caps);
        a.pipelinePanelB->settingsFile().setPath("hdrlab-settings-b.json");  // Save on B must not overwrite A's file
        a.columns = std::make_unique<ui::PanelColumns>(ui::collectPanelNames(*a.pipelinePanel, a.presets));
        a.pipelinePanel->settingsFile().setLayout(&a.columns->state());  // Save and Load keep the layout too
        if (options.settingsFile)
            for (const std::string& warning : ui::applyLayoutKeys(
                     post::readSettingsSection(*options.settingsFile, post::kLayoutKeyPrefix), a.columns->state()))
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

App::~App() = default;

void App::Impl::updateUiScale()
{
    float contentScale = 1.0f;
    float framebufferScale = 1.0f;
    if (isWindow) {
        int width = 0, height = 0;
        glfwGetWindowSize(context->window(), &width, &height);
        contentScale = windowEvents->contentScale();
        if (width > 0)
            framebufferScale = float(canvas.x) / float(width);
    }
    imgui->setScale(options.uiScale.value_or(contentScale), framebufferScale);
}

void App::Impl::layOutFrame(bool drawUi)
{
    uiDrawn = drawUi && columns;
    viewport = {0, 0, canvas.x, canvas.y};
    frameSize = canvas;
    if (!columns)
        return;
    const glm::vec2 display = displayUnits();
    if (drawUi) {
        const ui::PanelRects& rects = columns->arrange(imgui->scale(), true);
        const ImVec2 imguiDisplay = ImGui::GetIO().DisplaySize;  // the units the regions are in
        viewport = ui::viewportPixels(rects.viewport, {imguiDisplay.x, imguiDisplay.y}, canvas);
        frameSize = {viewport.z, viewport.w};
    } else if (isWindow) {
        // Hidden panels: the frame keeps the aspect of the viewport they would leave, letterboxed.
        if (!columns->measuredAt(imgui->scale())) {
            // Hidden from the start (--hide-ui) or since the scale changed: one frame, not drawn,
            // measures the panels with the font, so the aspect is the one they will leave.
            imgui->newFrame(canvas, kFixedDt);
            columns->arrange(imgui->scale(), false);
            imgui->endFrameWithoutDrawing();
        }
        const glm::ivec4 shown =
            ui::viewportPixels(columns->referenceViewport(display, imgui->scale()), display, canvas);
        frameSize = ui::fitAspect(canvas, {shown.z, shown.w});
    }
}

glm::vec2 App::Impl::displayUnits() const
{
    if (!isWindow)
        return glm::vec2(canvas);
    int width = 0, height = 0;
    glfwGetWindowSize(context->window(), &width, &height);
    return glm::vec2(std::max(width, 1), std::max(height, 1));
}

BlitRects App::Impl::placementInCanvas() const
{
    BlitRects rects = source->placement({viewport.z, viewport.w});
    rects.destination += glm::ivec4(viewport.x, viewport.y, viewport.x, viewport.y);
    return rects;
}

glm::dvec2 App::Impl::cursorInCanvas() const
{
    double cursorX = 0.0, cursorY = 0.0;
    int width = 0, height = 0;
    glfwGetCursorPos(context->window(), &cursorX, &cursorY);
    glfwGetWindowSize(context->window(), &width, &height);
    // Screen units from the top-left -> framebuffer pixels from the bottom-left.
    const glm::dvec2 scale = glm::dvec2(canvas) / glm::max(glm::dvec2(width, height), glm::dvec2(1.0));
    return {cursorX * scale.x, canvas.y - cursorY * scale.y};
}

std::string App::Impl::describeLayout() const
{
    std::string text = util::format("viewport {},{} {}x{} of {}x{} (pixels from the top-left)", viewport.x,
                                    canvas.y - viewport.y - viewport.w, viewport.z, viewport.w, canvas.x, canvas.y);
    const glm::ivec4 picture = placementInCanvas().destination;
    const glm::ivec2 pictureSize = glm::max(glm::ivec2(picture.z - picture.x, picture.w - picture.y), glm::ivec2(0));
    const double share = 100.0 * double(pictureSize.x) * pictureSize.y / std::max(1.0, double(canvas.x) * canvas.y);
    char percent[32];
    std::snprintf(percent, sizeof percent, "%.1f", share);
    text += util::format("; picture {}x{}, {} % of the window", pictureSize.x, pictureSize.y, percent);
    if (columns && uiDrawn)
        text += "; " + describeCombos();
    text += "; " + ui::describeTextCutShort();
    const std::vector<std::string> cut = ui::takeNamesCutShort();
    if (cut.empty())
        return text + "; no name cut short";
    text += "; names cut short:";
    for (const std::string& name : cut)
        text += " '" + name + "'";
    return text;
}

std::string App::Impl::describeCombos() const
{
    // The Pipeline panel's combos, found by the name each shows now (the scan's is "built in", no
    // combo of names, when the histogram method makes the cumulative histogram itself).
    const post::ScanMethod* scan = pipeline->scanMethod();
    return ui::describeCombosInSight({{"method", std::string(pipeline->histogramMethod().label())},
                                      {"scan", scan ? std::string(scan->label()) : std::string()},
                                      {"operator", std::string(pipeline->toneOperator().label())}});
}

void App::Impl::updateProbes(bool mouseFree)
{
    std::vector<glm::ivec2> texels;
    probeNames.clear();
    const glm::ivec2 frameSize = source->size();
    if (isWindow) {
        const BlitRects rects = placementInCanvas();
        const glm::ivec4 from = rects.source, to = rects.destination;
        if (mouseFree && to.z > to.x && to.w > to.y) {
            const glm::dvec2 cursor = cursorInCanvas();
            mouseTexel = glm::ivec2(-1, 0);  // outside: reported as such
            if (cursor.x >= to.x && cursor.x < to.z && cursor.y >= to.y && cursor.y < to.w)
                mouseTexel = glm::ivec2(int(from.x + (cursor.x - to.x) * (from.z - from.x) / (to.z - to.x)),
                                        int(from.y + (cursor.y - to.y) * (from.w - from.y) / (to.w - to.y)));
        }
        texels.push_back({mouseTexel.x, frameSize.y - 1 - mouseTexel.y});  // the frame is bottom-up
        probeNames.push_back("mouse");
    }
    for (std::size_t i = 0; i < options.probes.size(); ++i) {
        texels.push_back(options.probes[i]);
        probeNames.push_back(std::to_string(i + 1));
    }
    pipeline->setProbePoints(std::move(texels));
}

void App::Impl::drawFramePanel(double pathSeconds)
{
    ui::FrameInfo info{context->info(), source->name(), source->size(), canvas, profiler->frameTimeMs(), isWindow, {}};
    info.cameraHint = source->hint(isWindow, pathSeconds);
    info.sourceKind = source->kind();
    info.controlsHelp = source->controlsHelp();
    info.sourceStatus = sourceStatus;
    info.canFit = stillImage != nullptr || sequence != nullptr;
    if (sequence && sourceStatus.empty())
        info.sourceStatus = sequence->lastProblem();
    info.description = source->description();
    if (sceneSource) {
        info.presets = &presets;
        info.currentPreset = currentPreset;
        info.lighting = sceneSource->lightingPath();
        const FrameStoreStatus& store = sceneSource->storeStatus();
        info.frameFormat = store.format;
        info.frameStore = describeFrameStore(store);
        info.clipping = store.last && store.last->clippedPixels > 0;
    }
    ui::FramePanelActions frameActions = ui::drawFramePanel(info, vsync);
    if (frameActions.presetRequested >= 0)
        requestedPreset = frameActions.presetRequested;
    if (frameActions.lightingRequested && sceneSource) {
        sceneSource->setLightingPath(*frameActions.lightingRequested);
        profiler->resetStats();
    }
    if (frameActions.frameFormatRequested && sceneSource) {
        sceneSource->setFrameFormat(*frameActions.frameFormatRequested);
        profiler->resetStats();
    }
    if (frameActions.vsyncChanged)
        context->setVsync(vsync);
    if (frameActions.fitRequested && stillImage)
        stillImage->fit();
    if (frameActions.fitRequested && sequence)
        sequence->fit();
}

void App::Impl::drawPanels(double pathSeconds)
{
    std::optional<post::HistogramSnapshot> snapshot = pipeline->latestSnapshot();
    const std::optional<post::ProbeSnapshot> probe = pipeline->latestProbe();
    ui::PanelColumns& layout = *columns;
    using Section = ui::SettingsSection;

    // The settings column: the pipeline first (its three combos in sight), then the frame and the views.
    if (layout.beginRegion(ui::PanelRegion::Settings)) {
        if (layout.beginSection(Section::Pipeline, "Pipeline")) {
            ui::PipelinePanelActions actions = pipelinePanel->draw(*pipeline, *profiler);
            if (actions.verifyRequested)
                pipelinePanel->setVerifyReport(verify::verifyPipeline(*pipeline));
            if (actions.compareRequested) {
                // A fused method bins this frame rendered again by the scene's deferred lighting pass.
                std::function<void(post::FusedHistogramTarget&)> renderFused;
                if (sceneSource && sceneSource->canFuseHistogram())
                    renderFused = [this](post::FusedHistogramTarget& target) {
                        profiling::Profiler untimed(caps.glTimersUseful);
                        sceneSource->choosePreExposure(sceneSource->preExposure());  // the frame compared
                        sceneSource->setFusedHistogram(&target);
                        sceneSource->render(untimed);
                    };
                addToSweep(compareSweep, compareMethods(*shaders, caps, frameInput(), pipeline->settings(), 5,
                                                        std::move(renderFused)));
            }
            ui::endPanel();
        }
        if (layout.beginSection(Section::Frame, "Frame")) {
            drawFramePanel(pathSeconds);
            ui::endPanel();
        }
        if (layout.beginSection(Section::View, "View")) {
            if (auto mode = ui::drawViewPanel(
                    {pipeline->viewMode(), &snapshot, &probe, probeNames, pipeline->luminanceUnits().describe()}))
                pipeline->setViewMode(*mode, !isWindow);
            ui::endPanel();
        }
        if (layout.beginSection(Section::Split, "Split view")) {
            drawSplitPanel();
            ui::endPanel();
        }
        if (split->active() && layout.beginSection(Section::PipelineB, "Pipeline B")) {
            post::PostPipeline& b = *split->pipelineB();
            if (pipelinePanelB->draw(b, *profiler).verifyRequested)
                pipelinePanelB->setVerifyReport(verify::verifyPipeline(b));
            ui::endPanel();
        }
        layout.endRegion();
    }
    // The strip under the picture: its histogram, the timings, the exposure over time.
    if (layout.beginRegion(ui::PanelRegion::Histogram)) {
        if (snapshot && snapshot->markers.empty())
            snapshot->markers = pipeline->toneOperator().markers();
        if (snapshot && probe)
            ui::addProbeMarkers(*snapshot, *probe, probeNames);
        if (ui::beginFixedPanel("Histogram")) {
            histogramView.draw(snapshot, profiler->frameIndex());
            ui::endPanel();
        }
        layout.endRegion();
    }
    if (layout.beginRegion(ui::PanelRegion::Timings)) {
        drawTimingsPanel();
        layout.endRegion();
    }
    if (layout.beginRegion(ui::PanelRegion::Exposure)) {
        drawExposurePanels();
        layout.endRegion();
    }
    layout.drawSplitters();
    drawSplitLabels();
}

void App::Impl::drawTimingsPanel()
{
    // While --capture records the whole run, the buttons would cut that recording short.
    ui::CaptureMode mode = ui::CaptureMode::Idle;
    if (uiCaptureFrames > 0)
        mode = ui::CaptureMode::CapturingFrames;
    else if (uiRecording)
        mode = ui::CaptureMode::RecordingUntilStopped;
    else if (profiler->recording())
        mode = ui::CaptureMode::RecordingForOutputs;
    if (mode == ui::CaptureMode::RecordingForOutputs && captureStatus.empty())
        captureStatus = "recording the whole run (summary, --capture)";
    if (ui::beginFixedPanel("Timings")) {
        ui::TimingsPanelActions timing = timingsPanel.draw(*profiler, captureStatus, mode);
        if (timing.ringFrames > 0)
            profiler->setRecordingCapacity(timing.ringFrames);
        if (timing.captureRequested) {
            uiCaptureFrames = timing.captureFrames;
            profiler->startRecording();
            captureStatus = util::format("capturing {} frames...", uiCaptureFrames);
        }
        if (timing.recordRequested) {
            uiRecording = true;
            profiler->startRecording();
            captureStatus = "recording until stopped...";
        }
        if (timing.stopRequested)
            writeUiCapture();
        ui::endPanel();
    }
}

void App::Impl::drawExposurePanels()
{
    if (ui::beginFixedPanel("Exposure")) {
        exposurePanel.draw(exposurePlot, pipeline->toneOperator().id(), pipeline->toneOperator().keyValueName());
        ui::endPanel();
    }
    if (!compareSweep.empty()) {
        bool open = true;
        if (ui::beginPanel("Compare all", &open)) {
            ui::drawCompareResults(compareSweep);
            ui::endPanel();
        }
        if (!open)
            compareSweep.clear();
    }
}

bool App::Impl::updateDividerDrag(bool mouseFree)
{
    if (split->mode() != post::SplitMode::SideBySide) {
        draggingDivider = false;
        return false;
    }
    GLFWwindow* window = context->window();
    const bool wasDown =
        std::exchange(leftButtonWasDown, glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS);
    if (!leftButtonWasDown) {
        draggingDivider = false;
        return false;
    }
    const double x = cursorInCanvas().x;  // framebuffer pixels, as the placement
    const BlitRects rects = placementInCanvas();
    constexpr double kGrabPixels = 8.0;
    if (!draggingDivider) {
        // Only a press that starts on the divider (and not over a panel) grabs it.
        if (!mouseFree || wasDown ||
            std::abs(x - dividerWindowX(split->position(), rects, source->size().x)) > kGrabPixels)
            return false;
        draggingDivider = true;
    }
    if (const std::optional<float> position = dividerPositionAt(x, rects, source->size().x))
        split->setPosition(*position);
    return true;
}

ui::SplitPanelInput App::Impl::splitPanelInput()
{
    return {split->mode(),
            split->position(),
            split->gain(),
            &split->histogramDifference(),
            split->sideLabel(*pipeline, false),
            split->sideLabel(*pipeline, true)};
}

void App::Impl::drawSplitPanel()
{
    const ui::SplitPanelActions actions = ui::drawSplitPanel(splitPanelInput());
    if (actions.mode) {
        split->setMode(*actions.mode, *pipeline);
        profiler->resetStats();
    }
    if (actions.position)
        split->setPosition(*actions.position);
    if (actions.gain)
        split->setGain(*actions.gain);
    if (actions.copyAToB) {
        split->copySettingsFrom(*pipeline);
        profiler->resetStats();
    }
}

void App::Impl::drawSplitLabels()
{
    if (!split->active())
        return;
    // In ImGui's units (window units from the top-left).
    const BlitRects rects = placementInCanvas();
    const ImVec2 scale = ImGui::GetIO().DisplayFramebufferScale;
    const float sx = scale.x > 0.0f ? scale.x : 1.0f, sy = scale.y > 0.0f ? scale.y : 1.0f;
    const float divider = float(dividerWindowX(split->position(), rects, source->size().x)) / sx;
    ui::drawSplitLabels(splitPanelInput(), divider, float(rects.destination.x) / sx, float(rects.destination.z) / sx,
                        float(canvas.y - rects.destination.w) / sy);
}

void App::Impl::presentInViewport(const gl::Texture& display, GLuint target)
{
    glBindFramebuffer(GL_FRAMEBUFFER, target);
    glDisable(GL_SCISSOR_TEST);
    glViewport(0, 0, canvas.x, canvas.y);
    glClearColor(0.08f, 0.08f, 0.09f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    displayFramebuffer.attachTexture(GL_COLOR_ATTACHMENT0, display);
    const BlitRects rects = placementInCanvas();
    const glm::ivec4 from = rects.source, to = rects.destination;
    if (from.z <= from.x || from.w <= from.y)
        return;
    // Pixels shown 1:1 or larger stay sharp; a reduced image is filtered.
    bool magnified = to.z - to.x >= from.z - from.x && to.w - to.y >= from.w - from.y;
    glBlitNamedFramebuffer(displayFramebuffer.id(), target, from.x, from.y, from.z, from.w, to.x, to.y, to.z, to.w,
                           GL_COLOR_BUFFER_BIT, magnified ? GL_NEAREST : GL_LINEAR);
}

void App::Impl::renderFrame(double dt, double pathSeconds, bool drawUi)
{
    // The fused histogram's seam: the deferred lighting pass bins this frame for the pipeline's method.
    if (sceneSource) {
        pipeline->setFusedHistogramProducer(sceneSource->canFuseHistogram());
        const int preExposure = sceneSource->choosePreExposure();  // the fused params carry its 2^-k
        sceneSource->setFusedHistogram(
            pipeline->prepareFusedHistogram(source->size(), source->verticalFovDegrees(), preExposure));
    }
    source->render(*profiler);
    pipeline->setSceneDepth(source->depth());
    pipeline->setInputRadiance(source->radiance());  // what one unit is (idempotent: unchanged, no work)
    pipeline->setPictureInfo(source->pictureInfo());
    const post::ImageInput hdr = frameInput();
    const gl::Texture* shown = &pipeline->run(hdr, dt, source->verticalFovDegrees());
    if (split->active())
        shown = &split->run(*pipeline, *shown, hdr, dt, source->verticalFovDegrees(), source->depth());
    const gl::Texture& display = *shown;
    lastDisplay = shown;
    if (isWindow)
        presentInViewport(display, 0);
    if (!drawUi)
        return;
    drawPanels(pathSeconds);
    auto scope = profiler->scope("ui");
    if (isWindow)
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
    else
        presentInViewport(display, uiFramebuffer.id());  // the screenshot: panels around the picture
    imgui->render();
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

void App::Impl::updateUiCapture()
{
    if (uiCaptureFrames > 0 && profiler->framesRecorded() >= std::uint64_t(uiCaptureFrames))
        writeUiCapture();
}

void App::Impl::writeUiCapture()
{
    profiler->stopRecording();
    std::string stem = "hdrlab-capture-" + profiling::timestampForFileName();
    try {
        auto metadata = frameMetadata();
        profiling::writeTraceEventJson(stem + ".json", profiler->recordedFrames(), metadata, profiler->droppedFrames());
        profiling::writeCsv(stem + ".csv", profiler->recordedFrames());
        std::error_code ec;
        captureStatus = util::format("wrote {} frames to {}/{}.json (+ .csv)", profiler->recordedFrames().size(),
                                     std::filesystem::current_path(ec).string(), stem);
        if (profiler->droppedFrames() > 0)
            captureStatus += util::format("; {} older frames were dropped by the ring", profiler->droppedFrames());
        logDroppedFrames(*profiler);
    } catch (const std::exception& error) {
        captureStatus = std::string("capture failed: ") + error.what();
    }
    util::logInfo("{}", captureStatus);
    profiler->clearRecording();
    uiCaptureFrames = 0;
    uiRecording = false;
}

void App::Impl::openDroppedFiles()
{
    for (const std::filesystem::path& path : windowEvents->takeDroppedFiles()) {
        if (!stillImage) {
            sourceStatus = std::string("dropped files open in `hdrlab view IMAGE`; this window shows a ") +
                           (sequence ? "sequence" : "scene");
            util::logWarning("{}", sourceStatus);
            continue;
        }
        StillImageSource::ReplaceResult result = stillImage->replaceWith(path);
        sourceStatus = result.message;
        if (result.replaced) {
            pipeline->setInputRadiance(stillImage->radiance());
            util::logInfo("{}; {}", result.message, pipeline->luminanceUnits().describe());
            profiler->resetStats();
        } else {
            util::logError("{}", result.message);
        }
    }
}

profiling::CaptureMetadata App::Impl::frameMetadata() const
{
    auto metadata =
        captureMetadata(caps, profiler->glTimersUseful(), source->name(), source->size(), pipeline->settings());
    if (sceneSource) {
        metadata.emplace_back("scene_lighting", scene::lightingPathName(sceneSource->lightingPath()));
        appendFrameStoreMetadata(metadata, sceneSource->storeStatus());
    }
    if (sequence) {
        metadata.emplace_back("sequence_fps", util::format("{}", sequence->options().fps));
        metadata.emplace_back("sequence_frames", std::to_string(sequence->sequence().fileCount()));
        metadata.emplace_back("sequence_missing", std::to_string(sequence->sequence().missingCount()));
        metadata.emplace_back("sequence_skipped", std::to_string(sequence->skippedFrames()));
        metadata.emplace_back("sequence_on_bad_frame", badFramePolicyName(sequence->options().onBadFrame));
    }
    appendSettingsMetadata(metadata, *pipeline);
    metadata.emplace_back("units", pipeline->luminanceUnits().describe());
    metadata.emplace_back("view", std::string(post::viewModeName(pipeline->viewMode())));
    metadata.emplace_back("split", std::string(post::splitModeName(split->mode())));
    if (split->active() && split->pipelineB()) {
        metadata.emplace_back("split_position", std::to_string(split->position()));
        metadata.emplace_back("split_gain", std::to_string(split->gain()));
        profiling::CaptureMetadata b;
        appendSettingsMetadata(b, *split->pipelineB());
        for (auto& [key, value] : b)
            metadata.emplace_back("b." + key, std::move(value));
    }
    if (const auto probe = pipeline->latestProbe())
        for (std::size_t i = 0; i < probe->samples.size() && i < probeNames.size(); ++i)
            if (probeNames[i] != "mouse")
                metadata.emplace_back(
                    "probe_" + probeNames[i],
                    post::describeProbeSample(probe->samples[i], pipeline->luminanceUnits().probeNote()));
    const post::ToneOperator& op = pipeline->toneOperator();
    metadata.emplace_back("key_value", std::string(op.keyValueName().empty() ? "none" : op.keyValueName()));
    if (const std::optional<double> flicker = runExposure.flickerEvPerSecond()) {
        metadata.emplace_back("flicker_ev_per_s", formatFlicker(*flicker));
        metadata.emplace_back("flicker_pairs", std::to_string(runExposure.flickerPairs()));
    }
    return metadata;
}

void App::Impl::switchToRequestedPreset()
{
    if (!requestedPreset || !sceneSource)
        return;
    const int index = *requestedPreset;
    requestedPreset.reset();
    SceneFrameSource::ReplaceResult result = sceneSource->replaceWith(presets.at(std::size_t(index)).path);
    sourceStatus = result.message;
    if (result.replaced) {
        currentPreset = index;
        sourceStatus.clear();  // the combo and the description say what is shown
        util::logInfo("{}", result.message);
        profiler->resetStats();
    } else {
        util::logError("{}", result.message);
    }
}

void App::Impl::reportResources(std::uint64_t frame)
{
    if (frame == lastResourceReport)
        return;
    lastResourceReport = frame;
    std::cout << formatResourceLine(sampleResources(frame)) << std::endl;
}

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
    const int exitCode = a.finish(rendered);
    if (const std::string reason = a.source->stopReason(); !reason.empty())
        throw std::runtime_error(reason);  // after the outputs of the frames before it are written
    return exitCode;
}

int App::Impl::runFrames(int count)
{
    Impl& a = *this;
    int rendered = 0;
    auto last = std::chrono::steady_clock::now();
    while (count < 0 || rendered < count) {
        if (!a.isWindow && !a.source->hasNextFrame())
            break;  // a sequence played to its end, or stopped at a bad frame
        if (a.options.resourceReport && a.frame % *a.options.resourceReport == 0)
            a.reportResources(std::uint64_t(a.frame));
        // The canvas: the window's framebuffer, headless --ui's screenshot, else the frame itself.
        a.canvas = a.uiTarget.valid() ? a.uiTarget.size() : a.source->size();
        double dt = a.fixedDt;
        double scrollY = 0.0;
        if (a.isWindow) {
            if (a.storm && a.storm->apply(a.stormIteration, a.context->window(), *a.pipeline))
                a.profiler->resetStats();
            ++a.stormIteration;
            a.context->pollEvents();
            if (a.context->shouldClose())
                break;
            a.canvas = a.context->framebufferSize();
            if (!windowCanRender(a.canvas, a.context->isMinimised())) {  // nothing to draw into
                if (a.storm)
                    a.storm->noteSkippedFrame();
                std::this_thread::sleep_for(std::chrono::milliseconds(a.storm ? 1 : 50));
                last = std::chrono::steady_clock::now();
                continue;
            }
            a.openDroppedFiles();
            scrollY = a.windowEvents->takeScrollY();
            if (a.storm)
                a.storm->noteRenderedFrame(a.canvas);
            auto now = std::chrono::steady_clock::now();
            if (!a.options.fixedStep)
                dt = std::clamp(std::chrono::duration<double>(now - last).count(), 0.0, kMaxWindowDt);
            last = now;
            // F1, or Tab where no text field takes it, hides or shows every panel.
            const WindowEvents::PanelKeyPresses keys = a.windowEvents->takePanelKeyPresses();
            const bool tabFree = !(a.showUi && a.imgui && a.imgui->wantsKeyboard());
            if ((keys.f1 + (tabFree ? keys.tab : 0)) % 2 == 1)
                a.showUi = !a.showUi;
        }

        a.switchToRequestedPreset();  // between frames: the old scene's last frame is done
        a.pacer->beginFrame();
        a.profiler->beginFrame();
        if (a.recordForOutputs && a.frame == a.recordFrom && a.uiCaptureFrames == 0 && !a.uiRecording)
            a.profiler->startRecording();
        double pathSeconds = a.frame * a.fixedDt;
        bool drawUi = a.imgui && (a.isWindow ? a.showUi : a.options.ui);
        if (a.imgui)
            a.updateUiScale();
        if (drawUi)
            a.imgui->newFrame(a.canvas, dt);
        a.layOutFrame(drawUi);  // the panels' regions decide where the frame goes, and its size
        const glm::ivec2 viewportSize{a.viewport.z, a.viewport.w};
        if ((a.isWindow || a.uiTarget.valid()) && a.source->followsWindowSize() && a.frameSize != a.source->size())
            a.source->resize(a.frameSize);
        FrameSourceInput input{nullptr, viewportSize, {0.0, 0.0}, dt, pathSeconds, true, true, scrollY};
        bool mouseFree = true;
        if (a.isWindow) {
            mouseFree = !(drawUi && a.imgui->wantsMouse());
            if (a.updateDividerDrag(mouseFree))
                mouseFree = false;       // the drag moves the divider, not the camera or the image
            if (!a.options.fixedStep) {  // on the fixed step the camera path drives the scene
                input.window = a.context->window();
                input.cursor = a.cursorInCanvas() - glm::dvec2(a.viewport.x, a.viewport.y);
                input.mouseFree = mouseFree;
                input.keyboardFree = !(drawUi && a.imgui->wantsKeyboard());
            }
        }
        a.source->update(input);
        a.updateProbes(mouseFree);
        a.noteExposureFrame(dt);
        a.renderFrame(dt, pathSeconds, drawUi);
        a.writeSequenceOutputs();
        a.collectKeyValues();
        ++a.frame;
        ++rendered;
        if (a.isWindow) {
            if (a.options.windowScreenshot && a.frame == a.frameCount) {
                writeBackBufferPng(*a.options.windowScreenshot, a.canvas);
                std::cout << "wrote " << a.options.windowScreenshot->string() << "; " << a.describeLayout() << "\n";
            }
            a.context->swapBuffers();
        }
        a.profiler->endFrame();
        a.pacer->endFrame();
        a.updateUiCapture();
        if (a.storm && gl::takeErrorCount() > 0)
            throw std::runtime_error("resize storm, " +
                                     a.storm->describe(a.stormIteration - 1, a.pipeline->settings()) +
                                     ": GL error: " + gl::lastErrorMessage());
    }
    return rendered;
}

post::ImageInput App::Impl::frameInput() const
{
    return {source->hdr(), source->size(), source->preExposure()};
}

void App::Impl::writeSequenceOutputs()
{
    const long long number = source->frameNumber().value_or(frame);
    if (hdrSequenceOut) {
        hdrSequenceOut->enqueue(source->hdr(), number,
                                source->preExposed() ? std::optional<int>(source->preExposure()) : std::nullopt);
        hdrSequenceOut->poll();
    }
    if (displaySequenceOut) {
        displaySequenceOut->enqueue(lastDisplay ? *lastDisplay : pipeline->outputTexture(), number);
        displaySequenceOut->poll();
    }
}

void App::Impl::noteExposureFrame(double dt)
{
    collectKeyValues();  // a new operator starts the series over before its first frame is added
    clockSeconds += dt;
    // The frame-time plot shows what a frame took on the wall clock: dt is the simulated step, a fixed
    // 1/60 s headless and on --fixed-step however long the frame took.
    const auto now = std::chrono::steady_clock::now();
    const double frameMs =
        lastExposureFrame ? std::chrono::duration<double, std::milli>(now - *lastExposureFrame).count() : dt * 1000.0;
    lastExposureFrame = now;
    const std::uint64_t index = profiler->frameIndex();
    exposurePlot.addFrame(index, clockSeconds, frameMs);
    runExposure.addFrame(index, clockSeconds, frameMs);
}

void App::Impl::collectKeyValues()
{
    post::ToneOperator& op = pipeline->toneOperator();
    if (op.id() != keyValueOperator) {
        keyValueOperator = std::string(op.id());
        exposurePlot.clear();
        runExposure.clear();
    }
    for (const post::KeyValueSample& sample : op.takeKeyValues()) {
        exposurePlot.setKeyValue(sample.frameIndex, sample.ev);
        runExposure.setKeyValue(sample.frameIndex, sample.ev);
    }
}

std::string App::Impl::flickerLine() const
{
    const post::ToneOperator& op = pipeline->toneOperator();
    const std::optional<double> flicker = runExposure.flickerEvPerSecond();
    if (op.keyValueName().empty() || !flicker)
        return util::format("flicker: none (operator {} has {})", op.id(),
                            op.keyValueName().empty() ? "no key value" : "no key value on two consecutive frames");
    std::size_t withKey = 0;
    for (const post::ExposureHistory::Frame& f : runExposure.frames())
        withKey += f.keyEv ? 1 : 0;  // as App::flicker
    return util::format("flicker: {} EV/s over {} frames (operator {}, key value {})", formatFlicker(*flicker), withKey,
                        op.id(), op.keyValueName());
}

void App::Impl::waitForTimings()
{
    // Wait for the GPU once so the last frames' timings arrive (never per frame), then harvest them.
    glFinish();
    profiler->beginFrame();
    profiler->endFrame();
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
    Flicker out{a.runExposure.flickerEvPerSecond(), 0};
    for (const post::ExposureHistory::Frame& f : a.runExposure.frames())
        out.framesWithKeyValue += f.keyEv ? 1 : 0;
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
const platform::GlInfo& App::glInfo() const
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

int App::Impl::finish(int renderedFrames)
{
    // End of the run: wait for the GPU once so the last frames' timings arrive (never per frame).
    glFinish();
    pipeline->pollProbe();  // the last frame's probe records, now complete
    collectKeyValues();     // and the last frames' key values
    profiler->beginFrame();
    if (uiCaptureFrames > 0 || uiRecording)
        writeUiCapture();  // the window closed while a capture from the panel ran: keep what it has
    profiler->stopRecording();
    profiler->endFrame();

    int exitCode = 0;
    if (options.verify) {
        verify::VerifyReport report = verify::verifyPipeline(*pipeline);
        std::cout << "verify (" << pipeline->settings().histogramMethod << ", "
                  << (pipeline->scanMethod() ? pipeline->settings().scanMethod : std::string("built-in CDF")) << ", "
                  << pipeline->settings().toneOperator << "): " << (report.ok ? "ok" : "MISMATCH") << "\n"
                  << report.text << (report.text.empty() || report.text.back() == '\n' ? "" : "\n");
        if (!report.ok)
            exitCode = 1;
    }
    for (FrameSequenceWriter* writer : {hdrSequenceOut.get(), displaySequenceOut.get()})
        if (writer)
            writer->finish();
    if (renderedFrames > 0) {
        if (options.screenshot)
            writeDisplayPng(*options.screenshot,
                            uiTarget.valid() ? uiTarget : (lastDisplay ? *lastDisplay : pipeline->outputTexture()));
        if (options.screenshotExr)
            writeHdrExr(*options.screenshotExr, source->hdr(),
                        source->preExposed() ? std::optional<int>(source->preExposure()) : std::nullopt);
    }
    const auto& frames = profiler->recordedFrames();
    auto metadata = frameMetadata();
    if (options.capture) {
        profiling::FrameKeyValues keyValues;
        for (const post::ExposureHistory::Frame& f : runExposure.frames())
            if (f.keyEv)
                keyValues.emplace_back(f.frameIndex, *f.keyEv);
        profiling::writeTraceEventJson(*options.capture, frames, metadata, profiler->droppedFrames(), keyValues);
    }
    if (options.captureCsv)
        profiling::writeCsv(*options.captureCsv, frames);
    if (options.capture || options.captureCsv)
        logDroppedFrames(*profiler);
    if ((!isWindow && !options.resourceReport) || options.capture || options.captureCsv)
        printSummary(frames, profiler->droppedFrames());
    if (!isWindow && !options.resourceReport) {
        std::cout << flickerLine() << "\n";
        if (sceneSource)  // what the frame's storage clipped: never silent
            std::cout << "frame: " << describeFrameStore(sceneSource->storeStatus()) << "\n";
    }
    if (split->active() && !isWindow && !options.resourceReport) {
        const auto& difference = split->histogramDifference();
        std::cout << "split " << post::splitModeName(split->mode()) << ": " << split->sideLabel(*pipeline, false)
                  << " | " << split->sideLabel(*pipeline, true) << "; histograms "
                  << (difference ? post::describeHistogramDifference(*difference) : std::string("pending")) << "\n";
    }
    if (!options.probes.empty()) {
        const auto probe = pipeline->latestProbe();
        if (!probe)
            std::cout << "probe: pending (no frame was read back)\n";
        for (std::size_t i = 0; probe && i < probe->samples.size() && i < probeNames.size(); ++i)
            if (probeNames[i] != "mouse")
                std::cout << "probe " << probeNames[i] << " at "
                          << post::describeProbeSample(probe->samples[i], pipeline->luminanceUnits().probeNote())
                          << "\n";
    }
    for (const auto* path : {&options.screenshot, &options.screenshotExr, &options.capture, &options.captureCsv})
        if (*path && (renderedFrames > 0 || path == &options.capture || path == &options.captureCsv))
            std::cout << "wrote " << describeOutput(**path)
                      << (path == &options.screenshot && uiTarget.valid() ? "; " + describeLayout() : std::string())
                      << "\n";
    for (const FrameSequenceWriter* writer : {hdrSequenceOut.get(), displaySequenceOut.get()})
        if (writer)
            std::cout << writer->summary() << "\n";
    return exitCode;
}

int listMethods(const AppOptions& options)
{
    AppOptions headless = options;
    headless.headless = true;
    auto context = createAppContext(headless, kDefaultSize);
    post::GpuCaps caps = probeGpuCaps(*context);
    const platform::GlInfo& gl = context->info();
    std::cout << "GPU: " << gl.vendor << " | " << gl.renderer << " | OpenGL " << gl.version << " | " << gl.platform
              << "\n\n"
              << post::describeAvailableMethods(caps);
    return 0;
}

}  // namespace app
