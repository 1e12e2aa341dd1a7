// Commands.h: hdrlab's subcommands besides the live/headless app. Each returns the process exit
// code and prints one clear error line (and returns nonzero) on bad input.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace app {

/// Options every command shares.
struct CommonOptions
{
    std::optional<std::filesystem::path> dataDir; ///< --data-dir
    bool verbose = false;
};

/// `hdrlab tonemap IN -o OUT.png [--operator ID] [--bins N] [--range MIN:MAX] [--histogram-method ID]
///  [--scan ID] [--curve-out CURVE.csv] [--histogram-out HIST.csv]`
struct TonemapOptions
{
    std::filesystem::path input;
    std::filesystem::path output;
    std::string toneOperator = "ward";
    std::string histogramMethod = "compute-shared-atomic";
    std::string scanMethod = "compute-scan";
    unsigned bins = 256;
    std::optional<std::string> range; ///< "MIN:MAX" in log2 units (EV); automatic when absent
    std::optional<std::filesystem::path> curveOut;
    std::optional<std::filesystem::path> histogramOut;
    bool verify = false;
};
int runTonemapCommand(const CommonOptions& common, const TonemapOptions& options);

/// `hdrlab compare [--scene FILE] [--size WxH] [--bins N] [--repeat K] [--csv OUT.csv]`
struct CompareOptions
{
    std::optional<std::filesystem::path> scene;
    std::string size = "1280x720";
    unsigned bins = 256;
    unsigned repeat = 10;
    std::optional<std::filesystem::path> csv;
    std::optional<std::string> image; ///< compare on an image file instead of a scene frame
    std::vector<std::string> methods; ///< histogram method ids to run; empty = all
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

/// `hdrlab bench [cuda|scan|integral|equalize8|all] [--csv OUT.csv]`: GPU benchmarks (CUDA events / timer queries)
struct BenchOptions
{
    std::string suite = "all";
    std::optional<std::filesystem::path> csv;
    unsigned repeat = 50;
};
int runBenchCommand(const CommonOptions& common, const BenchOptions& options);

} // namespace app
