#include "app/Cli.h"

#include "post/histogram/HistogramMethod.h"
#include "shared/HostDevice.h"
#include "util/BuildInfo.h"

#include <CLI/CLI.hpp>

#include <charconv>
#include <cmath>
#include <map>
#include <sstream>

namespace app {
namespace {

constexpr long long kMaxFrames = 10'000'000;
constexpr long long kMaxRepeat = 100'000;

const std::map<std::string, util::LogLevel> kLogLevels = {
    {"debug", util::LogLevel::Debug},     {"info", util::LogLevel::Info},   {"warning", util::LogLevel::Warning},
    {"error", util::LogLevel::Error},     {"quiet", util::LogLevel::Quiet},
};

bool parseInt(std::string_view text, long long& value)
{
    if (text.empty())
        return false;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return ec == std::errc() && end == text.data() + text.size();
}

bool parseFloat(std::string_view text, float& value)
{
    if (text.empty())
        return false;
    // std::from_chars for float is in GCC 12's libstdc++; istringstream keeps this portable.
    std::istringstream in{std::string(text)};
    in >> value;
    return in && in.peek() == std::char_traits<char>::eof() && std::isfinite(value);
}

std::string quoted(std::string_view text)
{
    return "'" + std::string(text) + "'";
}

/// --data-dir and --log-level, accepted before and after a subcommand.
void addCommonOptions(CLI::App& command, std::string& dataDir, std::string& logLevel)
{
    command.add_option("--data-dir", dataDir, "Folder holding hdrlab's shaders/, scenes/ and assets/ (default: found "
                                              "beside the executable, or $HDRLAB_DATA_DIR)")
        ->type_name("DIR");
    command.add_option("--log-level", logLevel, "Messages on stderr: debug, info, warning, error or quiet (default info)")
        ->check(CLI::IsMember({"debug", "info", "warning", "error", "quiet"}));
}

} // namespace

glm::ivec2 parseSize(std::string_view text)
{
    std::size_t x = text.find_first_of("xX");
    long long width = 0, height = 0;
    if (x == std::string_view::npos || !parseInt(text.substr(0, x), width) || !parseInt(text.substr(x + 1), height))
        throw CliError("size " + quoted(text) + " is not WxH (e.g. 1280x720)");
    if (width < 1 || height < 1)
        throw CliError("size " + quoted(text) + " is empty; width and height must be at least 1");
    if (width > kMaxFrameSize || height > kMaxFrameSize)
        throw CliError("size " + quoted(text) + " is too large; width and height must be at most " +
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
    std::size_t colon = text.find(':');
    if (colon == std::string_view::npos || !parseFloat(text.substr(0, colon), range.logMin) ||
        !parseFloat(text.substr(colon + 1), range.logMax))
        throw CliError("range " + quoted(text) + " is not MIN:MAX (log2 luminance, e.g. -10:20) or auto");
    if (!(range.logMin < range.logMax))
        throw CliError("range " + quoted(text) + " is empty; MIN must be below MAX");
    constexpr float kLimit = 128.0f; // beyond float's exponent range the bins would be meaningless
    if (range.logMin < -kLimit || range.logMax > kLimit)
        throw CliError("range " + quoted(text) + " is outside -128:128 (log2 luminance)");
    return range;
}

unsigned validateBins(long long bins)
{
    if (bins < 1 || bins > (long long)hd::kMaxHistogramBins)
        throw CliError("bins " + std::to_string(bins) + " is outside 1.." + std::to_string(hd::kMaxHistogramBins));
    return unsigned(bins);
}

ParsedCommandLine parseCommandLine(const std::vector<std::string>& args)
{
    ParsedCommandLine result;
    AppOptions& o = result.app;

    CLI::App cli("hdrlab: real-time HDR post-processing lab (GPU log-luminance histograms, CDF scans, histogram-driven "
                 "tone operators, per-pass GPU timings).\nWith a display it opens a window; with --headless (or "
                 "without a display) it renders frames off-screen and writes the requested files.",
                 "hdrlab");
    cli.option_defaults()->always_capture_default(false);
    cli.set_version_flag("--version", std::string(HDRLAB_VERSION) + " (" + util::gitRevision() + ", " +
                                          HDRLAB_BUILD_TYPE + ")");

    std::string scene, sizeText, rangeText, outOfRange, downsampleText, vsyncText = "on";
    std::string screenshot, screenshotExr, windowScreenshot, capture, captureCsv;
    std::string histogramMethod, scanMethod, toneOperator;
    std::string dataDir, logLevel = "info";
    long long frames = 0, bins = 0, resourceReport = 0, resizeStorm = 0;

    auto* sceneOpt = cli.add_option("--scene", scene, "Scene file (JSON, docs/SCENE_FORMAT.md); default: the built-in "
                                                      "scene")->type_name("FILE");
    auto* sizeOpt = cli.add_option("--size", sizeText, "Frame size: window size, or the headless frame (default "
                                                       "1280x720)")->type_name("WxH");
    cli.add_flag("--headless", o.headless, "Render off-screen through EGL, no window (automatic without a display)");
    auto* framesOpt = cli.add_option("--frames", frames, "Frames to render, then exit (headless default 300; a window "
                                                         "runs until closed)")->type_name("N");
    auto* screenshotOpt = cli.add_option("--screenshot", screenshot, "After the last frame, write the display image "
                                                                     "(tone-mapped, sRGB) as PNG")->type_name("OUT.png");
    auto* screenshotExrOpt =
        cli.add_option("--screenshot-exr", screenshotExr, "After the last frame, write the HDR scene frame as OpenEXR")
            ->type_name("OUT.exr");
    auto* windowScreenshotOpt = cli.add_option("--window-screenshot", windowScreenshot,
                                               "(testing) window mode: PNG of the window's back buffer after the UI pass "
                                               "of the last frame");
    windowScreenshotOpt->group("");
    auto* captureOpt = cli.add_option("--capture", capture, "Write the recorded frames' pass timings as Chrome "
                                                            "trace-event JSON (Perfetto, chrome://tracing)")
                           ->type_name("OUT.json");
    auto* captureCsvOpt = cli.add_option("--capture-csv", captureCsv, "Write the recorded frames' pass timings as CSV: "
                                                                      "frame,pass,cpu_ms,gpu_ms,gpu_source")
                              ->type_name("OUT.csv");
    cli.add_flag("--ui", o.ui, "Draw the ImGui panels into headless output (--screenshot); a window always has them");
    cli.add_flag("--hide-ui", o.hideUi, "Start the window with the panels hidden (F1 toggles them)");
    cli.add_flag("--list", o.list, "List the histogram methods, scans and tone operators, and whether each can run "
                                   "here, then exit");
    cli.add_flag("--verify", o.verify, "Check the last frame against the CPU reference (histogram, CDF, curve); exit "
                                       "1 on a mismatch");
    auto* histogramOpt = cli.add_option("--histogram-method", histogramMethod, "Histogram method id (see --list)")
                             ->type_name("ID");
    auto* scanOpt = cli.add_option("--scan", scanMethod, "Scan (prefix sum) method id (see --list)")->type_name("ID");
    auto* operatorOpt = cli.add_option("--operator", toneOperator, "Tone operator id (see --list)")->type_name("ID");
    auto* binsOpt = cli.add_option("--bins", bins, "Histogram bins, 1..4096 (default 256)")->type_name("N");
    auto* rangeOpt = cli.add_option("--range", rangeText, "Histogram range in log2 luminance (EV), e.g. -10:20, or "
                                                          "auto (GPU min/max of the frame)")->type_name("MIN:MAX|auto");
    auto* outOfRangeOpt = cli.add_option("--out-of-range", outOfRange, "Pixels outside the range: clamp into the end "
                                                                       "bins (default) or count them separately")
                              ->check(CLI::IsMember({"clamp", "separate"}));
    auto* downsampleOpt = cli.add_option("--downsample", downsampleText, "Build the histogram from a 1/N box-"
                                                                         "downsampled frame (default 1)")
                              ->check(CLI::IsMember({"1", "2", "4", "8"}));
    cli.add_option("--vsync", vsyncText, "Window: wait for vertical sync (default on)")
        ->check(CLI::IsMember({"on", "off"}));
    auto* resourceReportOpt = cli.add_option("--resource-report", resourceReport,
                                             "Every N frames print one line: frame, resident memory, "
                                             "GL objects alive by kind, CUDA allocations (the soak)")
                                  ->type_name("N");
    auto* resizeStormOpt = cli.add_option("--resize-storm", resizeStorm,
                                          "(testing) window mode: STEPS frames of "
                                          "window resizes, iconify and method switches");
    resizeStormOpt->group("");
    addCommonOptions(cli, dataDir, logLevel);

    // Subcommands.
    std::string tmInput, tmOutput, tmRange, tmCurve, tmHistogram;
    long long tmBins = hd::kDefaultHistogramBins;
    CLI::App* tonemap = cli.add_subcommand("tonemap", "Tone-map an HDR image file (EXR, .hdr, PNG...) on the GPU and "
                                                      "write a PNG");
    tonemap->add_option("input", tmInput, "Input image")->required()->type_name("IN");
    tonemap->add_option("-o,--output", tmOutput, "Output PNG")->required()->type_name("OUT.png");
    tonemap->add_option("--operator", result.tonemap.toneOperator, "Tone operator id (default ward)")
        ->type_name("ID");
    tonemap->add_option("--histogram-method", result.tonemap.histogramMethod, "Histogram method id")->type_name("ID");
    tonemap->add_option("--scan", result.tonemap.scanMethod, "Scan method id")->type_name("ID");
    tonemap->add_option("--bins", tmBins, "Histogram bins, 1..4096 (default 256)")->type_name("N");
    auto* tmRangeOpt = tonemap->add_option("--range", tmRange, "Histogram range MIN:MAX in log2 luminance, or auto "
                                                               "(default)")->type_name("MIN:MAX|auto");
    auto* tmCurveOpt =
        tonemap->add_option("--curve-out", tmCurve, "Also write the tone curve as CSV")->type_name("CURVE.csv");
    auto* tmHistOpt = tonemap->add_option("--histogram-out", tmHistogram, "Also write the histogram as CSV")
                          ->type_name("HIST.csv");
    tonemap->add_flag("--verify", result.tonemap.verify, "Check the GPU result against the CPU reference");
    addCommonOptions(*tonemap, dataDir, logLevel);

    std::string cmpScene, cmpSize = result.compare.size, cmpCsv, cmpImage;
    long long cmpBins = hd::kDefaultHistogramBins, cmpRepeat = result.compare.repeat;
    CLI::App* compare = cli.add_subcommand("compare", "Run every available histogram method and scan on one frame: "
                                                      "correctness against the CPU reference and timings");
    auto* cmpSceneOpt =
        compare->add_option("--scene", cmpScene, "Scene file (default: the built-in scene)")->type_name("FILE");
    compare->add_option("--size", cmpSize, "Frame size (default 1280x720)")->type_name("WxH");
    compare->add_option("--bins", cmpBins, "Histogram bins, 1..4096 (default 256)")->type_name("N");
    compare->add_option("--repeat", cmpRepeat, "Timed repetitions per method (default 10)")->type_name("K");
    auto* cmpCsvOpt = compare->add_option("--csv", cmpCsv, "Also write the results as CSV")->type_name("OUT.csv");
    std::vector<std::string> cmpMethods;
    compare->add_option("--methods", cmpMethods, "Only these histogram methods (comma-separated ids; default all)")
        ->delimiter(',')
        ->type_name("ID,...");
    auto* cmpImageOpt = compare->add_option("--image", cmpImage, "Compare on an image file instead of a scene frame")
                            ->type_name("IN");
    addCommonOptions(*compare, dataDir, logLevel);

    std::string eqInput, eqOutput;
    long long eqBlock = result.equalize8.block;
    CLI::App* equalize8 = cli.add_subcommand("equalize8", "Histogram-equalize an 8-bit image with CUDA (Bugetti's "
                                                          "program): histogram, scan, remap");
    equalize8->add_option("input", eqInput, "Input 8-bit image (PNG, JPEG...)")->required()->type_name("IN.png");
    equalize8->add_option("-o,--output", eqOutput, "Output PNG")->required()->type_name("OUT.png");
    equalize8->add_option("--scan", result.equalize8.scan, "CUDA scan id (default cuda-kogge-stone)")->type_name("ID");
    equalize8->add_option("--block", eqBlock, "CUDA block size: 256 or 512 (default 256)")
        ->check(CLI::IsMember({256, 512}));
    addCommonOptions(*equalize8, dataDir, logLevel);

    std::string benchCsv;
    long long benchRepeat = result.bench.repeat;
    CLI::App* bench = cli.add_subcommand("bench", "GPU benchmarks timed with CUDA events / GL timer queries");
    bench->add_option("suite", result.bench.suite, "Which: cuda, scan, integral, equalize8 or all (default all)")
        ->check(CLI::IsMember({"cuda", "scan", "integral", "equalize8", "all"}));
    auto* benchCsvOpt = bench->add_option("--csv", benchCsv, "Also write the results as CSV")->type_name("OUT.csv");
    bench->add_option("--repeat", benchRepeat, "Timed repetitions (default 50)")->type_name("K");
    addCommonOptions(*bench, dataDir, logLevel);

    cli.require_subcommand(0, 1);
    cli.footer("Subcommands take their own --help, e.g. hdrlab tonemap --help. docs/USAGE.md has examples.");

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
            result.tonemap.bins = validateBins(tmBins);
            if (tmRangeOpt->count() && !parseRange(tmRange).automatic)
                result.tonemap.range = tmRange;
            if (tmCurveOpt->count())
                result.tonemap.curveOut = tmCurve;
            if (tmHistOpt->count())
                result.tonemap.histogramOut = tmHistogram;
            return result;
        }
        if (compare->parsed()) {
            result.kind = CommandKind::Compare;
            parseSize(cmpSize);
            result.compare.size = cmpSize;
            result.compare.bins = validateBins(cmpBins);
            if (cmpRepeat < 1 || cmpRepeat > kMaxRepeat)
                throw CliError("--repeat " + std::to_string(cmpRepeat) + " is outside 1.." + std::to_string(kMaxRepeat));
            result.compare.repeat = unsigned(cmpRepeat);
            for (const std::string& id : cmpMethods)
                if (!post::createHistogramMethod(id))
                    throw CliError("--methods: unknown histogram method '" + id + "' (see hdrlab --list)");
            result.compare.methods = cmpMethods;
            if (cmpSceneOpt->count())
                result.compare.scene = cmpScene;
            if (cmpCsvOpt->count())
                result.compare.csv = cmpCsv;
            if (cmpImageOpt->count())
                result.compare.image = cmpImage;
            return result;
        }
        if (equalize8->parsed()) {
            result.kind = CommandKind::Equalize8;
            result.equalize8.input = eqInput;
            result.equalize8.output = eqOutput;
            result.equalize8.block = unsigned(eqBlock);
            return result;
        }
        if (bench->parsed()) {
            result.kind = CommandKind::Bench;
            if (benchRepeat < 1 || benchRepeat > kMaxRepeat)
                throw CliError("--repeat " + std::to_string(benchRepeat) + " is outside 1.." + std::to_string(kMaxRepeat));
            result.bench.repeat = unsigned(benchRepeat);
            if (benchCsvOpt->count())
                result.bench.csv = benchCsv;
            return result;
        }

        result.kind = CommandKind::Run;
        o.noArguments = args.empty();
        if (sceneOpt->count())
            o.sceneFile = scene;
        if (sizeOpt->count())
            o.size = parseSize(sizeText);
        if (framesOpt->count()) {
            if (frames < 0 || frames > kMaxFrames)
                throw CliError("--frames " + std::to_string(frames) + " is outside 0.." + std::to_string(kMaxFrames));
            o.frames = int(frames);
        }
        if (resourceReportOpt->count()) {
            if (resourceReport < 1 || resourceReport > kMaxFrames)
                throw CliError("--resource-report " + std::to_string(resourceReport) + " is outside 1.." +
                               std::to_string(kMaxFrames));
            o.resourceReport = int(resourceReport);
        }
        if (resizeStormOpt->count()) {
            if (resizeStorm < 1 || resizeStorm > kMaxFrames)
                throw CliError("--resize-storm " + std::to_string(resizeStorm) + " is outside 1.." +
                               std::to_string(kMaxFrames));
            o.resizeStorm = int(resizeStorm);
        }
        if (screenshotOpt->count())
            o.screenshot = screenshot;
        if (screenshotExrOpt->count())
            o.screenshotExr = screenshotExr;
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
            o.bins = validateBins(bins);
        if (rangeOpt->count())
            o.range = parseRange(rangeText);
        if (outOfRangeOpt->count())
            o.outOfRange = outOfRange;
        if (downsampleOpt->count())
            o.downsample = std::stoi(downsampleText);
        o.vsync = vsyncText == "on";
        const std::pair<CLI::Option*, const std::string*> outputs[] = {
            {screenshotOpt, &screenshot}, {screenshotExrOpt, &screenshotExr}, {windowScreenshotOpt, &windowScreenshot},
            {captureOpt, &capture}, {captureCsvOpt, &captureCsv}};
        for (const auto& [option, path] : outputs)
            if (option->count() && path->empty())
                throw CliError(option->get_name() + " needs a file name");
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
        result.error = e.what();
    } catch (const CliError& e) {
        result.kind = CommandKind::Exit;
        result.exitCode = 2;
        result.error = e.what();
    }
    return result;
}

} // namespace app
