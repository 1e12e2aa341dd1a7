// Commands.h: hdrlab's subcommands besides the live/headless app. Each returns the process exit
// code and prints one clear error line (and returns nonzero) on bad input.
#pragma once

#include "app/AppOptions.h"

#include <glm/vec2.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace app {

/// Options every command shares.
struct CommonOptions
{
    std::optional<std::filesystem::path> dataDir;  ///< --data-dir
    bool verbose = false;
};

/// `hdrlab tonemap IN -o OUT.png [--part NAME|INDEX] [--operator ID|all] [--preset ID|none|all] [--bins N]
///  [--range MIN:MAX] [--histogram-method ID] [--scan ID] [--curve-out CURVE.csv] [--histogram-out HIST.csv]`
struct TonemapOptions
{
    std::filesystem::path input;
    std::string exrPart;  ///< OpenEXR part, view or layer; "" = the first with colour channels
    std::filesystem::path output;
    std::string toneOperator = "ward";
    std::string histogramMethod = "compute-shared-atomic";
    std::string scanMethod = "compute-scan";
    unsigned bins = 256;
    std::optional<std::string> range;  ///< "MIN:MAX" in log2 units (EV); automatic when absent
    std::optional<std::filesystem::path> curveOut;
    std::optional<std::filesystem::path> histogramOut;
    /// A histogram CSV that replaces the measured one for every operator (post/HistogramCsv.h).
    std::optional<std::filesystem::path> histogramIn;
    bool verify = false;
    // settings as data (post/PipelineParameters.h)
    std::optional<std::filesystem::path> settingsFile;  ///< --settings FILE.json, applied after the defaults
    std::vector<std::string> flagAssignments;           ///< the dedicated flags given, as KEY=VALUE (after the file)
    std::vector<std::string> settingAssignments;        ///< --set KEY=VALUE, last, in command-line order
    std::string view = "tonemapped";                    ///< --view tonemapped|false-colour
    std::vector<glm::ivec2> probes;                     ///< --probe X,Y: pixels from the top-left
    // every operator or preset on one sheet (commands/tonemap/TonemapAll.h): toneOperator "all" or preset "all"
    std::optional<std::string> preset;  ///< --preset ID|none|all: the percentile operator with an engine preset
    unsigned sheetTileWidth = 480;      ///< --sheet-tile-width: the contact sheet's pictures, pixels wide
    // a sequence of frames (commands/tonemap/TonemapSequence.cpp): -o holds a frame number, e.g. out.%04d.png
    std::optional<double> fps;                        ///< --fps F (default 24)
    std::optional<std::string> onBadFrame;            ///< --on-bad-frame stop|skip (default stop)
    std::optional<std::filesystem::path> capture;     ///< --capture OUT.json
    std::optional<std::filesystem::path> captureCsv;  ///< --capture-csv OUT.csv
};
int runTonemapCommand(const CommonOptions& common, const TonemapOptions& options);
/// Whether `tonemap` runs on a sequence: its input names one, or a sequence-only flag was given.
bool usesSequenceOptions(const TonemapOptions& options);
/// `tonemap SEQUENCE -o OUT.%04d.png` (commands/tonemap/TonemapSequence.cpp): the live pipeline headless on the
/// frames, one PNG each; a sequence-only flag on one image is an error.
int runTonemapSequence(const CommonOptions& common, const TonemapOptions& options);

/// `hdrlab compare [--scene FILE] [--size WxH] [--bins N[,N...]] [--repeat K] [--csv OUT.csv]
///  [--chart OUT.svg]`
struct CompareOptions
{
    std::optional<std::filesystem::path> scene;
    std::string size = "1280x720";
    std::vector<unsigned> bins{256};  ///< one comparison per bin count, in this order
    unsigned repeat = 10;
    std::optional<std::filesystem::path> csv;
    std::optional<std::filesystem::path> scanCsv;  ///< the scan methods' table as CSV
    std::optional<std::filesystem::path> chart;    ///< SVG: median time against bins, one line per method
    std::optional<std::string> image;              ///< compare on an image file instead of a scene frame
    std::string exrPart;                           ///< OpenEXR part, view or layer of `image`
    std::vector<std::string> methods;              ///< histogram method ids to run; empty = all
    std::optional<std::string> frameFormat;        ///< --frame-format (default scene::kDefaultFrameFormat)
};
int runCompareCommand(const CommonOptions& common, const CompareOptions& options);

/// `hdrlab equalize8 IN.png -o OUT.png --scan ID --block 256|512` (Bugetti's CUDA program)
struct Equalize8Options
{
    std::filesystem::path input;
    std::filesystem::path output;
    std::string scan = "cuda-kogge-stone";
    unsigned block = 256;
};
int runEqualize8Command(const CommonOptions& common, const Equalize8Options& options);

/// `hdrlab bench [pipeline|cuda|scan|integral|equalize8|all] [--csv OUT.csv]`: GPU benchmarks.
/// `pipeline` times the app's own frame stage by stage against the memory floor (every build, llvmpipe
/// included); the other suites time the CUDA kernels alone with CUDA events ("all": every CUDA suite).
struct BenchOptions
{
    std::string suite = "all";
    std::optional<std::filesystem::path> csv;
    std::optional<std::filesystem::path> chart;  ///< pipeline: SVG of the chain's time against bins, per path
    unsigned repeat = 50;                        ///< CUDA suites: timed runs per case
    // bench pipeline
    std::vector<glm::ivec2> sizes{{1920, 1080}};  ///< --size WxH[,WxH...]
    std::vector<unsigned> bins{256};              ///< --bins N[,N...]
    std::optional<std::string> toneOperator;      ///< --operator ID (default: every operator)
    std::optional<RangeOption> range;             ///< --range MIN:MAX|auto (default: the app's range)
    unsigned frames = 60;                         ///< --frames: timed frames per configuration
    unsigned warmup = 20;                         ///< --warmup: frames rendered before the timed ones
    std::optional<std::string> frameFormat;       ///< --frame-format auto|rgba32f|rgba16f (default: the app's)
    // settings as data (post/PipelineParameters.h)
    std::optional<std::filesystem::path> settingsFile;  ///< --settings FILE.json (the app's settings to start from)
    std::vector<std::string> settingAssignments;        ///< --set KEY=VALUE (after --settings)
    // bench flicker on a sequence of frames instead of the camera path
    std::optional<std::filesystem::path> sequence;  ///< --sequence FRAMES (a folder, glob or %d pattern)
    std::optional<double> fps;                      ///< --fps F (default 24)
    std::optional<std::string> onBadFrame;          ///< --on-bad-frame stop|skip
    bool framesGiven = false;                       ///< --frames was given (a sequence plays once through without)
};
/// Runs the suite: `pipeline` here, the others through runCudaBenchSuites.
int runBenchCommand(const CommonOptions& common, const BenchOptions& options);
/// `hdrlab bench pipeline` (commands/bench/BenchPipelineCommand.cpp).
int runBenchPipeline(const CommonOptions& common, const BenchOptions& options);
/// The headless app a `bench pipeline` or `bench flicker` case runs: the first --size, no frames of
/// its own (the bench drives them), no vsync, --range, --settings and --set.
AppOptions benchAppOptions(const CommonOptions& common, const BenchOptions& options);
/// `hdrlab bench flicker` (commands/bench/BenchFlickerCommand.cpp): the flicker figure per operator and preset.
int runBenchFlicker(const CommonOptions& common, const BenchOptions& options);
/// The CUDA suites (commands/bench/BenchCommand.cpp; commands/CudaCommandsFallback.cpp without the CUDA backend).
int runCudaBenchSuites(const CommonOptions& common, const BenchOptions& options);

}  // namespace app
