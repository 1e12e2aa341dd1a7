// TimingRows.h: the timings table's content, apart from drawing it (ui/TimingsPanel draws it).
//
// The rows are the passes that still run, as a tree: depth first, siblings in the order they ran in the
// latest frame, each child directly under the scope that enclosed it when it ran (so a pass that starts
// late, such as "scene/shadowNear", still sits under "scene"), and labelled with the part of its name
// after its parent's ("curve" under "tonemap/ward"). A pass that neither ran nor was marked cached in
// the last Profiler::kStaleFrames frames leaves the table. Times are milliseconds as the profiler
// measured them; each row keeps its time source (GL timer query, CUDA event, or the CPU fallback).
// Limits: a name that runs under two different parents in one frame is shown once, under the parent of
// its last run.
#pragma once

#include "profiling/Profiler.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace profiling {

struct TimingRow
{
    std::string name;   ///< the pass's full name ("tonemap/ward/curve")
    std::string label;  ///< what the table shows: the name after its parent's ("curve"), or the full name
    int depth = 0;      ///< 0 at the top level
    TimeSource source = TimeSource::GlTimerQuery;
    util::Summary gpu;                ///< ms over the rolling window; count 0 while the statistics warm up
    bool cached = false;              ///< in its latest frame the pass reused an earlier result
    std::optional<double> lastGpuMs;  ///< the latest time measured, warm-up frames included
};

/// The rows for `passes` (Profiler::passStats(), in its order) as of `latestFrame`; empty when no frame
/// has arrived. Passes last seen `staleFrames` or more frames before `latestFrame` are left out.
std::vector<TimingRow> timingRows(const std::vector<PassStats>& passes,
                                  std::optional<std::uint64_t> latestFrame,
                                  int staleFrames = Profiler::kStaleFrames);
std::vector<TimingRow> timingRows(const Profiler& profiler);

/// The unit a table of `rows` reads best in: microseconds when every mean is below 1 ms (GPU passes on
/// a fast card), milliseconds otherwise.
enum class TimeUnit { Milliseconds, Microseconds };
TimeUnit tableUnit(const std::vector<TimingRow>& rows);
/// tableUnit with a margin, so the unit does not flip every few frames about 1 ms: from µs to ms
/// when a mean reaches 1 ms, back to µs only when every mean is below kBackToMicroseconds ms; rows
/// without samples (warming up) keep `previous`.
inline constexpr double kBackToMicroseconds = 0.8;
TimeUnit tableUnit(const std::vector<TimingRow>& rows, TimeUnit previous);
std::string_view unitName(TimeUnit unit);  ///< "ms", "µs" (UTF-8)

/// `ms` in `unit`, at most 4 characters below 10 000: three significant digits from 1 up ("627", "62.7",
/// "6.27"), two decimals below ("0.24"; the table switches to µs when every mean is below 1 ms).
/// Above 1000 all the integer digits ("1227").
std::string formatTime(double ms, TimeUnit unit);

/// The table's column headers, each time column with its unit ("mean ms", or "mean\nms" with '\n' as
/// `separator` for a narrow two-line header): "pass", mean, min, max, then last and std dev when
/// `lastAndStd`, then "src" (the time source).
std::vector<std::string> timingHeaders(TimeUnit unit, bool lastAndStd, char separator = ' ');

/// A row's cells as the table shows them, in `unit`. A cached row says "cached" in the mean column and
/// leaves the rest empty (nothing ran); a row still warming up says "-" there.
struct TimingCells
{
    std::string mean, min, max, last, stddev;
    std::string_view source;  ///< sourceTag(), empty for a cached row
};
TimingCells timingCells(const TimingRow& row, TimeUnit unit);

/// The short tag of the source column: "G" (GL timer query), "C" (CUDA event), "cpu" (CPU fallback).
std::string_view sourceTag(TimeSource source);
/// The one-line legend of those tags.
std::string_view sourceLegend();

}  // namespace profiling
