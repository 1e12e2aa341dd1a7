// FusionBench.h: `hdrlab bench fusion`: the fusion local exposure (post/localexposure/ExposureFusion.h)
// on a synthetic HDR frame (RGBA16F: a dim wall, a window 8 EV brighter, grain) at each size (default
// 1920x1080 and 3840x2160), with Unreal's template contrast scales (0.8, 0.8) and the default reduction
// (4). Each size runs once (its adjustment map compared with the CPU reference: the `exact` column),
// then warm-up runs, then --repeat timed runs back to back (GL timestamps around each sub-pass: reduce,
// pyramid, collapse); the medians per sub-pass and the total's median and minimum are printed as a
// markdown table with issue 34's target (4K: 150 us) and written as CSV (scripts/perf_table.py makes
// the PERF table's fusion rows of it).
#pragma once

#include "commands/CommonOptions.h"

#include <glm/vec2.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace app {

struct FusionBenchRow
{
    glm::ivec2 size{0};
    std::string format = "rgba16f";
    int reduction = 0;
    int levels = 0;
    glm::ivec2 mapSize{0};
    std::string device;
    double reduceUs = 0.0, pyramidUs = 0.0, collapseUs = 0.0;  ///< medians
    double totalUs = 0.0, minTotalUs = 0.0;                    ///< median and minimum of the runs' totals
    int runs = 0;
    bool exact = false;              ///< the first run's map equals the CPU reference's
    std::optional<double> targetUs;  ///< issue 34's target (4K: 150 us)
    std::string error;               ///< not run: failed
};

std::optional<double> fusionTargetUs(glm::ivec2 size);

std::string formatFusionBenchTable(const std::vector<FusionBenchRow>& rows);
std::string formatFusionBenchCsv(const std::vector<FusionBenchRow>& rows);

/// `hdrlab bench fusion [--size WxH,...] [--repeat N] [--csv OUT.csv]`; 0, or 1 when a size failed or
/// differed from the reference.
int runFusionBench(const CommonOptions& common,
                   const std::vector<glm::ivec2>& sizes,
                   int runs,
                   const std::optional<std::filesystem::path>& csv);

}  // namespace app
