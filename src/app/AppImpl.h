// AppImpl.h: the state of the live app (App::Impl) shared by its source files, one per role:
//   App.cpp        construction from the options, the public API, `--list`;
//   FrameLoop.cpp  the frame loop: events, layout, the frame source, the pipeline, presenting;
//   AppPanels.cpp  the panels' context and what only the app does for them (ui::PanelHost);
//   RunOutputs.cpp the run's end and the captures: files, summary, flicker line, metadata.
// Private to src/app/.
#pragma once

#include "app/App.h"
#include "app/AppSetup.h"
#include "app/ResizeStorm.h"
#include "app/SplitView.h"
#include "app/WindowEvents.h"
#include "frames/FrameSequenceWriter.h"
#include "frames/FrameSource.h"
#include "frames/SceneFrameSource.h"
#include "frames/SequenceSource.h"
#include "frames/StillImageSource.h"
#include "frames/TevFrameSource.h"
#include "gl/FramePacer.h"
#include "gl/Framebuffer.h"
#include "gl/Gl.h"
#include "post/CudaInterop.h"
#include "post/ExposureHistory.h"
#include "post/PostPipeline.h"
#include "profiling/Capture.h"
#include "profiling/Profiler.h"
#include "scene/ScenePresets.h"
#include "ui/ImGuiLayer.h"
#include "ui/Panel.h"
#include "ui/PanelSet.h"
#include "util/FolderWatcher.h"

#include <chrono>
#include <cstdint>
#include <deque>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace app {

inline constexpr double kFixedDt = 1.0 / 60.0;               ///< headless: time step of the camera path and adaptation
inline constexpr int kRecordFromFrame = 10;                  ///< recording for --capture starts after this warm-up
inline constexpr double kExposurePlotSeconds = 10.0;         ///< the Exposure panel's window
inline constexpr std::size_t kRunExposureFrames = 1u << 18;  ///< the whole run's key values (flicker line, --capture)
inline constexpr glm::ivec2 kDefaultSize{1280, 720};
inline constexpr double kMaxWindowDt = 0.25;  ///< a stalled window frame must not jump the camera

struct App::Impl final : ui::PanelHost
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
    TevFrameSource* tev = nullptr;            ///< `source` when it is the tev display server (--listen)
    double fixedDt = kFixedDt;                ///< headless time step: 1/60 s, or a sequence's 1/fps
    std::vector<scene::ScenePreset> presets;  ///< the scene combo's entries (data root's scenes/)
    int currentPreset = -1;                   ///< index into presets; -1: a scene file not listed
    std::optional<int> requestedPreset;       ///< chosen in the combo; loaded before the next frame

    /// The open row's paths (ui/OpenFileRow.h), opened before the next frame.
    std::vector<std::filesystem::path> requestedOpens;
    std::unique_ptr<post::PostPipeline> pipeline;
    std::unique_ptr<ui::ImGuiLayer> imgui;
    std::unique_ptr<WindowEvents> windowEvents;          ///< after imgui: chains to, and restores, its callbacks
    std::string sourceStatus;                            ///< the last dropped file's outcome (Frame panel)
    std::unique_ptr<util::FolderWatcher> shaderWatcher;  ///< --watch-shaders: the shaders folder in use
    std::string shaderStatus;       ///< the last shader reload's errors (file:line), shown in the Frame panel
    ui::StatusMessage lastMessage;  ///< the status line's message: the last outcome the app had to tell
    std::string shownTitle;         ///< what the window's title names now (set when it changes)
    bool showKeyHelp = false;       ///< F1: the key help over the picture
    /// Frame panel: while the panels are in use, the window shows the last picture again (kept) instead
    /// of rendering the scene and the pipeline, so the panels answer at the UI's rate on a slow GPU.
    bool keepPictureWhileInteracting = true;
    gl::Texture keptPicture;  ///< a copy of the last display image (the pipeline may reallocate its own)
    std::chrono::steady_clock::time_point lastPanelInteraction{};
    bool windowPngRequested = false;  ///< F12: a PNG of the window after this frame's UI pass
    std::optional<std::chrono::steady_clock::time_point> quitArmedAt;  ///< a quit press that warned

    std::unique_ptr<SplitView> split;          ///< pipeline B and the composite (--split, Split view panel)
    bool draggingDivider = false;              ///< the left button holds the split view's divider
    bool leftButtonWasDown = false;            ///< the left button on the previous frame (window)
    const gl::Texture* lastDisplay = nullptr;  ///< what the last frame showed (the split composite too)

    gl::Framebuffer displayFramebuffer;  ///< reads the display image for blits
    gl::Texture uiTarget;                ///< headless --ui: the panels and, in their viewport, the display image
    gl::Framebuffer uiFramebuffer;
    std::unique_ptr<ui::PanelSet> panels;  ///< the panels and their layout (what they leave to the picture)
    glm::ivec2 canvas{0};                  ///< this frame's window framebuffer (headless --ui: uiTarget's size), pixels
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
    App::FrameObserver frameObserver;  ///< App::setFrameObserver's (a measurement tool's), or empty
    /// Wall-clock intervals between back-to-back window frames of one kind: those that showed the kept
    /// picture (the panels' own rate on a slow GPU) and those that rendered; printed when a window run
    /// ends (describeKeptPictureRate).
    struct WindowFrameRates
    {
        static constexpr std::size_t kKeptIntervals = 1u
                                                      << 14;  ///< the newest of each kind (a window may run for hours)
        std::deque<double> keptMs, renderedMs;
        std::optional<std::chrono::steady_clock::time_point> last;
        bool lastKept = false;
        void note(bool kept);
    } windowFrameRates;
    /// "kept picture while the panels were in use: N intervals, median M ms (F fps); rendered frames:
    /// ...", or "" if no kept picture was shown.
    std::string describeKeptPictureRate() const;
    /// A cut the tone operator found (a frame that starts a new shot), as printed and recorded.
    struct CutRecord
    {
        std::uint64_t frameIndex = 0;  ///< the profiler's frame index
        long long sourceFrame = 0;     ///< the sequence's frame number (or the run's frame)
        float distanceEv = 0.0f;       ///< how far the histogram's mean log2 L moved
        bool snapped = false;          ///< the exposure snapped there
    };
    std::vector<CutRecord> cuts;     ///< this run's, in order (capture metadata, the flicker line)
    std::uint64_t cutCountSeen = 0;  ///< the operator's cut count as of the last key value taken
    std::deque<std::pair<std::uint64_t, long long>> recentSourceFrames;  ///< frame index -> source frame

    /// Numbered per-frame outputs: --hdr-sequence-out (the HDR frame) and a sequence's PNGs (tonemap).
    std::unique_ptr<FrameSequenceWriter> hdrSequenceOut;
    std::unique_ptr<FrameSequenceWriter> displaySequenceOut;

    /// The frame the pipeline reads: the source's HDR texture, its size and pre-exposure.
    post::ImageInput frameInput() const;
    /// Adds this frame to the exposure histories (before it renders).
    void noteExposureFrame(double dt);
    /// Attaches the key values whose readbacks arrived, and the cuts they report (printed, recorded,
    /// marked in the histories); a new operator starts the series over.
    void collectKeyValues();
    /// "cut at frame N: histogram mean log2 L moved X EV (exposure snapped)" for one cut.
    std::string describeCut(const CutRecord& cut) const;
    /// "flicker: X EV/s over N frames (operator ID, key value NAME)", or why there is none.
    std::string flickerLine() const;

    void reportResources(std::uint64_t frame);
    /// Sets the pipeline's probe points: the pixel under the mouse (window) and the --probe points.
    void updateProbes(bool mouseFree);
    /// Window: a left drag that starts on the divider moves it; returns true while it does.
    bool updateDividerDrag(bool mouseFree);
    /// The split view's side labels over the picture.
    void drawSplitLabels();
    ui::SplitPanelInput splitPanelInput();
    /// Opens the files dropped on the window and those the open row asked for (openFile each).
    void openDroppedFiles();
    /// Opens `path` as its kind says (app/FileArgument.h; a name without an extension as a scene name
    /// in the data folder): a scene in the scene, an image in the image view; the outcome goes to the
    /// status line (errors red) and the log, and a file that opened to the open row's recent files.
    void openFile(const std::filesystem::path& path);
    /// A file that opened joins the open row's recent files.
    void noteOpened(const std::filesystem::path& path);
    /// The file the run opened (`view FILE`, `--scene`) starts the recent files.
    void noteStartFile();
    /// A dropped image in a scene window: the window becomes the image view (the scene goes).
    void openImageInPlaceOfScene(const std::filesystem::path& path);
    void switchToRequestedPreset();
    /// --watch-shaders: rebuilds the programs that read a changed shader file (between frames); a
    /// program that fails keeps its last good version, and the error goes to the log and the panel.
    void reloadChangedShaders();
    /// Capture metadata: the GPU, the pipeline's settings and, for a scene, its lighting path.
    profiling::CaptureMetadata frameMetadata() const;
    /// `view SEQUENCE`: the sequence source, its time step and (headless) its frame count.
    void createSequenceSource();
    /// --listen: the tev display server; headless, waits for the first image (--listen-timeout).
    void createTevSource();
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
    /// "viewport 328,0 952x534 of 1280x720 (pixels from the top-left); picture 952x534, 55.2 % of the
    /// window; combos visible without scrolling: method, scan, operator; no name cut short": tests
    /// crop screenshots with it; the picture is the frame's rectangle as placed in the viewport; the
    /// Pipeline panel's three combos are found by the names they show (ui::comboPlacements); whether
    /// the measurements show without scrolling ("measurements in view (...)": ui/InView.h); then the
    /// text and the combos' names found too narrow since the last call (ui/TextFit.h, ui::checkNamesFit).
    std::string describeLayout() const;
    /// "combos visible without scrolling: method, scan, operator", or which are not, or drawn nowhere.
    std::string describeCombos() const;

    /// Draws the panels (ui/PanelSet.h) with this frame's context, then the split view's labels.
    void drawPanels(double pathSeconds);
    /// What the Timings panel shows the recording doing; sets the status of a run's recording.
    ui::CaptureMode captureMode();

    // ui::PanelHost: what only the app does for the panels (app/AppPanels.cpp).
    post::PostPipeline* pipelineB() override;
    void applySplit(const ui::SplitPanelActions& actions) override;
    void applyCapture(const ui::TimingsPanelActions& actions) override;
    void requestScenePreset(int index) override;
    void requestOpenFile(const std::string& path) override;

    /// The window's key presses of this frame (app/AppKeys.cpp): the app's keys act; the others are
    /// returned as the frame source's taps (none while a text field has the keyboard).
    std::vector<int> handleKeys(const std::vector<WindowEvents::KeyPress>& keys, bool keyboardFree);
    /// Esc, Ctrl+Q: closes the window; while a recording would be lost, only on a second press.
    void requestQuit();
    /// Ctrl+R: the pipeline's settings back to the defaults.
    void resetPipelineToDefaults();
    /// F12: writes hdrlab-window-<time>.png of the back buffer (before the swap).
    void writeWindowPngIfAsked();
    /// Puts `text` in the status line in the colour of `kind` (and keeps it until the next message).
    void say(ui::MessageKind kind, std::string text);
    /// "scene room", "image photo.exr": what is shown (the status line and the window's title).
    std::string describeShown() const;
    /// Sets the window's title to name what is shown, when that changed.
    void updateWindowTitle();

    /// Whether the panels are in use now or were within the last half second: an item held, a popup
    /// open, or the mouse moving, scrolling or pressed over them (ImGui's state of the last frame).
    bool panelsBusy();
    /// Copies this frame's display image into keptPicture (window, keepPictureWhileInteracting).
    void keepPicture(const gl::Texture& display);
    /// A frame that shows keptPicture with this frame's panels: no scene, no pipeline, nothing timed.
    void presentKeptPicture(double pathSeconds);

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

}  // namespace app
