// TonemapCommand.h: `hdrlab tonemap IN -o OUT.png`: its options, its command line (the subcommand and
// its flags, commands/tonemap/TonemapCommand.cpp) and its run: one image through the GPU pipeline
// (commands/tonemap/TonemapCore.h), every operator or preset on one contact sheet
// (commands/tonemap/TonemapAll.h), or a sequence of frames through the live pipeline headless
// (commands/tonemap/TonemapSequence.cpp).
#pragma once

#include "commands/CommandFlags.h"
#include "commands/CommonOptions.h"
#include "post/PipelineSettings.h"
#include "shared/HostDevice.h"

#include <glm/vec2.hpp>

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace app {

/// `hdrlab tonemap IN -o OUT.png [--part NAME|INDEX] [--operator ID|all] [--preset ID|none|all] [--bins N]
///  [--range MIN:MAX] [--histogram-method ID] [--scan ID] [--curve-out CURVE.csv] [--histogram-out HIST.csv]`
struct TonemapOptions
{
    std::filesystem::path input;
    std::string exrPart;  ///< OpenEXR part, view or layer; "" = the first with colour channels
    std::filesystem::path output;
    std::string toneOperator = post::PipelineSettings{}.toneOperator;  ///< the pipeline's default
    /// --histogram-method ID; absent: the pipeline's default (post::PipelineSettings). Applied after
    /// --settings too, so that it wins over the file.
    std::optional<std::string> histogramMethod;
    std::string scanMethod = "compute-scan";
    unsigned bins = hd::kDefaultHistogramBins;
    std::optional<std::string> range;  ///< "MIN:MAX" in log2 units (EV); automatic when absent
    std::optional<std::filesystem::path> curveOut;
    std::optional<std::filesystem::path> histogramOut;
    /// A histogram CSV that replaces the measured one for every operator (post/HistogramCsv.h).
    std::optional<std::filesystem::path> histogramIn;
    /// --hdr-exr OUT.exr: with display.target hdr10, the display light (linear BT.2020 cd/m^2) as float EXR.
    std::optional<std::filesystem::path> hdrExr;
    bool verify = false;
    // settings as data (post/PipelineParameters.h)
    std::optional<std::filesystem::path> settingsFile;  ///< --settings FILE.json, applied after the defaults
    std::vector<std::string> flagAssignments;     ///< the other dedicated flags given, as KEY=VALUE (after the file)
    std::vector<std::string> settingAssignments;  ///< --set KEY=VALUE, last, in command-line order
    std::string view = "tonemapped";              ///< --view tonemapped|false-colour
    std::vector<glm::ivec2> probes;               ///< --probe X,Y: pixels from the top-left
    // every operator or preset on one sheet (commands/tonemap/TonemapAll.h): toneOperator "all" or preset "all"
    std::optional<std::string> preset;  ///< --preset ID|none|all: the percentile operator with an engine preset
    unsigned sheetTileWidth = 480;      ///< --sheet-tile-width: the contact sheet's pictures, pixels wide
    // a sequence of frames (commands/tonemap/TonemapSequence.cpp): -o holds a frame number, e.g. out.%04d.png
    std::optional<double> fps;                        ///< --fps F (default 24)
    std::optional<std::string> onBadFrame;            ///< --on-bad-frame stop|skip (default stop)
    std::optional<std::filesystem::path> capture;     ///< --capture OUT.json
    std::optional<std::filesystem::path> captureCsv;  ///< --capture-csv OUT.csv
};

/// The `tonemap` subcommand on the command line: the constructor adds it and its flags to `cli`; once
/// CLI11 has parsed, read() checks the flags and gives the options.
class TonemapParser
{
public:
    TonemapParser(CLI::App& cli, CommonFlags& common);
    ~TonemapParser();
    TonemapParser(const TonemapParser&) = delete;
    TonemapParser& operator=(const TonemapParser&) = delete;

    /// Whether the command line named `tonemap`.
    bool parsed() const;
    /// The checked options; throws CliError. Sets `standardOutputIsData` when an output is "-".
    TonemapOptions read(bool& standardOutputIsData) const;

    struct Flags;  ///< what CLI11 fills (TonemapParser.cpp)

private:
    std::unique_ptr<Flags> mFlags;
};

/// Runs `tonemap`: one image (or a selection) on a headless context, or a sequence. Returns the exit code.
int runTonemapCommand(const CommonOptions& common, const TonemapOptions& options);
/// Whether `tonemap` runs on a sequence: its input names one, or a sequence-only flag was given.
bool usesSequenceOptions(const TonemapOptions& options);
/// `tonemap SEQUENCE -o OUT.%04d.png` (commands/tonemap/TonemapSequence.cpp): the live pipeline headless on the
/// frames, one PNG each; a sequence-only flag on one image is an error.
int runTonemapSequence(const CommonOptions& common, const TonemapOptions& options);

}  // namespace app
