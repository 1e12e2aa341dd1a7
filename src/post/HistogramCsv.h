// HistogramCsv.h: histograms as CSV files, in and out (`tonemap --histogram-in`, `--histogram-out`).
//
// Read: the file `--histogram-out` writes ("bin,log2_lower,log2_upper,count" rows, then the NaN/Inf/
// ... counters, then for Ward the "ward_bin" rows and "ward,value" keys of its own adaptation
// histogram), or a plain "log2_lower,log2_upper,count" table from another tool (the header line is
// optional). log2 is of luminance in scene units (the histogram axis). Bins must be contiguous and of
// equal width (the pipeline's histograms are); counts finite and non-negative, with a positive total.
// Every problem is one std::invalid_argument line naming the file and the line.
//
// What each operator makes of it: the pipeline's histogram (percentile, equalize) is the table itself
// (integer counts as they are; others scaled to integers by one power of two, said in `note`); Ward
// takes its own section when present (the exact histogram its curve was made from, so a
// --histogram-out / --histogram-in round trip gives the same curve bit for bit), else the table
// through pcond's -I rule (ref::pcondHistogramFromBins).
#pragma once

#include "tone/PcondView.h"
#include "tone/ToneSettings.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace post {

/// A histogram that replaces the measured one (PostPipeline::setFedHistogram).
struct FedHistogram
{
    float logMin = 0.0f;  ///< log2 of the lower edge of bin 0 (scene units)
    float logMax = 0.0f;  ///< log2 of the upper edge of the last bin
    std::vector<std::uint32_t> counts;
    int scaleLog2 = 0;  ///< counts were multiplied by 2^scaleLog2 and rounded (0: as in the file)
};

/// Ward's adaptation histogram as its fit starts from it (ToneWard::feedHistogram).
struct WardFedHistogram
{
    WardSampling fit = WardSampling::Pcond;  ///< Frame: the float fit (WardCurve.comp); Pcond: the double fit
    std::vector<double> bins;  ///< Frame: counts before the bottom-bin duplication; Pcond: bwhist as mkbrmap starts
    double bwmin = 0.0;        ///< ln cd/m^2
    double bwmax = 0.0;
    double bwavg = 0.0;
    double histot = 0.0;
    double lwmin = 0.0;  ///< cd/m^2
    double lwmax = 0.0;
    bool duplicated = false;
    bool valid = false;
};

struct HistogramFile
{
    FedHistogram histogram;
    /// The table's bins as (log2 lower edge, count) in the file's values, for pcond's -I rule.
    std::vector<std::pair<double, double>> lowerEdges;
    std::optional<WardFedHistogram> ward;  ///< the file's Ward section, when it has one
};

/// A pcond-rule histogram (ref::pcondHistogram, ref::pcondHistogramFromBins) for the double fit.
WardFedHistogram wardFedHistogramOf(const ref::PcondHistogram& histogram);

/// Parses a histogram CSV; `name` is used in messages. Throws std::invalid_argument (one line).
HistogramFile parseHistogramCsv(std::string_view text, const std::string& name);
/// Reads and parses a file (errors name it).
HistogramFile readHistogramCsv(const std::filesystem::path& path);

/// The Ward section `--histogram-out` appends (starts with an empty line); `sceneScale` converts its
/// ln cd/m^2 edges to the log2 scene units of the other columns.
std::string wardHistogramCsvSection(const WardFedHistogram& ward, double sceneScale);

}  // namespace post
