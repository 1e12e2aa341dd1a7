// Capture.h: writers for the Profiler's recorded frames (presentation of measurements, no GL).
//
//  - Chrome trace-event JSON (opens in Perfetto, ui.perfetto.dev, and chrome://tracing):
//    {"traceEvents": [...], "displayTimeUnit": "ms", "otherData": {metadata}}, one complete event
//    ("ph":"X", ts/dur in microseconds) per pass and frame on a CPU track, and one on a GPU track
//    (placed by its GL timestamp when known, else under the CPU event); args carry the frame index and
//    the GPU time source; otherData also holds recorded_frames and dropped_frames (frames the
//    recording ring dropped before the first one written); with key values (the tone operator's key
//    value per frame, EV: post/ExposureHistory.h), a counter event ("ph":"C", name "key value (EV)",
//    args {"ev": value}) at the start of each recorded frame that has one (a track in Perfetto).
//  - CSV, one row per frame and pass: frame,pass,cpu_ms,gpu_ms,gpu_source.
//  - A per-pass summary (frames, mean/median/min/max GPU ms, time source) and its text table.
// Every file goes through util::writeTextOutput: written atomically (a reader never sees a half-written
// capture), or to standard output for "-".
#pragma once

#include "profiling/Profiler.h"

#include <cstdint>
#include <deque>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace profiling {

/// Key/value pairs describing the run; written into the trace's "otherData" in this order.
using CaptureMetadata = std::vector<std::pair<std::string, std::string>>;

/// Metadata keys every capture of the app carries (tests check them).
inline constexpr const char* kCaptureMetadataKeys[] = {
    "gpu_vendor",  "gpu_renderer",  "gl_version", "platform",   "scene",        "resolution",     "histogram_method",
    "scan_method", "tone_operator", "settings",   "build_type", "git_revision", "hdrlab_version", "date"};

/// Short stable token for CSV and trace args: "gl-timer-query", "cuda-event", "cpu-fallback".
std::string_view sourceToken(TimeSource source);

/// Build type, git revision, hdrlab version and the current date (UTC, ISO 8601).
CaptureMetadata buildMetadata();
/// Current UTC time as "YYYYMMDD-HHMMSS" (capture file names).
std::string timestampForFileName();

/// Per frame index, the tone operator's key value in EV (frames without one are left out).
using FrameKeyValues = std::vector<std::pair<std::uint64_t, float>>;

/// `droppedFrames`: frames of the recording that its ring dropped before `frames` (otherData.dropped_frames).
std::string toTraceEventJson(const std::deque<FrameRecord>& frames,
                             const CaptureMetadata& metadata,
                             std::uint64_t droppedFrames = 0,
                             const FrameKeyValues& keyValues = {});
std::string toCsv(const std::deque<FrameRecord>& frames);

/// Both throw std::runtime_error with a one-line reason when the file cannot be written.
void writeTraceEventJson(const std::filesystem::path& path,
                         const std::deque<FrameRecord>& frames,
                         const CaptureMetadata& metadata,
                         std::uint64_t droppedFrames = 0,
                         const FrameKeyValues& keyValues = {});
void writeCsv(const std::filesystem::path& path, const std::deque<FrameRecord>& frames);

struct PassSummary
{
    std::string name;
    std::size_t frames = 0;
    double meanGpuMs = 0.0;
    double medianGpuMs = 0.0;
    double minGpuMs = 0.0;
    double maxGpuMs = 0.0;
    TimeSource source = TimeSource::GlTimerQuery;
};

/// Per pass, in order of first appearance.
std::vector<PassSummary> summarizePasses(const std::deque<FrameRecord>& frames);
/// A fixed-width text table of the summary (one header line, one line per pass).
std::string formatSummaryTable(const std::vector<PassSummary>& passes);

}  // namespace profiling
