// ClaheBench.h: `hdrlab bench clahe`: every available CLAHE backend (commands/clahe/ClaheBackends.h:
// gl, cuda, cpu) on a photo-like synthetic grey image (a dim smooth scene, a bright window, grain:
// most values in a narrow band, as in photographs, which is what makes histogram atomics collide) at
// each size (default 1920x1080 and 3840x2160), 8-bit and 16-bit, OpenCV's defaults (8x8 tiles, clip
// limit 40). Each backend runs once (its result compared with the CPU reference: the `exact` column),
// then warm-up runs, then --repeat timed runs back to back without transfers (GL timestamps per pass,
// CUDA events through ClaheProgram::rerun, the CPU clock; the CPU reference at most kCpuRuns times);
// the medians per pass and the total's median and minimum are printed as a markdown table with the
// issue's targets, and written as CSV (scripts/perf_table.py makes the PERF table's CLAHE rows of it).
#pragma once

#include "commands/CommonOptions.h"

#include <glm/vec2.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace app {

struct ClaheBenchRow
{
    glm::ivec2 size{0};
    int bits = 8;
    std::string backend;
    std::string device;
    double histogramUs = 0.0, lutUs = 0.0, blendUs = 0.0;  ///< medians
    double totalUs = 0.0, minTotalUs = 0.0;                ///< median and minimum of the runs' totals
    double launchFloorUs = 0.0;  ///< CUDA: median of an empty kernel between two events (0: not measured)
    int runs = 0;
    bool exact = false;              ///< the first run's image equals the CPU reference's
    std::optional<double> targetUs;  ///< issue 33's target for this backend, size and depth, if any
    std::string error;               ///< not run: unavailable, or failed
};

/// Issue 33's targets (H200): 8-bit 4K 25 us (GL) / 20 us (CUDA), 8-bit 1080p 10 us, 16-bit 4K 250 us.
std::optional<double> claheTargetUs(const std::string& backend, glm::ivec2 size, int bits);

/// The synthetic photo-like image (deterministic), `bits` 8 or 16.
std::vector<std::uint16_t> claheBenchImage(glm::ivec2 size, int bits);

std::vector<ClaheBenchRow> measureClaheBackends(const CommonOptions& common,
                                                const std::vector<glm::ivec2>& sizes,
                                                int runs);

std::string formatClaheBenchTable(const std::vector<ClaheBenchRow>& rows);
std::string formatClaheBenchCsv(const std::vector<ClaheBenchRow>& rows);

/// `hdrlab bench clahe [--size WxH,...] [--repeat N] [--csv OUT.csv]`; 0, or 1 when a backend that is
/// available failed or differed from the reference.
int runClaheBench(const CommonOptions& common,
                  const std::vector<glm::ivec2>& sizes,
                  int runs,
                  const std::optional<std::filesystem::path>& csv);

}  // namespace app
