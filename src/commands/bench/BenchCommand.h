// BenchCommand.h: `hdrlab bench [SUITE]`: its options, its command line (the subcommand and its flags)
// and its run (commands/bench/BenchCommand.cpp), which hands the suite to its bench: `pipeline`
// (BenchPipelineCommand.cpp: the app's frame stage by stage against the memory floor), `flicker`
// (BenchFlickerCommand.cpp: the flicker figure per operator and preset), `histogram-factors`
// (HistogramFactors.cpp: the default GL histogram one factor at a time), `ward-factors`
// (WardFactors.cpp: Ward's curve fit stage by stage), `clahe` (ClaheBench.cpp: CLAHE per backend), `fusion`
// (FusionBench.cpp: the fusion local exposure) or the CUDA suites (BenchCudaSuites.cpp; without the CUDA backend
// commands/CudaCommandsFallback.cpp says so).
#pragma once

#include "app/AppOptions.h"
#include "commands/CommandFlags.h"
#include "commands/CommonOptions.h"
#include "shared/HostDevice.h"

#include <glm/vec2.hpp>

#include <array>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace app {

/// The CUDA suites of `bench`, in the order its help names them ("all": every one of them); the
/// GL benches `pipeline`, `flicker`, `histogram-factors` and `ward-factors` come before them.
inline constexpr std::array<const char*, 5> kCudaBenchSuites{"cuda", "scan", "integral", "equalize8", "all"};

/// `hdrlab bench [pipeline|flicker|histogram-factors|ward-factors|clahe|fusion|cuda|scan|integral|equalize8|all] [--csv
/// OUT.csv]`: GPU benchmarks. `pipeline` times the app's own frame stage by stage against the memory floor (every
/// build, llvmpipe included); the other suites time the CUDA kernels alone with CUDA events ("all": every CUDA suite).
struct BenchOptions
{
    std::string suite = "all";
    std::optional<std::filesystem::path> csv;
    std::optional<std::filesystem::path> chart;  ///< pipeline: SVG of the chain's time against bins, per path
    unsigned repeat = 50;                        ///< CUDA suites: timed runs per case
    // bench pipeline
    std::vector<glm::ivec2> sizes{{1920, 1080}};            ///< --size WxH[,WxH...] (clahe/fusion: 1080p, 4K)
    std::vector<unsigned> bins{hd::kDefaultHistogramBins};  ///< --bins N[,N...]
    std::optional<std::string> toneOperator;                ///< --operator ID (default: every operator)
    std::optional<RangeOption> range;                       ///< --range MIN:MAX|auto (default: the app's range)
    unsigned frames = 60;                                   ///< --frames: timed frames per configuration
    unsigned warmup = 20;                                   ///< --warmup: frames rendered before the timed ones
    std::optional<std::string> frameFormat;  ///< --frame-format auto|rgba32f|rgba16f (default: the app's)
    bool peers = false;  ///< --peers: the engines' metering on the same frame (commands/bench/peers/PeerBench.h)
    // settings as data (post/PipelineParameters.h)
    std::optional<std::filesystem::path> settingsFile;  ///< --settings FILE.json (the app's settings to start from)
    std::vector<std::string> settingAssignments;        ///< --set KEY=VALUE (after --settings)
    // bench flicker on a sequence of frames instead of the camera path
    std::optional<std::filesystem::path> sequence;  ///< --sequence FRAMES (a folder, glob or %d pattern)
    std::optional<double> fps;                      ///< --fps F (default 24)
    std::optional<std::string> onBadFrame;          ///< --on-bad-frame stop|skip
    bool framesGiven = false;                       ///< --frames was given (a sequence plays once through without)
};

/// The `bench` subcommand on the command line: the constructor adds it and its flags to `cli`; once
/// CLI11 has parsed, read() checks the flags (which suite takes which) and gives the options.
class BenchParser
{
public:
    BenchParser(CLI::App& cli, CommonFlags& common);
    ~BenchParser();
    BenchParser(const BenchParser&) = delete;
    BenchParser& operator=(const BenchParser&) = delete;

    /// Whether the command line named `bench`.
    bool parsed() const;
    /// The checked options; throws CliError.
    BenchOptions read() const;

    struct Flags;  ///< what CLI11 fills (BenchCommand.cpp)

private:
    std::unique_ptr<Flags> mFlags;
};

/// Runs the suite: `pipeline`, `flicker`, `histogram-factors`, `ward-factors`, `clahe` and `fusion` here, the others
/// through runCudaBenchSuites.
int runBenchCommand(const CommonOptions& common, const BenchOptions& options);
/// `hdrlab bench pipeline` (commands/bench/BenchPipelineCommand.cpp).
int runBenchPipeline(const CommonOptions& common, const BenchOptions& options);
/// The headless app a `bench pipeline` or `bench flicker` case runs: the first --size, no frames of
/// its own (the bench drives them), no vsync, --range, --settings and --set.
AppOptions benchAppOptions(const CommonOptions& common, const BenchOptions& options);
/// `hdrlab bench flicker` (commands/bench/BenchFlickerCommand.cpp): the flicker figure per operator and preset.
int runBenchFlicker(const CommonOptions& common, const BenchOptions& options);
/// The CUDA suites (commands/bench/BenchCudaSuites.cpp; commands/CudaCommandsFallback.cpp without the CUDA backend).
int runCudaBenchSuites(const CommonOptions& common, const BenchOptions& options);

}  // namespace app
