#include "cli/Cli.h"

#include "frames/FrameSequence.h"
#include "post/PipelineParameters.h"
#include "post/histogram/HistogramMethod.h"
#include "post/tonemap/ToneOperator.h"
#include "profiling/Profiler.h"
#include "shared/HostDevice.h"
#include "util/BuildInfo.h"
#include "util/Log.h"

#include <CLI/CLI.hpp>

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <sstream>

namespace app {
namespace {

constexpr long long kMaxFrames = 10'000'000;
constexpr long long kMaxRepeat = 100'000;
constexpr long long kMaxBins = hd::kMaxHistogramBins;
constexpr long long kMaxCaptureFrames = profiling::Profiler::kMaxRecordingCapacity;
constexpr long long kDefaultCaptureFrames = profiling::Profiler::kDefaultRecordingCapacity;

const std::map<std::string, util::LogLevel> kLogLevels = {
    {"debug", util::LogLevel::Debug}, {"info", util::LogLevel::Info},   {"warning", util::LogLevel::Warning},
    {"error", util::LogLevel::Error}, {"quiet", util::LogLevel::Quiet},
};

enum class IntParse { Ok, NotANumber, TooLarge };

/// Decimal digits with an optional '-' (no spaces, no '+', no hex), as whole-number flags take them.
IntParse parseInt(std::string_view text, long long& value)
{
    if (text.empty())
        return IntParse::NotANumber;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (end != text.data() + text.size() || ec == std::errc::invalid_argument)
        return IntParse::NotANumber;
    if (ec == std::errc::result_out_of_range) {
        value = text.front() == '-' ? std::numeric_limits<long long>::min() : std::numeric_limits<long long>::max();
        return IntParse::TooLarge;
    }
    return IntParse::Ok;
}

/// A finite decimal number (e.g. "-10", "2.5", "1e3"); NaN, infinities and trailing text are refused.
bool parseFloat(std::string_view text, double& value)
{
    if (text.empty() || std::isspace(static_cast<unsigned char>(text.front())))
        return false;
    std::string copy(text);
    char* end = nullptr;
    errno = 0;
    value = std::strtod(copy.c_str(), &end);
    return end == copy.c_str() + copy.size() && errno != ERANGE && std::isfinite(value);
}

std::string quoted(std::string_view text)
{
    return "'" + std::string(text) + "'";
}

std::string rangeText(long long min, long long max)
{
    return std::to_string(min) + ".." + std::to_string(max);
}

/// A whole-number flag's value in [min, max]; the message names the flag, the value and the range.
long long parseWholeNumber(std::string_view flag, std::string_view text, long long min, long long max)
{
    long long value = 0;
    switch (parseInt(text, value)) {
        case IntParse::Ok:
            if (value < min || value > max)
                throw CliError(std::string(flag) + " " + std::string(text) + " is outside " + rangeText(min, max));
            return value;
        case IntParse::TooLarge:
            throw CliError(std::string(flag) + " " + std::string(text) + " is outside " + rangeText(min, max));
        case IntParse::NotANumber:
            break;
    }
    if (text.empty())
        throw CliError(std::string(flag) + " needs a whole number in " + rangeText(min, max));
    throw CliError(std::string(flag) + " " + quoted(text) + " is not a whole number; give one in " +
                   rangeText(min, max));
}

/// A decimal flag's value in [min, max]; the message names the flag, the value and the range.
double parseNumberInRange(std::string_view flag, std::string_view text, double min, double max)
{
    double value = 0.0;
    if (!parseFloat(text, value))
        throw CliError(std::string(flag) + " " + quoted(text) + " is not a number; give one in " +
                       util::format("{}..{}", min, max));
    if (value < min || value > max)
        throw CliError(std::string(flag) + " " + std::string(text) + " is outside " + util::format("{}..{}", min, max));
    return value;
}

/// CLI11 says "--frames: At Most 1 required but received 2" for a repeated flag; say it plainly.
std::string explainParseError(const CLI::ParseError& error)
{
    const std::string message = error.what();
    const std::string marker = ": At Most 1 required but received ";
    std::size_t at = message.find(marker);
    if (at == std::string::npos)
        return message;
    return message.substr(0, at) + " is given " + message.substr(at + marker.size()) + " times; give it once";
}

/// Why an output flag refuses "-" (standard output): nullptr where it accepts it.
constexpr const char* kStreamsText = nullptr;
constexpr const char* kBinaryImage = "writes a binary image";
constexpr const char* kBenchTable = "cannot share standard output with the table bench prints there";

/// One output flag of a command; `noStandardOutput` says why it refuses "-", or is kStreamsText.
struct OutputFlag
{
    const CLI::Option* option;
    const std::string* value;
    const char* noStandardOutput;
};

/// Checks the output flags: a file name given, "-" only where accepted and for one of them. Returns
/// whether one of them is "-".
bool checkOutputFlags(std::initializer_list<OutputFlag> outputs)
{
    const CLI::Option* toStandardOutput = nullptr;
    for (const OutputFlag& output : outputs) {
        if (!output.option->count())
            continue;
        const std::string name = output.option->get_name();
        if (output.value->empty())
            throw CliError(name + " needs a file name");
        if (*output.value != "-")
            continue;
        if (output.noStandardOutput)
            throw CliError(name + " " + output.noStandardOutput +
                           "; '-' (standard output) is accepted only by "
                           "capture and CSV outputs; give a file name");
        if (toStandardOutput)
            throw CliError(toStandardOutput->get_name() + " and " + name +
                           " both name '-'; only one output can go "
                           "to standard output");
        toStandardOutput = output.option;
    }
    return toStandardOutput != nullptr;
}

/// --data-dir and --log-level, accepted before and after a subcommand.
void addCommonOptions(CLI::App& command, std::string& dataDir, std::string& logLevel)
{
    command
        .add_option("--data-dir", dataDir,
                    "Folder holding hdrlab's shaders/, scenes/ and assets/ (default: found "
                    "beside the executable, or $HDRLAB_DATA_DIR)")
        ->type_name("DIR");
    command
        .add_option("--log-level", logLevel, "Messages on stderr: debug, info, warning, error or quiet (default info)")
        ->check(CLI::IsMember({"debug", "info", "warning", "error", "quiet"}));
}

/// --settings FILE and --set KEY=VALUE (repeatable, one assignment each) on `command`.
struct SettingsFlags
{
    std::string file;
    std::vector<std::string> assignments;
    CLI::Option* fileOption = nullptr;
};
void addSettingsOptions(CLI::App& command, SettingsFlags& flags)
{
    flags.fileOption = command
                           .add_option("--settings", flags.file,
                                       "Apply a settings file (JSON, as the Pipeline panel saves it) before the "
                                       "other flags")
                           ->type_name("FILE.json");
    command
        .add_option("--set", flags.assignments,
                    "Set one setting, after --settings and the other flags; repeatable, applied in order "
                    "(hdrlab settings --list shows every key)")
        ->type_name("KEY=VALUE")
        ->allow_extra_args(false);
}
/// Checks every --set (or --set-b: `flag`) against the keys (no GL needed) and returns them unchanged.
std::vector<std::string> checkedAssignments(const SettingsFlags& flags, const std::string& flag = "--set")
{
    for (const std::string& text : flags.assignments) {
        try {
            post::parseAssignment(text, flag);
        } catch (const std::runtime_error& error) {
            throw CliError(error.what());
        }
    }
    return flags.assignments;
}
std::optional<std::filesystem::path> settingsFile(const SettingsFlags& flags, const std::string& flag = "--settings")
{
    if (!flags.fileOption->count())
        return std::nullopt;
    if (flags.file.empty())
        throw CliError(flag + " needs a file name");
    return flags.file;
}

/// --fps F: a sequence's frames per second.
double parseFps(const std::string& text)
{
    return parseNumberInRange("--fps", text, kMinSequenceFps, kMaxSequenceFps);
}

/// --hdr-sequence-out / tonemap -o on a sequence: a file name with one frame number.
void checkPatternFlag(const std::string& flag, const std::string& pattern)
{
    try {
        checkOutputPattern(pattern, flag);
    } catch (const std::runtime_error& error) {
        throw CliError(error.what());
    }
}

/// The sequence options `view` and `tonemap` share (--fps, --on-bad-frame).
struct SequenceFlags
{
    std::string fps;
    std::string onBadFrame;
    CLI::Option* fpsOption = nullptr;
    CLI::Option* onBadFrameOption = nullptr;
};
void addSequenceOptions(CLI::App& command, SequenceFlags& flags, const std::string& what)
{
    flags.fpsOption = command
                          .add_option("--fps", flags.fps,
                                      what +
                                          ": frames per second of playback (default 24); headless the time "
                                          "step is 1/fps")
                          ->type_name("F");
    flags.onBadFrameOption =
        command
            .add_option("--on-bad-frame", flags.onBadFrame,
                        what +
                            ": a missing, damaged or mismatched frame (other size or channels) stops the run "
                            "with its name and why (default), or is skipped with a warning")
            ->type_name("stop|skip")
            ->check(CLI::IsMember({"stop", "skip"}));
}
void readSequenceOptions(const SequenceFlags& flags, std::optional<double>& fps, std::optional<std::string>& policy)
{
    if (flags.fpsOption->count())
        fps = parseFps(flags.fps);
    if (flags.onBadFrameOption->count())
        policy = flags.onBadFrame;
}

}  // namespace

/// One --probe value "X,Y": whole pixels from the top-left corner (the frame's size is checked later,
/// when it is known).
glm::ivec2 parseProbePoint(std::string_view text)
{
    const std::size_t comma = text.find(',');
    long long x = 0, y = 0;
    if (comma == std::string_view::npos || parseInt(text.substr(0, comma), x) != IntParse::Ok ||
        parseInt(text.substr(comma + 1), y) != IntParse::Ok)
        throw CliError("--probe " + quoted(text) + " is not X,Y (whole pixels from the top-left corner, e.g. 640,360)");
    if (x < 0 || y < 0 || x >= kMaxFrameSize || y >= kMaxFrameSize)
        throw CliError("--probe " + std::string(text) + " is outside 0.." + std::to_string(kMaxFrameSize - 1) +
                       " on an axis");
    return {int(x), int(y)};
}

std::vector<glm::ivec2> parseProbePoints(const std::vector<std::string>& texts)
{
    if (texts.size() > hd::kMaxProbes)
        throw CliError("--probe is given " + std::to_string(texts.size()) + " times; at most " +
                       std::to_string(hd::kMaxProbes) + " probes");
    std::vector<glm::ivec2> points;
    for (const std::string& text : texts)
        points.push_back(parseProbePoint(text));
    return points;
}

glm::ivec2 parseSize(std::string_view text)
{
    const std::string limits = "width and height must be in 1.." + std::to_string(kMaxFrameSize);
    std::size_t x = text.find_first_of("xX");
    long long width = 0, height = 0;
    IntParse parsedWidth = x == std::string_view::npos ? IntParse::NotANumber : parseInt(text.substr(0, x), width);
    IntParse parsedHeight = x == std::string_view::npos ? IntParse::NotANumber : parseInt(text.substr(x + 1), height);
    if (parsedWidth == IntParse::NotANumber || parsedHeight == IntParse::NotANumber)
        throw CliError("--size " + quoted(text) + " is not WxH (e.g. 1280x720)");
    if (width < 1 || height < 1)
        throw CliError("--size " + quoted(text) + " is empty or negative; " + limits);
    if (width > kMaxFrameSize || height > kMaxFrameSize)
        throw CliError("--size " + quoted(text) + " is too large; width and height must be at most " +
                       std::to_string(kMaxFrameSize));
    return {int(width), int(height)};
}

RangeOption parseRange(std::string_view text)
{
    RangeOption range;
    if (text == "auto") {
        range.automatic = true;
        return range;
    }
    constexpr double kLimit = 128.0;  // beyond float's exponent range the bins would be meaningless
    std::size_t colon = text.find(':');
    double logMin = 0.0, logMax = 0.0;
    if (colon == std::string_view::npos || !parseFloat(text.substr(0, colon), logMin) ||
        !parseFloat(text.substr(colon + 1), logMax))
        throw CliError("--range " + quoted(text) + " is not MIN:MAX (finite log2 luminances, e.g. -10:20) or auto");
    if (!(logMin < logMax))
        throw CliError("--range " + quoted(text) + " is empty; MIN must be below MAX");
    if (logMin < -kLimit || logMax > kLimit)
        throw CliError("--range " + quoted(text) + " is outside -128:128 (log2 luminance)");
    range.logMin = float(logMin);
    range.logMax = float(logMax);
    return range;
}

unsigned validateBins(long long bins)
{
    if (bins < 1 || bins > (long long)hd::kMaxHistogramBins)
        throw CliError("--bins " + std::to_string(bins) + " is outside 1.." + std::to_string(hd::kMaxHistogramBins));
    return unsigned(bins);
}

namespace {

/// The comma lists of `compare` and `bench pipeline`: sizes "WxH[,WxH...]", bins "N[,N...]|all".
std::vector<std::string> split(const std::string& text)
{
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (std::size_t comma = text.find(',');; comma = text.find(',', start)) {
        parts.push_back(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        if (comma == std::string::npos)
            return parts;
        start = comma + 1;
    }
}

/// "N[,N...]" or "all" (64,256,1024,4096): histogram bin counts, each 1..kMaxHistogramBins.
std::vector<unsigned> parseBinList(const std::string& text)
{
    if (text == "all")
        return {64, 256, 1024, 4096};
    std::vector<unsigned> bins;
    for (const std::string& part : split(text))
        bins.push_back(unsigned(parseWholeNumber("--bins", part, 1, hd::kMaxHistogramBins)));
    return bins;
}

void parseBenchPipelineOptions(BenchOptions& bench,
                               const std::string& sizes,
                               const std::string& bins,
                               const std::string& toneOperator,
                               const std::string& range,
                               long long frames,
                               long long warmup)
{
    if (!sizes.empty()) {
        bench.sizes.clear();
        for (const std::string& size : split(sizes))
            bench.sizes.push_back(parseSize(size));
    }
    if (!bins.empty())
        bench.bins = parseBinList(bins);
    if (!toneOperator.empty()) {
        if (toneOperator != "all" && !post::createToneOperator(toneOperator))
            throw CliError("--operator: unknown tone operator " + quoted(std::string_view(toneOperator)) +
                           " (see hdrlab --list, or all)");
        bench.toneOperator = toneOperator;
    }
    if (!range.empty())
        bench.range = parseRange(range);
    if (frames < 1 || frames > kMaxRepeat)
        throw CliError("--frames " + std::to_string(frames) + " is outside 1.." + std::to_string(kMaxRepeat));
    if (warmup < 0 || warmup > kMaxRepeat)
        throw CliError("--warmup " + std::to_string(warmup) + " is outside 0.." + std::to_string(kMaxRepeat));
    bench.frames = unsigned(frames);
    bench.warmup = unsigned(warmup);
}

}  // namespace

ParsedCommandLine parseCommandLine(const std::vector<std::string>& args)
{
    ParsedCommandLine result;
    AppOptions& o = result.app;

    CLI::App cli(
        "hdrlab: real-time HDR post-processing lab (GPU log-luminance histograms, CDF scans, histogram-driven "
        "tone operators, per-pass GPU timings).\nWith a display it opens a window; with --headless (or "
        "without a display) it renders frames off-screen and writes the requested files.",
        "hdrlab");
    cli.option_defaults()->always_capture_default(false);
    cli.set_version_flag("--version",
                         std::string(HDRLAB_VERSION) + " (" + util::gitRevision() + ", " + HDRLAB_BUILD_TYPE + ")");

    std::string scene, sizeText, rangeText, outOfRange, downsampleText, vsyncText = "on", cudaInterop = "map",
                                                                        lightingText;
    std::string screenshot, screenshotExr, windowScreenshot, capture, captureCsv;
    std::string histogramMethod, scanMethod, toneOperator;
    std::string dataDir, logLevel = "info";
    std::string framesText, binsText, captureFramesText, resourceReportText, resizeStormText;
    std::string viewText;
    std::vector<std::string> probeTexts;

    auto* sceneOpt = cli.add_option("--scene", scene,
                                    "Scene file (JSON, or glTF 2.0 .gltf/.glb; docs/SCENE_FORMAT.md); "
                                    "default: the built-in scene")
                         ->type_name("FILE");
    auto* sizeOpt = cli.add_option("--size", sizeText,
                                   "Frame size: window size, or the headless frame (default "
                                   "1280x720)")
                        ->type_name("WxH");
    cli.add_flag("--headless", o.headless, "Render off-screen through EGL, no window (automatic without a display)");
    auto* framesOpt = cli.add_option("--frames", framesText,
                                     "Frames to render, then exit (headless default 300; a window "
                                     "runs until closed)")
                          ->type_name("N");
    auto* screenshotOpt = cli.add_option("--screenshot", screenshot,
                                         "After the last frame, write the display image "
                                         "(tone-mapped, sRGB) as PNG")
                              ->type_name("OUT.png");
    auto* screenshotExrOpt =
        cli.add_option("--screenshot-exr", screenshotExr, "After the last frame, write the HDR scene frame as OpenEXR")
            ->type_name("OUT.exr");
    std::string hdrSequenceOut;
    auto* hdrSequenceOutOpt =
        cli.add_option("--hdr-sequence-out", hdrSequenceOut,
                       "Write every frame's HDR frame as a numbered OpenEXR (a rendered sequence for view and "
                       "tonemap; numbered by frame from 0, or like a sequence's input frames)")
            ->type_name("OUT.%04d.exr");
    auto* windowScreenshotOpt =
        cli.add_option("--window-screenshot", windowScreenshot,
                       "(testing) window mode: PNG of the window's back buffer after the UI pass "
                       "of the last frame");
    windowScreenshotOpt->group("");
    auto* captureOpt = cli.add_option("--capture", capture,
                                      "Write the recorded frames' pass timings as Chrome "
                                      "trace-event JSON (Perfetto, chrome://tracing; '-': "
                                      "standard output)")
                           ->type_name("OUT.json");
    auto* captureCsvOpt = cli.add_option("--capture-csv", captureCsv,
                                         "Write the recorded frames' pass timings as CSV: "
                                         "frame,pass,cpu_ms,gpu_ms,gpu_source ('-': "
                                         "standard output)")
                              ->type_name("OUT.csv");
    auto* captureFramesOpt =
        cli.add_option("--capture-frames", captureFramesText,
                       "Recording keeps the last N frames, 1.." + std::to_string(kMaxCaptureFrames) + " (default " +
                           std::to_string(kDefaultCaptureFrames) +
                           "); older frames are dropped and counted in the capture")
            ->type_name("N");
    cli.add_flag("--ui", o.ui,
                 "Headless: lay the ImGui panels out as a window does and draw them into --screenshot (the frame "
                 "is the viewport they leave); a window always has them");
    cli.add_flag("--hide-ui", o.hideUi,
                 "Start the window with the panels hidden: the picture fills the window (F1 or Tab toggles them)");
    std::string uiScaleText;
    auto* uiScaleOpt = cli.add_option("--ui-scale", uiScaleText,
                                      "Scale of the panels' font and sizes, 0.5..4 (default: the monitor's content "
                                      "scale in a window, 1 headless)")
                           ->type_name("S");
    cli.add_flag("--fixed-step", o.fixedStep,
                 "Window: advance a fixed 1/60 s a frame on the scene's camera path, as headless runs do (the "
                 "window's picture is then the headless one; no free-fly or pan/zoom)");
    cli.add_flag("--list", o.list,
                 "List the histogram methods, scans and tone operators, and whether each can run "
                 "here, then exit");
    cli.add_flag("--verify", o.verify,
                 "Check the last frame against the CPU reference (histogram, CDF, curve); exit "
                 "1 on a mismatch");
    auto* histogramOpt =
        cli.add_option("--histogram-method", histogramMethod, "Histogram method id (see --list)")->type_name("ID");
    auto* scanOpt = cli.add_option("--scan", scanMethod, "Scan (prefix sum) method id (see --list)")->type_name("ID");
    auto* operatorOpt = cli.add_option("--operator", toneOperator, "Tone operator id (see --list)")->type_name("ID");
    auto* binsOpt = cli.add_option("--bins", binsText, "Histogram bins, 1..4096 (default 256)")->type_name("N");
    auto* rangeOpt = cli.add_option("--range", rangeText,
                                    "Histogram range in log2 luminance (EV), e.g. -10:20, or "
                                    "auto (GPU min/max of the frame)")
                         ->type_name("MIN:MAX|auto");
    auto* outOfRangeOpt = cli.add_option("--out-of-range", outOfRange,
                                         "Pixels outside the range: clamp into the end "
                                         "bins (default) or count them separately")
                              ->check(CLI::IsMember({"clamp", "separate"}));
    auto* downsampleOpt = cli.add_option("--downsample", downsampleText,
                                         "Build the histogram from a 1/N box-"
                                         "downsampled frame (default 1)")
                              ->check(CLI::IsMember({"1", "2", "4", "8"}));
    cli.add_option("--vsync", vsyncText, "Window: wait for vertical sync (default on)")
        ->check(CLI::IsMember({"on", "off"}));
    cli.add_option("--cuda-interop", cudaInterop,
                   "How CUDA passes reach GL's frame and buffers: map (cudaGraphicsMapResources per pass) or "
                   "shared (memory shared through Vulkan, GPU semaphores; map where unavailable). Default map")
        ->check(CLI::IsMember({"map", "shared"}));
    SettingsFlags runSettings;
    addSettingsOptions(cli, runSettings);
    auto* lightingOpt = cli.add_option("--lighting", lightingText,
                                       "Scene lighting: deferred (a thin G-buffer, then a compute pass; the "
                                       "default) or forward (shaded in the fragment shader); same picture")
                            ->check(CLI::IsMember({"forward", "deferred"}));
    std::string frameFormatText;
    auto* frameFormatOpt =
        cli.add_option("--frame-format", frameFormatText,
                       "How the scene frame is stored: rgba16f (half floats pre-exposed by 2^k, k from earlier "
                       "frames; what clips is counted; the default), rgba32f (32-bit floats as they are) or auto "
                       "(RGBA32F while the scene's sun or an emitter exceeds half-float range, else RGBA16F)")
            ->type_name("rgba16f|rgba32f|auto")
            ->check(CLI::IsMember({"auto", "rgba32f", "rgba16f"}));
    auto* viewOpt = cli.add_option("--view", viewText,
                                   "Display: the tone-mapped image (default), the false-colour EV view (EV = "
                                   "log2 cd/m^2) or the percentile operator's metering weights (docs/USAGE.md)")
                        ->type_name("tonemapped|false-colour|metering")
                        ->check(CLI::IsMember({"tonemapped", "false-colour", "metering"}));
    // The split view (app/SplitView.h): pipeline B on the same frame, its own settings on top of A's.
    std::string splitText, splitAtText, splitGainText;
    auto* splitOpt = cli.add_option("--split", splitText,
                                    "Split view: a second pipeline (B) on the same frame, side by side with a "
                                    "divider or as the amplified difference |A-B| (default off; docs/USAGE.md)")
                         ->type_name("side-by-side|difference|off")
                         ->check(CLI::IsMember({"side-by-side", "difference", "off"}));
    auto* splitAtOpt =
        cli.add_option("--split-at", splitAtText, "Split view: the divider, 0..1 of the frame width (default 0.5)")
            ->type_name("F");
    auto* splitGainOpt = cli.add_option("--split-gain", splitGainText,
                                        "Split view: the difference view's gain on |A-B| display values, 0..255 "
                                        "(default 4)")
                             ->type_name("G");
    SettingsFlags splitSettings;
    splitSettings.fileOption = cli.add_option("--settings-b", splitSettings.file,
                                              "Split view: a settings file for pipeline B, applied on top of A's "
                                              "settings")
                                   ->type_name("FILE.json");
    cli.add_option("--set-b", splitSettings.assignments,
                   "Split view: set one setting of pipeline B (the keys of --set); repeatable, after --settings-b")
        ->type_name("KEY=VALUE")
        ->allow_extra_args(false);
    cli.add_option("--probe", probeTexts,
                   "Pixel probe at X,Y (pixels from the top-left; repeatable, up to 8): printed after the "
                   "last frame and written into the capture")
        ->type_name("X,Y")
        ->allow_extra_args(false);
    auto* resourceReportOpt = cli.add_option("--resource-report", resourceReportText,
                                             "Every N frames print one line: frame, resident memory, "
                                             "GL objects alive by kind, CUDA allocations (the soak)")
                                  ->type_name("N");
    auto* resizeStormOpt = cli.add_option("--resize-storm", resizeStormText,
                                          "(testing) window mode: STEPS frames of "
                                          "window resizes, iconify and method switches");
    resizeStormOpt->group("");
    addCommonOptions(cli, dataDir, logLevel);

    // Subcommands.
    std::string tmInput, tmOutput, tmRange, tmCurve, tmHistogram, tmView = "tonemapped", tmPreset;
    std::string tmTileWidth = "480";
    std::vector<std::string> tmProbes;
    std::string tmBins = std::to_string(hd::kDefaultHistogramBins);
    CLI::App* tonemap = cli.add_subcommand("tonemap",
                                           "Tone-map an HDR image file (EXR, .hdr, PNG...) on the GPU and "
                                           "write a PNG; or a sequence of frames (a folder, a glob or a %d "
                                           "pattern), one PNG per frame (-o out.%04d.png)");
    tonemap
        ->add_option("input", tmInput,
                     "Input image, or a sequence: a folder, a glob (shots/*.exr) or a pattern "
                     "(shot.%04d.exr)")
        ->required()
        ->type_name("IN");
    tonemap
        ->add_option("--part", result.tonemap.exrPart,
                     "OpenEXR input: the part (index or name), view or layer to read (default: the first with colour)")
        ->type_name("NAME|INDEX");
    auto* tmOutputOpt =
        tonemap->add_option("-o,--output", tmOutput, "Output PNG; for a sequence a numbered name, e.g. out.%04d.png")
            ->required()
            ->type_name("OUT.png");
    tonemap
        ->add_option("--operator", result.tonemap.toneOperator,
                     "Tone operator id (default ward), or all: one contact sheet of every operator")
        ->type_name("ID|all");
    tonemap
        ->add_option("--preset", tmPreset,
                     "The percentile operator with an engine preset (none: without), or all: one contact sheet "
                     "of every preset")
        ->type_name("ID|none|all");
    tonemap
        ->add_option("--sheet-tile-width", tmTileWidth, "Contact sheet: each picture's width, 128..4096 (default 480)")
        ->type_name("N");
    tonemap->add_option("--histogram-method", result.tonemap.histogramMethod, "Histogram method id")->type_name("ID");
    tonemap->add_option("--scan", result.tonemap.scanMethod, "Scan method id")->type_name("ID");
    tonemap->add_option("--bins", tmBins, "Histogram bins, 1..4096 (default 256)")->type_name("N");
    auto* tmRangeOpt = tonemap
                           ->add_option("--range", tmRange,
                                        "Histogram range MIN:MAX in log2 luminance, or auto "
                                        "(default)")
                           ->type_name("MIN:MAX|auto");
    auto* tmCurveOpt =
        tonemap->add_option("--curve-out", tmCurve, "Also write the tone curve as CSV ('-': standard output)")
            ->type_name("CURVE.csv");
    auto* tmHistOpt =
        tonemap->add_option("--histogram-out", tmHistogram, "Also write the histogram as CSV ('-': standard output)")
            ->type_name("HIST.csv");
    std::filesystem::path tmHistogramIn;
    auto* tmHistInOpt =
        tonemap
            ->add_option("--histogram-in", tmHistogramIn,
                         "Use this histogram CSV (as --histogram-out writes it, or log2_lower,log2_upper,count) "
                         "instead of measuring one, for every operator")
            ->type_name("HIST.csv");
    tonemap->add_flag("--verify", result.tonemap.verify, "Check the GPU result against the CPU reference");
    SettingsFlags tmSettings;
    addSettingsOptions(*tonemap, tmSettings);
    tonemap
        ->add_option("--view", tmView,
                     "Write the tone-mapped image (default), the false-colour EV view or the metering weights")
        ->type_name("tonemapped|false-colour|metering")
        ->check(CLI::IsMember({"tonemapped", "false-colour", "metering"}));
    tonemap->add_option("--probe", tmProbes, "Print the pixel probe at X,Y (from the top-left; repeatable, up to 8)")
        ->type_name("X,Y")
        ->allow_extra_args(false);
    SequenceFlags tmSequence;
    addSequenceOptions(*tonemap, tmSequence, "Sequence input");
    std::string tmCapture, tmCaptureCsv;
    auto* tmCaptureOpt = tonemap
                             ->add_option("--capture", tmCapture,
                                          "Sequence input: the frames' pass timings and key values as trace-event "
                                          "JSON ('-': standard output)")
                             ->type_name("OUT.json");
    auto* tmCaptureCsvOpt = tonemap
                                ->add_option("--capture-csv", tmCaptureCsv,
                                             "Sequence input: the frames' pass timings as CSV ('-': standard output)")
                                ->type_name("OUT.csv");
    addCommonOptions(*tonemap, dataDir, logLevel);

    // `view IMAGE`: the live mode on an image; every live flag falls through to the main command.
    std::string viewInput;
    CLI::App* view = cli.add_subcommand("view",
                                        "Run the live pipeline (panels, methods, timings, captures) on an HDR image "
                                        "file (EXR, .hdr, PNG...) instead of a scene, with pan and zoom; takes every "
                                        "option of the live mode (hdrlab --help)");
    view->fallthrough();
    view->add_option("image", viewInput,
                     "Image to show, or a sequence of frames: a folder, a glob (shots/*.exr) or a pattern "
                     "(shot.%04d.exr)")
        ->required()
        ->type_name("IMAGE");
    view->add_option("--part", o.exrPart,
                     "OpenEXR input: the part (index or name), view or layer to read (default: the first with colour)")
        ->type_name("NAME|INDEX");
    SequenceFlags viewSequence;
    addSequenceOptions(*view, viewSequence, "Sequence");

    std::string cmpScene, cmpSize = result.compare.size, cmpCsv, cmpScanCsv, cmpImage;
    std::string cmpBins = std::to_string(hd::kDefaultHistogramBins), cmpRepeat = std::to_string(result.compare.repeat);
    CLI::App* compare = cli.add_subcommand("compare",
                                           "Run every available histogram method and scan on one frame: "
                                           "correctness against the CPU reference and timings");
    auto* cmpSceneOpt =
        compare->add_option("--scene", cmpScene, "Scene file (default: the built-in scene)")->type_name("FILE");
    compare->add_option("--size", cmpSize, "Frame size (default 1280x720)")->type_name("WxH");
    compare
        ->add_option("--bins", cmpBins,
                     "Histogram bins, 1..4096, or a list to sweep, or all = 64,256,1024,4096 (default 256)")
        ->type_name("N[,N...]|all");
    compare->add_option("--repeat", cmpRepeat, "Timed repetitions per method (default 10)")->type_name("K");
    auto* cmpCsvOpt = compare->add_option("--csv", cmpCsv, "Also write the results as CSV ('-': standard output)")
                          ->type_name("OUT.csv");
    std::string cmpChart;
    auto* cmpChartOpt =
        compare->add_option("--chart", cmpChart, "Also draw median build time against bins, per method (log axes)")
            ->type_name("OUT.svg");
    std::vector<std::string> cmpMethods;
    compare->add_option("--methods", cmpMethods, "Only these histogram methods (comma-separated ids; default all)")
        ->delimiter(',')
        ->type_name("ID,...");
    auto* cmpScanCsvOpt =
        compare
            ->add_option("--scan-csv", cmpScanCsv, "Also write the scan methods' results as CSV ('-': standard output)")
            ->type_name("OUT.csv");
    auto* cmpImageOpt =
        compare->add_option("--image", cmpImage, "Compare on an image file instead of a scene frame")->type_name("IN");
    std::string cmpFrameFormat;
    auto* cmpFrameFormatOpt =
        compare
            ->add_option("--frame-format", cmpFrameFormat,
                         "How the scene frame is stored (rgba16f|rgba32f|auto; default: the app's, rgba16f)")
            ->type_name("F")
            ->check(CLI::IsMember({"auto", "rgba32f", "rgba16f"}));
    compare
        ->add_option("--part", result.compare.exrPart,
                     "With --image IN.exr: the part (index or name), view or layer to read")
        ->type_name("NAME|INDEX");
    addCommonOptions(*compare, dataDir, logLevel);

    std::string eqInput, eqOutput;
    std::string eqBlock = std::to_string(result.equalize8.block);
    CLI::App* equalize8 = cli.add_subcommand("equalize8",
                                             "Histogram-equalize an 8-bit image with CUDA (Bugetti's "
                                             "program): histogram, scan, remap");
    equalize8->add_option("input", eqInput, "Input 8-bit image (PNG, JPEG...)")->required()->type_name("IN.png");
    auto* eqOutputOpt = equalize8->add_option("-o,--output", eqOutput, "Output PNG")->required()->type_name("OUT.png");
    equalize8->add_option("--scan", result.equalize8.scan, "CUDA scan id (default cuda-kogge-stone)")->type_name("ID");
    equalize8->add_option("--block", eqBlock, "CUDA block size: 256 or 512 (default 256)")->type_name("N");
    addCommonOptions(*equalize8, dataDir, logLevel);

    std::string benchCsv;
    std::string benchRepeat = std::to_string(result.bench.repeat);
    CLI::App* bench = cli.add_subcommand("bench", "GPU benchmarks timed with CUDA events / GL timer queries");
    bench
        ->add_option("suite", result.bench.suite,
                     "Which: pipeline (the app's frame against the memory floor), flicker (the flicker figure per "
                     "operator and engine preset over the camera path), histogram-factors (what the default GL "
                     "histogram spends its time on, one factor at a time; --repeat runs), or the CUDA suites cuda, "
                     "scan, integral, equalize8, all (default all: every CUDA suite)")
        ->check(CLI::IsMember(
            {"pipeline", "flicker", "histogram-factors", "cuda", "scan", "integral", "equalize8", "all"}));
    auto* benchCsvOpt = bench->add_option("--csv", benchCsv, "Also write the results as CSV")->type_name("OUT.csv");
    std::string benchChart;
    bench->add_option("--repeat", benchRepeat, "CUDA suites: timed repetitions (default 50)")->type_name("K");
    std::string benchSizes, benchBins, benchOperator, benchRange, benchFrameFormat;
    long long benchFrames = result.bench.frames, benchWarmup = result.bench.warmup;
    CLI::Option* benchChartOpt =
        bench->add_option("--chart", benchChart, "pipeline: also draw the chain's time against bins, per path")
            ->type_name("OUT.svg");
    std::vector<CLI::Option*> pipelineOnly{
        benchChartOpt,
        bench->add_option("--size", benchSizes, "pipeline: frame sizes (default 1920x1080)")->type_name("WxH[,WxH...]"),
        bench->add_option("--bins", benchBins, "pipeline: bin counts, or all = 64,256,1024,4096 (default 256)")
            ->type_name("N[,N...]|all"),
        bench->add_option("--operator", benchOperator, "pipeline: tone operator id, or all (default: the app's)")
            ->type_name("ID|all"),
        bench->add_option("--range", benchRange, "pipeline: histogram range (default: the app's)")
            ->type_name("MIN:MAX|auto"),
        bench->add_option("--frames", benchFrames, "pipeline: timed frames per configuration (default 60)")
            ->type_name("N"),
        bench->add_option("--warmup", benchWarmup, "pipeline: frames rendered before the timed ones (default 20)")
            ->type_name("N"),
        bench
            ->add_option("--frame-format", benchFrameFormat,
                         "pipeline, flicker: how the scene frame is stored (rgba16f|rgba32f|auto; default: the app's)")
            ->type_name("F")
            ->check(CLI::IsMember({"auto", "rgba32f", "rgba16f"}))};
    std::string benchSequence;
    CLI::Option* benchSequenceOpt =
        bench
            ->add_option("--sequence", benchSequence,
                         "flicker: run every case on a sequence of HDR frames (a folder, a glob or a %d pattern) "
                         "instead of the camera path")
            ->type_name("FRAMES");
    SequenceFlags benchSequenceFlags;
    addSequenceOptions(*bench, benchSequenceFlags, "flicker --sequence");
    SettingsFlags benchSettings;
    addSettingsOptions(*bench, benchSettings);
    addCommonOptions(*bench, dataDir, logLevel);

    CLI::App* settings =
        cli.add_subcommand("settings", "Every setting's key, type, values and default (--set, --settings)");
    bool settingsList = false;
    settings->add_flag("--list", settingsList, "List every key with its type, range or choices and default");

    cli.require_subcommand(0, 1);
    cli.footer(
        "Subcommands take their own --help, e.g. hdrlab tonemap --help. Every setting has a key for --set "
        "KEY=VALUE and --settings FILE.json: hdrlab settings --list prints them. docs/USAGE.md has examples.");

    std::vector<std::string> reversed(args.rbegin(), args.rend());
    try {
        cli.parse(reversed);

        result.logLevel = kLogLevels.at(logLevel);
        result.common.verbose = result.logLevel == util::LogLevel::Debug;
        if (!dataDir.empty())
            result.common.dataDir = o.dataDir = dataDir;

        if (tonemap->parsed()) {
            result.kind = CommandKind::Tonemap;
            result.tonemap.input = tmInput;
            result.tonemap.output = tmOutput;
            result.tonemap.bins = unsigned(parseWholeNumber("--bins", tmBins, 1, kMaxBins));
            if (tmRangeOpt->count() && !parseRange(tmRange).automatic)
                result.tonemap.range = tmRange;
            if (tmCurveOpt->count())
                result.tonemap.curveOut = tmCurve;
            if (tmHistOpt->count())
                result.tonemap.histogramOut = tmHistogram;
            if (tmHistInOpt->count())
                result.tonemap.histogramIn = tmHistogramIn;
            result.tonemap.settingsFile = settingsFile(tmSettings);
            result.tonemap.settingAssignments = checkedAssignments(tmSettings);
            // The flags given, as keys: re-applied after --settings so that they win over the file.
            if (tonemap->get_option("--operator")->count())
                result.tonemap.flagAssignments.push_back("tonemap.operator=" + result.tonemap.toneOperator);
            if (tonemap->get_option("--histogram-method")->count())
                result.tonemap.flagAssignments.push_back("histogram.method=" + result.tonemap.histogramMethod);
            if (tonemap->get_option("--scan")->count())
                result.tonemap.flagAssignments.push_back("scan.method=" + result.tonemap.scanMethod);
            if (tonemap->get_option("--bins")->count())
                result.tonemap.flagAssignments.push_back("histogram.bins=" + std::to_string(result.tonemap.bins));
            if (tmRangeOpt->count()) {
                const RangeOption range = parseRange(tmRange);
                result.tonemap.flagAssignments.push_back(std::string("histogram.range=") +
                                                         (range.automatic ? "auto" : "manual"));
                if (!range.automatic) {
                    result.tonemap.flagAssignments.push_back("histogram.log_min=" + std::to_string(range.logMin));
                    result.tonemap.flagAssignments.push_back("histogram.log_max=" + std::to_string(range.logMax));
                }
            }
            result.tonemap.view = tmView;
            result.tonemap.probes = parseProbePoints(tmProbes);
            if (tonemap->get_option("--preset")->count()) {
                if (tonemap->get_option("--operator")->count() && result.tonemap.toneOperator != "percentile" &&
                    result.tonemap.toneOperator != "all")
                    throw CliError("--preset runs the percentile operator, not --operator " +
                                   result.tonemap.toneOperator);
                result.tonemap.preset = tmPreset;
            }
            result.tonemap.sheetTileWidth = unsigned(parseWholeNumber("--sheet-tile-width", tmTileWidth, 128, 4096));
            readSequenceOptions(tmSequence, result.tonemap.fps, result.tonemap.onBadFrame);
            if (tmCaptureOpt->count())
                result.tonemap.capture = tmCapture;
            if (tmCaptureCsvOpt->count())
                result.tonemap.captureCsv = tmCaptureCsv;
            result.standardOutputIsData = checkOutputFlags({{tmOutputOpt, &tmOutput, kBinaryImage},
                                                            {tmCurveOpt, &tmCurve, kStreamsText},
                                                            {tmHistOpt, &tmHistogram, kStreamsText},
                                                            {tmCaptureOpt, &tmCapture, kStreamsText},
                                                            {tmCaptureCsvOpt, &tmCaptureCsv, kStreamsText}});
            return result;
        }
        if (compare->parsed()) {
            result.kind = CommandKind::Compare;
            parseSize(cmpSize);
            result.compare.size = cmpSize;
            result.compare.bins = parseBinList(cmpBins);
            result.compare.repeat = unsigned(parseWholeNumber("--repeat", cmpRepeat, 1, kMaxRepeat));
            for (const std::string& id : cmpMethods)
                if (!post::createHistogramMethod(id))
                    throw CliError("--methods: unknown histogram method '" + id + "' (see hdrlab --list)");
            result.compare.methods = cmpMethods;
            if (cmpSceneOpt->count())
                result.compare.scene = cmpScene;
            if (cmpCsvOpt->count())
                result.compare.csv = cmpCsv;
            if (cmpScanCsvOpt->count())
                result.compare.scanCsv = cmpScanCsv;
            if (cmpChartOpt->count())
                result.compare.chart = cmpChart;
            if (cmpImageOpt->count())
                result.compare.image = cmpImage;
            if (cmpFrameFormatOpt->count()) {
                if (result.compare.image)
                    throw CliError("--frame-format applies to the scene, not to --image, which stays RGBA32F");
                result.compare.frameFormat = cmpFrameFormat;
            }
            if (!result.compare.exrPart.empty() && !result.compare.image)
                throw CliError("--part needs --image (it picks the part of an OpenEXR image)");
            result.standardOutputIsData = checkOutputFlags({{cmpCsvOpt, &cmpCsv, kStreamsText},
                                                            {cmpScanCsvOpt, &cmpScanCsv, kStreamsText},
                                                            {cmpChartOpt, &cmpChart, kStreamsText}});
            return result;
        }
        if (equalize8->parsed()) {
            result.kind = CommandKind::Equalize8;
            result.equalize8.input = eqInput;
            result.equalize8.output = eqOutput;
            long long block = parseWholeNumber("--block", eqBlock, 256, 512);
            if (block != 256 && block != 512)
                throw CliError("--block " + eqBlock + " is neither 256 nor 512");
            result.equalize8.block = unsigned(block);
            checkOutputFlags({{eqOutputOpt, &eqOutput, kBinaryImage}});
            return result;
        }
        if (bench->parsed()) {
            result.kind = CommandKind::Bench;
            result.bench.repeat = unsigned(parseWholeNumber("--repeat", benchRepeat, 1, kMaxRepeat));
            if (benchCsvOpt->count())
                result.bench.csv = benchCsv;
            // bench flicker takes the pipeline options that choose what runs (not --bins, --warmup, --chart).
            const bool flicker = result.bench.suite == "flicker";
            if (result.bench.suite != "pipeline")
                for (const CLI::Option* option : pipelineOnly)
                    if (option->count() && !(flicker && option->get_name() != "--bins" &&
                                             option->get_name() != "--warmup" && option != benchChartOpt))
                        throw CliError(option->get_name() + " is an option of 'bench pipeline', not of 'bench " +
                                       result.bench.suite + "'");
            parseBenchPipelineOptions(result.bench, benchSizes, benchBins, benchOperator, benchRange, benchFrames,
                                      benchWarmup);
            for (const CLI::Option* option :
                 {benchSequenceOpt, benchSequenceFlags.fpsOption, benchSequenceFlags.onBadFrameOption})
                if (option->count() && !flicker)
                    throw CliError(option->get_name() + " is an option of 'bench flicker', not of 'bench " +
                                   result.bench.suite + "'");
            if (benchSequenceOpt->count()) {
                if (benchSequence.empty())
                    throw CliError("--sequence needs a folder, a glob or a %d pattern of frames");
                if (bench->get_option("--size")->count())
                    throw CliError("--size does not apply to --sequence, which plays at its frames' own size");
                result.bench.sequence = benchSequence;
                result.bench.framesGiven = bench->get_option("--frames")->count() > 0;
                readSequenceOptions(benchSequenceFlags, result.bench.fps, result.bench.onBadFrame);
            } else if (benchSequenceFlags.fpsOption->count() || benchSequenceFlags.onBadFrameOption->count()) {
                throw CliError("--fps and --on-bad-frame need --sequence");
            }
            if (benchChartOpt->count())
                result.bench.chart = benchChart;
            if (!benchFrameFormat.empty()) {
                if (benchSequenceOpt->count())
                    throw CliError("--frame-format applies to the scene, not to --sequence");
                result.bench.frameFormat = benchFrameFormat;
            }
            result.bench.settingsFile = settingsFile(benchSettings);
            result.bench.settingAssignments = checkedAssignments(benchSettings);
            if (result.bench.suite != "pipeline" && !flicker &&
                (result.bench.settingsFile || !result.bench.settingAssignments.empty()))
                throw CliError("--settings and --set are options of 'bench pipeline', not of 'bench " +
                               result.bench.suite + "'");
            checkOutputFlags({{benchCsvOpt, &benchCsv, kBenchTable}, {benchChartOpt, &benchChart, kBenchTable}});
            return result;
        }

        if (settings->parsed()) {
            if (!settingsList)
                throw CliError("settings needs --list (hdrlab settings --list prints every key)");
            result.kind = CommandKind::Exit;
            result.output = post::formatParameterTable();
            return result;
        }

        result.kind = CommandKind::Run;
        o.noArguments = args.empty();
        if (view->parsed()) {
            if (viewInput.empty())
                throw CliError("view needs an image file name");
            if (sceneOpt->count())
                throw CliError("--scene does not apply to view, which shows IMAGE instead of a scene");
            if (frameFormatOpt->count())
                throw CliError("--frame-format applies to the scene, not to view, which keeps IMAGE in RGBA32F");
            o.viewImage = viewInput;
            readSequenceOptions(viewSequence, o.sequenceFps, o.badFramePolicy);
        }
        if (sceneOpt->count())
            o.sceneFile = scene;
        if (sizeOpt->count())
            o.size = parseSize(sizeText);
        if (framesOpt->count()) {
            // "-1" reads like "until closed" elsewhere; here the window already does that without --frames.
            long long negative = 0;
            if (parseInt(framesText, negative) == IntParse::Ok && negative < 0)
                throw CliError("--frames " + framesText + " is negative; give 0.." + std::to_string(kMaxFrames) +
                               ", or leave --frames out to run a window until it is closed");
            o.frames = int(parseWholeNumber("--frames", framesText, 0, kMaxFrames));
        }
        if (captureFramesOpt->count())
            o.captureFrames = int(parseWholeNumber("--capture-frames", captureFramesText, 1, kMaxCaptureFrames));
        if (resourceReportOpt->count())
            o.resourceReport = int(parseWholeNumber("--resource-report", resourceReportText, 1, kMaxFrames));
        if (resizeStormOpt->count())
            o.resizeStorm = int(parseWholeNumber("--resize-storm", resizeStormText, 1, kMaxFrames));
        if (screenshotOpt->count())
            o.screenshot = screenshot;
        if (screenshotExrOpt->count())
            o.screenshotExr = screenshotExr;
        if (hdrSequenceOutOpt->count())
            o.hdrSequenceOut = hdrSequenceOut;
        if (windowScreenshotOpt->count())
            o.windowScreenshot = windowScreenshot;
        if (captureOpt->count())
            o.capture = capture;
        if (captureCsvOpt->count())
            o.captureCsv = captureCsv;
        if (histogramOpt->count())
            o.histogramMethod = histogramMethod;
        if (scanOpt->count())
            o.scanMethod = scanMethod;
        if (operatorOpt->count())
            o.toneOperator = toneOperator;
        if (binsOpt->count())
            o.bins = unsigned(parseWholeNumber("--bins", binsText, 1, kMaxBins));
        if (rangeOpt->count())
            o.range = parseRange(rangeText);
        if (outOfRangeOpt->count())
            o.outOfRange = outOfRange;
        if (downsampleOpt->count())
            o.downsample = std::stoi(downsampleText);
        o.vsync = vsyncText == "on";
        if (uiScaleOpt->count())
            o.uiScale = float(parseNumberInRange("--ui-scale", uiScaleText, 0.5, 4.0));
        o.cudaInteropShared = cudaInterop == "shared";
        if (lightingOpt->count())
            o.lighting = lightingText;
        if (frameFormatOpt->count())
            o.frameFormat = frameFormatText;
        o.settingsFile = settingsFile(runSettings);
        o.settingAssignments = checkedAssignments(runSettings);
        if (viewOpt->count())
            o.view = viewText;
        o.probes = parseProbePoints(probeTexts);
        if (splitOpt->count())
            o.split = splitText;
        if (splitAtOpt->count())
            o.splitPosition = float(parseNumberInRange("--split-at", splitAtText, 0.0, 1.0));
        if (splitGainOpt->count())
            o.splitGain = float(parseNumberInRange("--split-gain", splitGainText, 0.0, 255.0));
        o.settingsFileB = settingsFile(splitSettings, "--settings-b");
        o.settingAssignmentsB = checkedAssignments(splitSettings, "--set-b");
        const bool splitOn = o.split && *o.split != "off";
        if (!splitOn && (o.splitPosition || o.splitGain || o.settingsFileB || !o.settingAssignmentsB.empty()))
            throw CliError("--split-at, --split-gain, --settings-b and --set-b need --split side-by-side|difference");
        result.standardOutputIsData = checkOutputFlags({{screenshotOpt, &screenshot, kBinaryImage},
                                                        {screenshotExrOpt, &screenshotExr, kBinaryImage},
                                                        {hdrSequenceOutOpt, &hdrSequenceOut, kBinaryImage},
                                                        {windowScreenshotOpt, &windowScreenshot, kBinaryImage},
                                                        {captureOpt, &capture, kStreamsText},
                                                        {captureCsvOpt, &captureCsv, kStreamsText}});
        if (o.hdrSequenceOut)
            checkPatternFlag("--hdr-sequence-out", hdrSequenceOut);
        if (o.windowScreenshot && o.headless)
            throw CliError("--window-screenshot needs a window; it cannot be combined with --headless");
        if (o.resizeStorm && o.headless)
            throw CliError("--resize-storm needs a window; it cannot be combined with --headless");
    } catch (const CLI::CallForHelp& e) {
        std::ostringstream out, err;
        result.exitCode = cli.exit(e, out, err);
        result.output = out.str();
        result.kind = CommandKind::Exit;
    } catch (const CLI::CallForAllHelp& e) {
        std::ostringstream out, err;
        result.exitCode = cli.exit(e, out, err);
        result.output = out.str();
        result.kind = CommandKind::Exit;
    } catch (const CLI::CallForVersion& e) {
        std::ostringstream out, err;
        result.exitCode = cli.exit(e, out, err);
        result.output = out.str();
        result.kind = CommandKind::Exit;
    } catch (const CLI::ParseError& e) {
        result.kind = CommandKind::Exit;
        result.exitCode = 2;
        result.error = explainParseError(e);
    } catch (const CliError& e) {
        result.kind = CommandKind::Exit;
        result.exitCode = 2;
        result.error = e.what();
    }
    return result;
}

}  // namespace app
