// TonemapParser.cpp: `hdrlab tonemap`'s flags (commands/tonemap/TonemapCommand.h): the subcommand and
// its flags on the command line, and their checked values as TonemapOptions.
#include "commands/tonemap/TonemapCommand.h"

#include "shared/HostDevice.h"

#include <CLI/CLI.hpp>

namespace app {

/// What CLI11 fills: the options it binds directly, and the flags read() checks.
struct TonemapParser::Flags
{
    CLI::App* command = nullptr;
    TonemapOptions bound;
    std::string input, output, range, curve, histogram, view = "tonemapped", preset, histogramMethod;
    std::string tileWidth = "480";
    std::string bins = std::to_string(hd::kDefaultHistogramBins);
    std::vector<std::string> probes;
    std::filesystem::path histogramIn;
    std::string hdrExr;
    std::string capture, captureCsv;
    SettingsFlags settings;
    SequenceFlags sequence;
    CLI::Option *outputOption = nullptr, *rangeOption = nullptr, *curveOption = nullptr, *histogramOption = nullptr,
                *histogramInOption = nullptr, *hdrExrOption = nullptr, *captureOption = nullptr,
                *captureCsvOption = nullptr;
};

namespace {

using Flags = TonemapParser::Flags;

/// IN, -o, --part and what runs: the operator or preset (a contact sheet of them), methods, bins, range.
void addPipelineFlags(CLI::App& tonemap, Flags& f)
{
    tonemap
        .add_option("input", f.input,
                    "Input image, or a sequence: a folder, a glob (shots/*.exr) or a pattern "
                    "(shot.%04d.exr)")
        ->required()
        ->type_name("IN");
    tonemap
        .add_option("--part", f.bound.exrPart,
                    "OpenEXR input: the part (index or name), view or layer to read (default: the first with colour)")
        ->type_name("NAME|INDEX");
    f.outputOption =
        tonemap.add_option("-o,--output", f.output, "Output PNG; for a sequence a numbered name, e.g. out.%04d.png")
            ->required()
            ->type_name("OUT.png");
    tonemap
        .add_option("--operator", f.bound.toneOperator,
                    "Tone operator id (default ward), or all: one contact sheet of every operator")
        ->type_name("ID|all");
    tonemap
        .add_option("--preset", f.preset,
                    "The percentile operator with an engine preset (none: without), or all: one contact sheet "
                    "of every preset")
        ->type_name("ID|none|all");
    tonemap
        .add_option("--sheet-tile-width", f.tileWidth, "Contact sheet: each picture's width, 128..4096 (default 480)")
        ->type_name("N");
    tonemap.add_option("--histogram-method", f.histogramMethod, "Histogram method id")->type_name("ID");
    tonemap.add_option("--scan", f.bound.scanMethod, "Scan method id")->type_name("ID");
    tonemap.add_option("--bins", f.bins, "Histogram bins, 1..4096 (default 256)")->type_name("N");
    f.rangeOption = tonemap
                        .add_option("--range", f.range,
                                    "Histogram range MIN:MAX in log2 luminance, or auto "
                                    "(default)")
                        ->type_name("MIN:MAX|auto");
}

/// The files beside the picture, --verify, the settings, the view and the probes, the sequence's flags.
void addOutputFlags(CLI::App& tonemap, Flags& f)
{
    f.curveOption =
        tonemap.add_option("--curve-out", f.curve, "Also write the tone curve as CSV ('-': standard output)")
            ->type_name("CURVE.csv");
    f.histogramOption =
        tonemap.add_option("--histogram-out", f.histogram, "Also write the histogram as CSV ('-': standard output)")
            ->type_name("HIST.csv");
    f.histogramInOption =
        tonemap
            .add_option("--histogram-in", f.histogramIn,
                        "Use this histogram CSV (as --histogram-out writes it, or log2_lower,log2_upper,count) "
                        "instead of measuring one, for every operator")
            ->type_name("HIST.csv");
    f.hdrExrOption = tonemap
                         .add_option("--hdr-exr", f.hdrExr,
                                     "With --set display.target=hdr10: also write the display light, linear BT.2020 "
                                     "cd/m^2, as a float OpenEXR")
                         ->type_name("OUT.exr");
    tonemap.add_flag("--verify", f.bound.verify, "Check the GPU result against the CPU reference");
    addSettingsOptions(tonemap, f.settings);
    tonemap
        .add_option("--view", f.view,
                    "Write the tone-mapped image (default), the false-colour EV view or the metering weights")
        ->type_name(
            "tonemapped|false-colour|metering|local-gain|local-tiles|local-base|local-blurred|local-detail|local-"
            "exposure")
        ->check(CLI::IsMember(viewModeChoices()));
    tonemap.add_option("--probe", f.probes, "Print the pixel probe at X,Y (from the top-left; repeatable, up to 8)")
        ->type_name("X,Y")
        ->allow_extra_args(false);
    addSequenceOptions(tonemap, f.sequence, "Sequence input");
    f.captureOption = tonemap
                          .add_option("--capture", f.capture,
                                      "Sequence input: the frames' pass timings and key values as trace-event "
                                      "JSON ('-': standard output)")
                          ->type_name("OUT.json");
    f.captureCsvOption = tonemap
                             .add_option("--capture-csv", f.captureCsv,
                                         "Sequence input: the frames' pass timings as CSV ('-': standard output)")
                             ->type_name("OUT.csv");
}

/// The dedicated flags given, as keys, re-applied after --settings so that they win over the file
/// (--histogram-method is kept typed: TonemapOptions::histogramMethod).
std::vector<std::string> flagAssignments(const Flags& f, const TonemapOptions& options)
{
    std::vector<std::string> keys;
    if (f.command->get_option("--operator")->count())
        keys.push_back("tonemap.operator=" + options.toneOperator);
    if (f.command->get_option("--scan")->count())
        keys.push_back("scan.method=" + options.scanMethod);
    if (f.command->get_option("--bins")->count())
        keys.push_back("histogram.bins=" + std::to_string(options.bins));
    if (f.rangeOption->count()) {
        const RangeOption range = parseRange(f.range);
        keys.push_back(std::string("histogram.range=") + (range.automatic ? "auto" : "manual"));
        if (!range.automatic) {
            keys.push_back("histogram.log_min=" + std::to_string(range.logMin));
            keys.push_back("histogram.log_max=" + std::to_string(range.logMax));
        }
    }
    return keys;
}

}  // namespace

TonemapParser::TonemapParser(CLI::App& cli, CommonFlags& common) : mFlags(std::make_unique<Flags>())
{
    mFlags->command = cli.add_subcommand("tonemap",
                                         "Tone-map an HDR image file (EXR, .hdr, PNG...) on the GPU and "
                                         "write a PNG; or a sequence of frames (a folder, a glob or a %d "
                                         "pattern), one PNG per frame (-o out.%04d.png)");
    addPipelineFlags(*mFlags->command, *mFlags);
    addOutputFlags(*mFlags->command, *mFlags);
    addCommonOptions(*mFlags->command, common);
}

TonemapParser::~TonemapParser() = default;

bool TonemapParser::parsed() const
{
    return mFlags->command->parsed();
}

TonemapOptions TonemapParser::read(bool& standardOutputIsData) const
{
    const Flags& f = *mFlags;
    TonemapOptions options = f.bound;
    options.input = f.input;
    options.output = f.output;
    options.bins = unsigned(parseWholeNumber("--bins", f.bins, 1, hd::kMaxHistogramBins));
    if (f.rangeOption->count() && !parseRange(f.range).automatic)
        options.range = f.range;
    if (f.curveOption->count())
        options.curveOut = f.curve;
    if (f.histogramOption->count())
        options.histogramOut = f.histogram;
    if (f.histogramInOption->count())
        options.histogramIn = f.histogramIn;
    if (f.hdrExrOption->count())
        options.hdrExr = f.hdrExr;
    options.settingsFile = settingsFile(f.settings);
    options.settingAssignments = checkedAssignments(f.settings);
    if (f.command->get_option("--histogram-method")->count())
        options.histogramMethod = f.histogramMethod;
    options.flagAssignments = flagAssignments(f, options);
    options.view = f.view;
    options.probes = parseProbePoints(f.probes);
    if (f.command->get_option("--preset")->count()) {
        if (f.command->get_option("--operator")->count() && options.toneOperator != "percentile" &&
            options.toneOperator != "all")
            throw CliError("--preset runs the percentile operator, not --operator " + options.toneOperator);
        options.preset = f.preset;
    }
    options.sheetTileWidth = unsigned(parseWholeNumber("--sheet-tile-width", f.tileWidth, 128, 4096));
    readSequenceOptions(f.sequence, options.fps, options.onBadFrame);
    if (f.captureOption->count())
        options.capture = f.capture;
    if (f.captureCsvOption->count())
        options.captureCsv = f.captureCsv;
    standardOutputIsData = checkOutputFlags({{f.outputOption, &f.output, kBinaryImage, ".png"},
                                             {f.hdrExrOption, &f.hdrExr, kBinaryImage, ".exr"},
                                             {f.curveOption, &f.curve, kStreamsText, ".csv"},
                                             {f.histogramOption, &f.histogram, kStreamsText, ".csv"},
                                             {f.captureOption, &f.capture, kStreamsText, ".json"},
                                             {f.captureCsvOption, &f.captureCsv, kStreamsText, ".csv"}});
    return options;
}

}  // namespace app
