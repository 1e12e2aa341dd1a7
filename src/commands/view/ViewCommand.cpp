// ViewCommand.cpp: the live mode's flags and `view IMAGE` (commands/view/ViewCommand.h), and its run.
#include "commands/view/ViewCommand.h"

#include "app/App.h"
#include "frames/FrameSequence.h"
#include "net/TevServer.h"
#include "post/SplitCompose.h"
#include "profiling/Profiler.h"
#include "scene/SceneRenderer.h"

#include <CLI/CLI.hpp>

namespace app {

/// What CLI11 fills: the options it binds directly, and the flags read() checks.
struct ViewParser::Flags
{
    CLI::App* viewCommand = nullptr;  ///< the `view` subcommand
    AppOptions bound;
    std::string scene, size, range, outOfRange, downsample, vsync = "on", cudaInterop = "map", lighting;
    std::string screenshot, screenshotExr, hdrSequenceOut, windowScreenshot, capture, captureCsv;
    std::string histogramMethod, scanMethod, toneOperator;
    std::string frames, bins, captureFrames, resourceReport, resizeStorm, uiScale, frameFormat, viewMode;
    std::string split, splitAt, splitGain;
    std::string listen, listenTimeout, watchShaders;
    std::vector<std::string> probes;
    std::string viewInput;
    SettingsFlags settings, splitSettings;
    SequenceFlags viewSequence;
    CLI::Option *sceneOption = nullptr, *sizeOption = nullptr, *framesOption = nullptr, *screenshotOption = nullptr,
                *screenshotExrOption = nullptr, *hdrSequenceOutOption = nullptr, *windowScreenshotOption = nullptr,
                *captureOption = nullptr, *captureCsvOption = nullptr, *captureFramesOption = nullptr,
                *uiScaleOption = nullptr, *histogramOption = nullptr, *scanOption = nullptr, *operatorOption = nullptr,
                *binsOption = nullptr, *rangeOption = nullptr, *outOfRangeOption = nullptr, *downsampleOption = nullptr,
                *lightingOption = nullptr, *frameFormatOption = nullptr, *viewOption = nullptr, *splitOption = nullptr,
                *splitAtOption = nullptr, *splitGainOption = nullptr, *resourceReportOption = nullptr,
                *resizeStormOption = nullptr, *listenOption = nullptr, *listenTimeoutOption = nullptr,
                *watchShadersOption = nullptr;
};

namespace {

using Flags = ViewParser::Flags;

constexpr long long kMaxCaptureFrames = profiling::Profiler::kMaxRecordingCapacity;
constexpr long long kDefaultCaptureFrames = profiling::Profiler::kDefaultRecordingCapacity;

/// The values of a flag that names an enumeration, in the order its help lists them, each as the
/// enumeration's own name function spells it.
template <typename Enum, typename NameOf>
std::vector<std::string> namesOf(std::initializer_list<Enum> values, NameOf nameOf)
{
    std::vector<std::string> names;
    for (Enum value : values)
        names.emplace_back(nameOf(value));
    return names;
}

/// What runs and what it writes: the scene, the size, the frames, the screenshots, the captures.
void addOutputFlags(CLI::App& cli, Flags& f)
{
    f.sceneOption = cli.add_option("--scene", f.scene,
                                   "Scene file (JSON, or glTF 2.0 .gltf/.glb; docs/SCENE_FORMAT.md); "
                                   "default: the built-in scene")
                        ->type_name("FILE");
    f.sizeOption = cli.add_option("--size", f.size,
                                  "Frame size: window size, or the headless frame (default "
                                  "1280x720)")
                       ->type_name("WxH");
    cli.add_flag("--headless", f.bound.headless,
                 "Render off-screen through EGL, no window (automatic without a display)");
    f.framesOption = cli.add_option("--frames", f.frames,
                                    "Frames to render, then exit (headless default 300; a window "
                                    "runs until closed)")
                         ->type_name("N");
    f.screenshotOption = cli.add_option("--screenshot", f.screenshot,
                                        "After the last frame, write the display image "
                                        "(tone-mapped, sRGB) as PNG")
                             ->type_name("OUT.png");
    f.screenshotExrOption = cli.add_option("--screenshot-exr", f.screenshotExr,
                                           "After the last frame, write the HDR scene frame as OpenEXR")
                                ->type_name("OUT.exr");
    f.hdrSequenceOutOption =
        cli.add_option("--hdr-sequence-out", f.hdrSequenceOut,
                       "Write every frame's HDR frame as a numbered OpenEXR (a rendered sequence for view and "
                       "tonemap; numbered by frame from 0, or like a sequence's input frames)")
            ->type_name("OUT.%04d.exr");
    f.windowScreenshotOption =
        cli.add_option("--window-screenshot", f.windowScreenshot,
                       "Window: PNG of the window (panels and picture) after the last frame's UI pass "
                       "(with --frames; F12 takes one at any time)");
    f.captureOption = cli.add_option("--capture", f.capture,
                                     "Write the recorded frames' pass timings as Chrome "
                                     "trace-event JSON (Perfetto, chrome://tracing; '-': "
                                     "standard output)")
                          ->type_name("OUT.json");
    f.captureCsvOption = cli.add_option("--capture-csv", f.captureCsv,
                                        "Write the recorded frames' pass timings as CSV: "
                                        "frame,pass,cpu_ms,gpu_ms,gpu_source ('-': "
                                        "standard output)")
                             ->type_name("OUT.csv");
    f.captureFramesOption =
        cli.add_option("--capture-frames", f.captureFrames,
                       "Recording keeps the last N frames, 1.." + std::to_string(kMaxCaptureFrames) + " (default " +
                           std::to_string(kDefaultCaptureFrames) +
                           "); older frames are dropped and counted in the capture")
            ->type_name("N");
}

/// The panels, the window's time step, --list and --verify.
void addWindowFlags(CLI::App& cli, Flags& f)
{
    cli.add_flag("--ui", f.bound.ui,
                 "Headless: lay the ImGui panels out as a window does and draw them into --screenshot (the frame "
                 "is the viewport they leave); a window always has them");
    cli.add_flag("--hide-ui", f.bound.hideUi,
                 "Start the window with the panels hidden: the picture fills the window (Tab toggles them)");
    f.uiScaleOption = cli.add_option("--ui-scale", f.uiScale,
                                     "Scale of the panels' font and sizes, 0.5..4 (default: the monitor's content "
                                     "scale in a window, 1 headless)")
                          ->type_name("S");
    cli.add_flag("--fixed-step", f.bound.fixedStep,
                 "Window: advance a fixed 1/60 s a frame on the scene's camera path, as headless runs do (the "
                 "window's picture is then the headless one; no free-fly or pan/zoom)");
    f.watchShadersOption =
        cli.add_option("--watch-shaders", f.watchShaders,
                       "Rebuild the programs that include a shader file when it changes under the data folder's "
                       "shaders/ (a compile error keeps the last good program and is shown with file:line). Default "
                       "on in a window, off headless")
            ->check(CLI::IsMember({"on", "off"}));
    cli.add_flag("--list", f.bound.list,
                 "List the histogram methods, scans and tone operators, and whether each can run "
                 "here, then exit");
    cli.add_flag("--verify", f.bound.verify,
                 "Check the last frame against the CPU reference (histogram, CDF, curve); exit "
                 "1 on a mismatch");
}

/// The pipeline's choices: methods, bins, range, the frame's format and lighting, the view, the settings.
void addPipelineFlags(CLI::App& cli, Flags& f)
{
    f.histogramOption =
        cli.add_option("--histogram-method", f.histogramMethod, "Histogram method id (see --list)")->type_name("ID");
    f.scanOption = cli.add_option("--scan", f.scanMethod, "Scan (prefix sum) method id (see --list)")->type_name("ID");
    f.operatorOption = cli.add_option("--operator", f.toneOperator, "Tone operator id (see --list)")->type_name("ID");
    f.binsOption = cli.add_option("--bins", f.bins, "Histogram bins, 1..4096 (default 256)")->type_name("N");
    f.rangeOption = cli.add_option("--range", f.range,
                                   "Histogram range in log2 luminance (EV), e.g. -10:20, or "
                                   "auto (GPU min/max of the frame)")
                        ->type_name("MIN:MAX|auto");
    f.outOfRangeOption = cli.add_option("--out-of-range", f.outOfRange,
                                        "Pixels outside the range: clamp into the end "
                                        "bins (default) or count them separately")
                             ->check(CLI::IsMember({"clamp", "separate"}));
    f.downsampleOption = cli.add_option("--downsample", f.downsample,
                                        "Build the histogram from a 1/N box-"
                                        "downsampled frame (default 1)")
                             ->check(CLI::IsMember({"1", "2", "4", "8"}));
    cli.add_option("--vsync", f.vsync, "Window: wait for vertical sync (default on)")
        ->check(CLI::IsMember({"on", "off"}));
    cli.add_option("--cuda-interop", f.cudaInterop,
                   "How CUDA passes reach GL's frame and buffers: map (cudaGraphicsMapResources per pass) or "
                   "shared (memory shared through Vulkan, GPU semaphores; map where unavailable). Default map")
        ->check(CLI::IsMember({"map", "shared"}));
    addSettingsOptions(cli, f.settings);
    f.lightingOption = cli.add_option("--lighting", f.lighting,
                                      "Scene lighting: deferred (a thin G-buffer, then a compute pass; the "
                                      "default) or forward (shaded in the fragment shader); same picture")
                           ->check(CLI::IsMember(namesOf({scene::LightingPath::Forward, scene::LightingPath::Deferred},
                                                         scene::lightingPathName)));
    f.frameFormatOption =
        cli.add_option("--frame-format", f.frameFormat,
                       "How the scene frame is stored: rgba16f (half floats pre-exposed by 2^k, k from earlier "
                       "frames; what clips is counted; the default), rgba32f (32-bit floats as they are) or auto "
                       "(RGBA32F while the scene's sun or an emitter exceeds half-float range, else RGBA16F)")
            ->type_name("rgba16f|rgba32f|auto")
            ->check(CLI::IsMember(frameFormatChoices()));
    f.viewOption = cli.add_option("--view", f.viewMode,
                                  "Display: the tone-mapped image (default), the false-colour EV view (EV = "
                                  "log2 cd/m^2) or the percentile operator's metering weights (docs/USAGE.md)")
                       ->type_name(
                           "tonemapped|false-colour|metering|local-gain|local-tiles|local-base|local-blurred|local-"
                           "detail|local-exposure")
                       ->check(CLI::IsMember(viewModeChoices()));
}

/// The split view (app/SplitView.h): pipeline B on the same frame, its own settings on top of A's.
void addSplitFlags(CLI::App& cli, Flags& f)
{
    f.splitOption = cli.add_option("--split", f.split,
                                   "Split view: a second pipeline (B) on the same frame, side by side with a "
                                   "divider or as the amplified difference |A-B| (default off; docs/USAGE.md)")
                        ->type_name("side-by-side|difference|off")
                        ->check(CLI::IsMember(
                            namesOf({post::SplitMode::SideBySide, post::SplitMode::Difference, post::SplitMode::Off},
                                    post::splitModeName)));
    f.splitAtOption =
        cli.add_option("--split-at", f.splitAt, "Split view: the divider, 0..1 of the frame width (default 0.5)")
            ->type_name("F");
    f.splitGainOption = cli.add_option("--split-gain", f.splitGain,
                                       "Split view: the difference view's gain on |A-B| display values, 0..255 "
                                       "(default 4)")
                            ->type_name("G");
    f.splitSettings.fileOption = cli.add_option("--settings-b", f.splitSettings.file,
                                                "Split view: a settings file for pipeline B, applied on top of A's "
                                                "settings")
                                     ->type_name("FILE.json");
    cli.add_option("--set-b", f.splitSettings.assignments,
                   "Split view: set one setting of pipeline B (the keys of --set); repeatable, after --settings-b")
        ->type_name("KEY=VALUE")
        ->allow_extra_args(false);
}

/// The tev display server (frames/TevFrameSource.h).
void addListenFlags(CLI::App& cli, Flags& f)
{
    f.listenOption = cli.add_option("--listen", f.listen,
                                    "Be a tev display server: show the images renderers stream over tev's protocol "
                                    "(pbrt-v4 --display-server, Mitsuba, Python; docs/USAGE.md). No value: "
                                    "127.0.0.1:14158; another host than the loopback must be named and is warned "
                                    "about")
                         ->type_name("[HOST:]PORT")
                         ->expected(0, 1);
    f.listenTimeoutOption = cli.add_option("--listen-timeout", f.listenTimeout,
                                           "Headless --listen: seconds to wait for the first image before the "
                                           "frames, 0.1..3600 (default 30); none: exit 1")
                                ->type_name("S");
}

/// The probes, the resource report and the resize storm.
void addDiagnosticFlags(CLI::App& cli, Flags& f)
{
    cli.add_option("--probe", f.probes,
                   "Pixel probe at X,Y (pixels from the top-left; repeatable, up to 8): printed after the "
                   "last frame and written into the capture")
        ->type_name("X,Y")
        ->allow_extra_args(false);
    f.resourceReportOption = cli.add_option("--resource-report", f.resourceReport,
                                            "Every N frames print one line: frame, resident memory, "
                                            "GL objects alive by kind, CUDA allocations (the soak)")
                                 ->type_name("N");
    f.resizeStormOption = cli.add_option("--resize-storm", f.resizeStorm,
                                         "(testing) window mode: STEPS frames of "
                                         "window resizes, iconify and method switches");
}

/// --hdr-sequence-out: a file name with one frame number.
void checkPatternFlag(const std::string& flag, const std::string& pattern)
{
    try {
        checkOutputPattern(pattern, flag);
    } catch (const std::runtime_error& error) {
        throw CliError(error.what());
    }
}

/// `view IMAGE`: the image instead of a scene, and the sequence's flags.
void readViewSubcommand(const Flags& f, AppOptions& o)
{
    if (f.viewInput.empty())
        throw CliError("view needs an image file name");
    if (f.sceneOption->count())
        throw CliError("--scene does not apply to view, which shows IMAGE instead of a scene");
    if (f.frameFormatOption->count())
        throw CliError("--frame-format applies to the scene, not to view, which keeps IMAGE in RGBA32F");
    o.viewImage = f.viewInput;
    readSequenceOptions(f.viewSequence, o.sequenceFps, o.badFramePolicy);
}

/// The scene, the size, the frames and the files written.
void readOutputFlags(const Flags& f, AppOptions& o)
{
    if (f.sceneOption->count())
        o.sceneFile = f.scene;
    if (f.sizeOption->count())
        o.size = parseSize(f.size);
    if (f.framesOption->count()) {
        // "-1" reads like "until closed" elsewhere; here the window already does that without --frames.
        long long negative = 0;
        if (parseInt(f.frames, negative) == IntParse::Ok && negative < 0)
            throw CliError("--frames " + f.frames + " is negative; give 0.." + std::to_string(kMaxFrames) +
                           ", or leave --frames out to run a window until it is closed");
        o.frames = int(parseWholeNumber("--frames", f.frames, 0, kMaxFrames));
    }
    if (f.captureFramesOption->count())
        o.captureFrames = int(parseWholeNumber("--capture-frames", f.captureFrames, 1, kMaxCaptureFrames));
    if (f.resourceReportOption->count())
        o.resourceReport = int(parseWholeNumber("--resource-report", f.resourceReport, 1, kMaxFrames));
    if (f.resizeStormOption->count())
        o.resizeStorm = int(parseWholeNumber("--resize-storm", f.resizeStorm, 1, kMaxFrames));
    if (f.screenshotOption->count())
        o.screenshot = f.screenshot;
    if (f.screenshotExrOption->count())
        o.screenshotExr = f.screenshotExr;
    if (f.hdrSequenceOutOption->count())
        o.hdrSequenceOut = f.hdrSequenceOut;
    if (f.windowScreenshotOption->count())
        o.windowScreenshot = f.windowScreenshot;
    if (f.captureOption->count())
        o.capture = f.capture;
    if (f.captureCsvOption->count())
        o.captureCsv = f.captureCsv;
}

/// --listen and --listen-timeout: the display server instead of a scene or an image.
void readListenFlags(const Flags& f, AppOptions& o)
{
    if (f.listenTimeoutOption->count() && !f.listenOption->count())
        throw CliError("--listen-timeout needs --listen");
    if (!f.listenOption->count())
        return;
    if (o.viewImage)
        throw CliError("--listen shows the images clients send; it cannot be combined with view IMAGE");
    if (o.sceneFile)
        throw CliError("--listen shows the images clients send instead of a scene; drop --scene");
    try {
        net::parseListenAddress(f.listen);
    } catch (const std::invalid_argument& error) {
        throw CliError(error.what());
    }
    o.listen = f.listen;
    if (f.listenTimeoutOption->count())
        o.listenTimeout = parseNumberInRange("--listen-timeout", f.listenTimeout, 0.1, kMaxListenTimeout);
}

/// The pipeline's choices, the panels' scale and the settings.
void readPipelineFlags(const Flags& f, AppOptions& o)
{
    if (f.histogramOption->count())
        o.histogramMethod = f.histogramMethod;
    if (f.scanOption->count())
        o.scanMethod = f.scanMethod;
    if (f.operatorOption->count())
        o.toneOperator = f.toneOperator;
    if (f.binsOption->count())
        o.bins = unsigned(parseWholeNumber("--bins", f.bins, 1, hd::kMaxHistogramBins));
    if (f.rangeOption->count())
        o.range = parseRange(f.range);
    if (f.outOfRangeOption->count())
        o.outOfRange = f.outOfRange;
    if (f.downsampleOption->count())
        o.downsample = std::stoi(f.downsample);
    o.vsync = f.vsync == "on";
    if (f.watchShadersOption->count())
        o.watchShaders = f.watchShaders == "on";
    if (f.uiScaleOption->count())
        o.uiScale = float(parseNumberInRange("--ui-scale", f.uiScale, 0.5, 4.0));
    o.cudaInteropShared = f.cudaInterop == "shared";
    if (f.lightingOption->count())
        o.lighting = f.lighting;
    if (f.frameFormatOption->count())
        o.frameFormat = f.frameFormat;
    o.settingsFile = settingsFile(f.settings);
    o.settingAssignments = checkedAssignments(f.settings);
    if (f.viewOption->count())
        o.view = f.viewMode;
    o.probes = parseProbePoints(f.probes);
}

/// The split view's flags: they need --split side-by-side|difference.
void readSplitFlags(const Flags& f, AppOptions& o)
{
    if (f.splitOption->count())
        o.split = f.split;
    if (f.splitAtOption->count())
        o.splitPosition = float(parseNumberInRange("--split-at", f.splitAt, 0.0, 1.0));
    if (f.splitGainOption->count())
        o.splitGain = float(parseNumberInRange("--split-gain", f.splitGain, 0.0, post::kMaxSplitGain));
    o.settingsFileB = settingsFile(f.splitSettings, "--settings-b");
    o.settingAssignmentsB = checkedAssignments(f.splitSettings, "--set-b");
    const bool splitOn = o.split && *o.split != "off";
    if (!splitOn && (o.splitPosition || o.splitGain || o.settingsFileB || !o.settingAssignmentsB.empty()))
        throw CliError("--split-at, --split-gain, --settings-b and --set-b need --split side-by-side|difference");
}

}  // namespace

ViewParser::ViewParser(CLI::App& cli, CommonFlags& common) : mFlags(std::make_unique<Flags>())
{
    Flags& f = *mFlags;
    addOutputFlags(cli, f);
    addWindowFlags(cli, f);
    addPipelineFlags(cli, f);
    addSplitFlags(cli, f);
    addDiagnosticFlags(cli, f);
    addListenFlags(cli, f);
    addCommonOptions(cli, common);
}

ViewParser::~ViewParser() = default;

void ViewParser::addViewSubcommand(CLI::App& cli)
{
    Flags& f = *mFlags;
    f.viewCommand = cli.add_subcommand("view",
                                       "Run the live pipeline (panels, methods, timings, captures) on an HDR image "
                                       "file (EXR, .hdr, PNG...) instead of a scene, with pan and zoom; takes every "
                                       "option of the live mode (hdrlab --help)");
    f.viewCommand->fallthrough();
    f.viewCommand
        ->add_option("image", f.viewInput,
                     "Image to show, or a sequence of frames: a folder, a glob (shots/*.exr) or a pattern "
                     "(shot.%04d.exr)")
        ->required()
        ->type_name("IMAGE");
    f.viewCommand
        ->add_option("--part", f.bound.exrPart,
                     "OpenEXR input: the part (index or name), view or layer to read (default: the first with colour)")
        ->type_name("NAME|INDEX");
    addSequenceOptions(*f.viewCommand, f.viewSequence, "Sequence");
}

AppOptions ViewParser::read(bool noArguments, bool& standardOutputIsData) const
{
    const Flags& f = *mFlags;
    AppOptions o = f.bound;
    o.noArguments = noArguments;
    if (f.viewCommand && f.viewCommand->parsed())
        readViewSubcommand(f, o);
    readOutputFlags(f, o);
    readPipelineFlags(f, o);
    readSplitFlags(f, o);
    readListenFlags(f, o);
    standardOutputIsData = checkOutputFlags({{f.screenshotOption, &f.screenshot, kBinaryImage, ".png"},
                                             {f.screenshotExrOption, &f.screenshotExr, kBinaryImage, ".exr"},
                                             {f.hdrSequenceOutOption, &f.hdrSequenceOut, kBinaryImage, ".exr"},
                                             {f.windowScreenshotOption, &f.windowScreenshot, kBinaryImage, ".png"},
                                             {f.captureOption, &f.capture, kStreamsText, ".json"},
                                             {f.captureCsvOption, &f.captureCsv, kStreamsText, ".csv"}});
    if (o.hdrSequenceOut)
        checkPatternFlag("--hdr-sequence-out", f.hdrSequenceOut);
    if (o.windowScreenshot && o.headless)
        throw CliError("--window-screenshot needs a window; it cannot be combined with --headless");
    if (o.resizeStorm && o.headless)
        throw CliError("--resize-storm needs a window; it cannot be combined with --headless");
    return o;
}

int runViewCommand(const AppOptions& options)
{
    if (options.list)
        return listMethods(options);
    return App(options).run();
}

}  // namespace app
