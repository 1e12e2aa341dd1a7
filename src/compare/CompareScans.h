// CompareScans.h: the scan part of `hdrlab compare`: every scan method of the registry on one
// histogram (the frame's CPU histogram at the compared bin count), in the current GL context.
//
// For each available method: a warm-up scan, then K timed scans (CUDA events for CUDA methods,
// GL_TIME_ELAPSED queries read after one glFinish at the end, or CPU wall time around glFinish
// where GL timers measure nothing, e.g. llvmpipe), and the result against ref::inclusiveScan:
// exact, or the number of differing elements and the first one. Unavailable methods, and methods
// shorter than the histogram, are listed with their reason. Offline tool: it stalls freely.
#pragma once

#include "post/PostTypes.h"

#include <cstdint>
#include <string>
#include <vector>

namespace app {

struct CompareScanRow
{
    std::string id;
    std::string label;
    std::string backend;
    bool available = true;
    bool failed = false;  ///< a scan threw (shader compile error...): `reason` says what
    std::string reason;   ///< why not, when unavailable or failed
    std::vector<double> scanMs;
    double medianMs = 0.0;
    double minMs = 0.0;
    double maxMs = 0.0;
    std::string timeSource;           ///< "cuda_events", "gl_time_elapsed" or "cpu_wall_glfinish"
    std::uint32_t wrongElements = 0;  ///< elements that differ from the CPU scan
    std::uint32_t firstWrong = 0;     ///< index of the first, when wrongElements > 0
    std::string status;               ///< the method's status line after the scans

    bool exact() const { return available && !failed && wrongElements == 0; }
};

struct CompareScanReport
{
    std::uint32_t length = 0;  ///< elements scanned (the histogram's bins)
    unsigned repeat = 0;
    std::vector<CompareScanRow> rows;
};

/// Scans `values` with every registered scan method, `repeat` timed runs each.
CompareScanReport compareScanMethods(post::PassContext& ctx, const std::vector<std::uint32_t>& values, unsigned repeat);

/// A fixed-width text table, one method per line, unavailable methods with their reason.
std::string formatCompareScanTable(const CompareScanReport& report);
/// The same as CSV (header line, one row per method).
std::string formatCompareScanCsv(const CompareScanReport& report);

}  // namespace app
