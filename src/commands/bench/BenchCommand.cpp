// BenchCommand.cpp: `hdrlab bench`'s flags (commands/bench/BenchCommand.h), which suite takes which,
// and the hand-over to the suite's bench.
#include "commands/bench/BenchCommand.h"

#include "commands/bench/ClaheBench.h"
#include "commands/bench/FusionBench.h"
#include "commands/bench/HistogramFactors.h"
#include "commands/bench/WardFactors.h"
#include "post/tonemap/ToneOperator.h"

#include <CLI/CLI.hpp>

namespace app {

/// What CLI11 fills: the options it binds directly, and the flags read() checks.
struct BenchParser::Flags
{
    CLI::App* command = nullptr;
    BenchOptions bound;
    std::string csv, chart, repeat = std::to_string(BenchOptions{}.repeat);
    std::string sizes, bins, toneOperator, range, frameFormat, sequence;
    long long frames = BenchOptions{}.frames, warmup = BenchOptions{}.warmup;
    SequenceFlags sequenceFlags;
    SettingsFlags settings;
    CLI::Option *csvOption = nullptr, *chartOption = nullptr, *sequenceOption = nullptr;
    std::vector<CLI::Option*> pipelineOnly;  ///< the flags of `bench pipeline` (flicker takes some)
};

namespace {

using Flags = BenchParser::Flags;

/// Every suite: the GL benches, then the CUDA suites.
std::vector<std::string> suiteNames()
{
    std::vector<std::string> names{"pipeline", "flicker", "histogram-factors", "ward-factors", "clahe", "fusion"};
    names.insert(names.end(), kCudaBenchSuites.begin(), kCudaBenchSuites.end());
    return names;
}

/// The flags of `bench pipeline`, some of which `bench flicker` takes too.
void addPipelineFlags(CLI::App& bench, Flags& f)
{
    f.chartOption = bench.add_option("--chart", f.chart, "pipeline: also draw the chain's time against bins, per path")
                        ->type_name("OUT.svg");
    f.pipelineOnly = {
        f.chartOption,
        bench
            .add_option("--size", f.sizes,
                        "pipeline: frame sizes (default 1920x1080); clahe, fusion: image sizes (default "
                        "1920x1080,3840x2160)")
            ->type_name("WxH[,WxH...]"),
        bench.add_option("--bins", f.bins, "pipeline: bin counts, or all = 64,256,1024,4096 (default 256)")
            ->type_name("N[,N...]|all"),
        bench.add_option("--operator", f.toneOperator, "pipeline: tone operator id, or all (default: the app's)")
            ->type_name("ID|all"),
        bench.add_option("--range", f.range, "pipeline: histogram range (default: the app's)")
            ->type_name("MIN:MAX|auto"),
        bench.add_option("--frames", f.frames, "pipeline: timed frames per configuration (default 60)")->type_name("N"),
        bench.add_option("--warmup", f.warmup, "pipeline: frames rendered before the timed ones (default 20)")
            ->type_name("N"),
        bench
            .add_option("--frame-format", f.frameFormat,
                        "pipeline, flicker: how the scene frame is stored (rgba16f|rgba32f|auto; default: the app's)")
            ->type_name("F")
            ->check(CLI::IsMember(frameFormatChoices())),
        bench.add_flag("--peers", f.bound.peers,
                       "pipeline: also time the auto-exposure metering of Bevy, Unreal Engine 5, Unity HDRP and "
                       "Godot 4 on the same frame, and check the engine presets against them")};
}

/// --size, --bins, --operator, --range, --frames and --warmup into `bench`.
void readPipelineFlags(const Flags& f, BenchOptions& bench)
{
    if (!f.sizes.empty()) {
        bench.sizes.clear();
        for (const std::string& size : splitList(f.sizes))
            bench.sizes.push_back(parseSize(size));
    }
    if (!f.bins.empty())
        bench.bins = parseBinList(f.bins);
    if (!f.toneOperator.empty()) {
        if (f.toneOperator != "all" && !post::createToneOperator(f.toneOperator))
            throw CliError("--operator: unknown tone operator " + quoted(std::string_view(f.toneOperator)) +
                           " (see hdrlab --list, or all)");
        bench.toneOperator = f.toneOperator;
    }
    if (!f.range.empty())
        bench.range = parseRange(f.range);
    if (f.frames < 1 || f.frames > kMaxRepeat)
        throw CliError("--frames " + std::to_string(f.frames) + " is outside 1.." + std::to_string(kMaxRepeat));
    if (f.warmup < 0 || f.warmup > kMaxRepeat)
        throw CliError("--warmup " + std::to_string(f.warmup) + " is outside 0.." + std::to_string(kMaxRepeat));
    bench.frames = unsigned(f.frames);
    bench.warmup = unsigned(f.warmup);
}

/// --sequence, --fps and --on-bad-frame: `bench flicker` on a sequence of frames.
void readSequenceFlags(const Flags& f, BenchOptions& bench)
{
    const bool flicker = bench.suite == "flicker";
    for (const CLI::Option* option : {f.sequenceOption, f.sequenceFlags.fpsOption, f.sequenceFlags.onBadFrameOption})
        if (option->count() && !flicker)
            throw CliError(option->get_name() + " is an option of 'bench flicker', not of 'bench " + bench.suite + "'");
    if (f.sequenceOption->count()) {
        if (f.sequence.empty())
            throw CliError("--sequence needs a folder, a glob or a %d pattern of frames");
        if (f.command->get_option("--size")->count())
            throw CliError("--size does not apply to --sequence, which plays at its frames' own size");
        bench.sequence = f.sequence;
        bench.framesGiven = f.command->get_option("--frames")->count() > 0;
        readSequenceOptions(f.sequenceFlags, bench.fps, bench.onBadFrame);
    } else if (f.sequenceFlags.fpsOption->count() || f.sequenceFlags.onBadFrameOption->count()) {
        throw CliError("--fps and --on-bad-frame need --sequence");
    }
}

}  // namespace

BenchParser::BenchParser(CLI::App& cli, CommonFlags& common) : mFlags(std::make_unique<Flags>())
{
    Flags& f = *mFlags;
    CLI::App& bench =
        *(f.command = cli.add_subcommand("bench", "GPU benchmarks timed with CUDA events / GL timer queries"));
    bench
        .add_option(
            "suite", f.bound.suite,
            "Which: pipeline (the app's frame against the memory floor), flicker (the flicker figure per "
            "operator and engine preset over the camera path), histogram-factors (what the default GL "
            "histogram spends its time on, one factor at a time; --repeat runs), ward-factors (what Ward's curve "
            "fit spends its time on: the spread dispatches against the one-workgroup kernel, stage by stage, per "
            "ceiling loop; --repeat runs), clahe (CLAHE on every available backend, 8-bit and 16-bit, against "
            "the CPU reference; --size, --repeat runs), fusion (the fusion local exposure's passes against "
            "the CPU reference; --size, --repeat runs), or the CUDA suites cuda, "
            "scan, integral, equalize8, all (default all: every CUDA suite)")
        ->check(CLI::IsMember(suiteNames()));
    f.csvOption = bench.add_option("--csv", f.csv, "Also write the results as CSV")->type_name("OUT.csv");
    bench.add_option("--repeat", f.repeat, "CUDA suites: timed repetitions (default 50)")->type_name("K");
    addPipelineFlags(bench, f);
    f.sequenceOption =
        bench
            .add_option("--sequence", f.sequence,
                        "flicker: run every case on a sequence of HDR frames (a folder, a glob or a %d pattern) "
                        "instead of the camera path")
            ->type_name("FRAMES");
    addSequenceOptions(bench, f.sequenceFlags, "flicker --sequence");
    addSettingsOptions(bench, f.settings);
    addCommonOptions(bench, common);
}

BenchParser::~BenchParser() = default;

bool BenchParser::parsed() const
{
    return mFlags->command->parsed();
}

BenchOptions BenchParser::read() const
{
    const Flags& f = *mFlags;
    BenchOptions options = f.bound;
    options.repeat = unsigned(parseWholeNumber("--repeat", f.repeat, 1, kMaxRepeat));
    if (f.csvOption->count())
        options.csv = f.csv;
    // bench flicker takes the pipeline options that choose what runs (not --bins, --warmup, --chart).
    const bool flicker = options.suite == "flicker";
    const bool imageSizes = options.suite == "clahe" || options.suite == "fusion";  // they take --size
    if (options.suite != "pipeline")
        for (const CLI::Option* option : f.pipelineOnly)
            if (option->count() &&
                !(flicker && option->get_name() != "--bins" && option->get_name() != "--warmup" &&
                  option->get_name() != "--peers" && option != f.chartOption) &&
                !(imageSizes && option->get_name() == "--size"))
                throw CliError(option->get_name() + " is an option of 'bench pipeline', not of 'bench " +
                               options.suite + "'");
    readPipelineFlags(f, options);
    if (imageSizes && f.sizes.empty())
        options.sizes = {{1920, 1080}, {3840, 2160}};
    readSequenceFlags(f, options);
    if (f.chartOption->count())
        options.chart = f.chart;
    if (!f.frameFormat.empty()) {
        if (f.sequenceOption->count())
            throw CliError("--frame-format applies to the scene, not to --sequence");
        options.frameFormat = f.frameFormat;
    }
    options.settingsFile = settingsFile(f.settings);
    options.settingAssignments = checkedAssignments(f.settings);
    if (options.suite != "pipeline" && !flicker && (options.settingsFile || !options.settingAssignments.empty()))
        throw CliError("--settings and --set are options of 'bench pipeline', not of 'bench " + options.suite + "'");
    checkOutputFlags({{f.csvOption, &f.csv, kBenchTable, ".csv"}, {f.chartOption, &f.chart, kBenchTable, ".svg"}});
    return options;
}

AppOptions benchAppOptions(const CommonOptions& common, const BenchOptions& options)
{
    AppOptions app;
    app.headless = true;
    app.size = options.sizes.front();
    app.frames = 0;
    app.vsync = false;
    app.dataDir = common.dataDir;
    app.range = options.range;
    app.frameFormat = options.frameFormat;
    app.settingsFile = options.settingsFile;
    app.settingAssignments = options.settingAssignments;
    return app;
}

int runBenchCommand(const CommonOptions& common, const BenchOptions& options)
{
    if (options.suite == "pipeline")
        return runBenchPipeline(common, options);
    if (options.suite == "flicker")
        return runBenchFlicker(common, options);
    if (options.suite == "histogram-factors")
        return runHistogramFactorsCommand(common.dataDir, int(options.repeat), options.csv);
    if (options.suite == "ward-factors")
        return runWardFactorsCommand(common.dataDir, int(options.repeat), options.csv);
    if (options.suite == "clahe")
        return runClaheBench(common, options.sizes, int(options.repeat), options.csv);
    if (options.suite == "fusion")
        return runFusionBench(common, options.sizes, int(options.repeat), options.csv);
    return runCudaBenchSuites(common, options);
}

}  // namespace app
