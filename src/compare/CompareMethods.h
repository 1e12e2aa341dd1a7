// CompareMethods.h: the testable core of `hdrlab compare` and of the window's "compare all": every
// histogram method of the registry side by side on one HDR frame, in the current GL context.
//
// For each available method: K timed builds (GL_TIME_ELAPSED queries read after one glFinish at the
// end, or CPU wall time around glFinish where GL timers measure nothing, e.g. llvmpipe), the
// difference from the CPU reference (ref::buildHistogram: totals, max per-bin difference, L1, and
// whether the differences are only pixels within float tolerance of a bin edge), and the difference
// of the tone curve the pipeline's default operator derives from the method's histogram versus from
// the CPU histogram (or of the normalised CDFs when no operator is registered). Unavailable methods
// are listed with their reason. Offline tool: it stalls freely.
// A fused method (fused-lighting) has its frame rendered again by the scene's deferred lighting pass,
// which bins it (CompareSettings::renderFused); it is compared with the CPU reference of the frame as
// that render stored it, and its time is the histogram stage's finish only (the binning is inside
// scene/lighting, which bench pipeline times).
#pragma once

#include "gl/Program.h"
#include "gl/Texture.h"
#include "post/PostPipeline.h"
#include "post/PostTypes.h"
#include "util/LogLogChart.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace profiling {
class TimerBackend;
}

namespace app {

/// Times of `repeat` calls of `work` and where they came from: "cuda_events" (`timer` given: the
/// method's own CUDA events), "gl_time_elapsed" (GL timer queries labelled `label`[k], where they
/// measure something) or "cpu_wall_glfinish" (CPU wall time between glFinish calls). Each result is
/// waited for: compare is an offline tool. Shared by the histogram and the scan part of compare.
struct RepeatedTimes
{
    std::vector<double> ms;
    const char* source = "";
};
RepeatedTimes timeRepeatedly(const post::PassContext& ctx,
                             profiling::TimerBackend* timer,
                             std::string_view label,
                             unsigned repeat,
                             const std::function<void()>& work);

/// Milliseconds as the compare tables print them (3 decimals below 10 ms, else 1); shared by the
/// histogram and the scan parts.
std::string formatCompareMs(double ms);
/// `text` as one CSV field (quoted when it holds a comma, quote or newline).
std::string csvField(const std::string& text);

struct CompareSettings
{
    std::uint32_t bins = hd::kDefaultHistogramBins;
    unsigned repeat = 10;
    /// log2 range; nullopt = the finite min/max of the frame (CPU, like the pipeline's auto range)
    std::optional<std::pair<float, float>> range;
    post::OutOfRange outOfRange = post::OutOfRange::Clamp;
    std::vector<std::string> onlyMethods;  ///< empty = every registered method
    /// Renders the frame again with its producer (the scene's deferred lighting pass) binning it into
    /// `target`, for methods that need one (fused-lighting). Unset where the frame has none (an image):
    /// such methods are listed as unavailable with post::kNeedsFusedProducer.
    std::function<void(post::FusedHistogramTarget& target)> renderFused;
};

struct CompareRow
{
    std::string id;
    std::string label;
    std::string backend;
    bool available = true;
    bool failed = false;  ///< a build threw (shader compile error...): `reason` says what
    std::string reason;   ///< why not, when unavailable or failed
    std::string limits;
    std::uint32_t bins = 0;  ///< bins actually used (a method may support fewer than asked)
    std::vector<double> buildMs;
    double medianMs = 0.0;
    double minMs = 0.0;
    double maxMs = 0.0;
    bool gpuTimer = true;  ///< false: CPU wall time around glFinish (GL timers measure nothing here)
    std::uint64_t gpuTotal = 0;
    std::uint64_t cpuTotal = 0;
    std::uint64_t maxBinDifference = 0;
    std::uint64_t l1Difference = 0;
    bool countersCompared = true;  ///< false when the method fills no counters
    bool countersEqual = true;
    bool onlyNeighbourMoves = true;
    std::optional<double> curveDifference;  ///< max |curve - CPU curve| over the LUT (or normalised CDF)
    std::string status;                     ///< the method's status line after the builds
    std::vector<std::uint32_t> histogram;   ///< the method's bins (for the bar chart)

    bool exact() const { return available && !failed && l1Difference == 0 && countersEqual && gpuTotal == cpuTotal; }
};

struct CompareReport
{
    std::string source;  ///< "scene 'x' 1280x720" or the image path
    glm::ivec2 size{0};
    std::uint32_t bins = 0;
    float logMin = 0.0f;
    float logMax = 0.0f;
    post::OutOfRange outOfRange = post::OutOfRange::Clamp;
    unsigned repeat = 0;
    std::string renderer;
    std::string curveMeasure;  ///< what curveDifference measures (operator id, or "normalised CDF")
    std::vector<std::uint32_t> cpuHistogram;
    std::vector<CompareRow> rows;
};

/// Compares every method on `image` (the pass context's profiler times the methods' sub-passes).
CompareReport compareMethods(post::PassContext& ctx, const post::ImageInput& image, const CompareSettings& settings);

/// The window's "compare all": the pipeline's bins, range (or the frame's range in auto mode) and
/// policy on the current HDR frame (its pre-exposure undone as the pipeline does), `repeat` builds
/// per method; `renderFused` as in CompareSettings.
CompareReport compareMethods(gl::ShaderLibrary& shaders,
                             const post::GpuCaps& caps,
                             const post::ImageInput& hdr,
                             const post::PipelineSettings& settings,
                             unsigned repeat = 5,
                             std::function<void(post::FusedHistogramTarget& target)> renderFused = {});

/// A fixed-width text table, one method per line, unavailable methods with their reason.
std::string formatCompareTable(const CompareReport& report);
/// The same as CSV (header line unless `header` is false, one row per method).
std::string formatCompareCsv(const CompareReport& report, bool header = true);
/// Median build time against the bins used, one series per method over `reports` (one report per
/// bin count of a sweep: one point per method when there is a single report); failed and
/// unavailable methods have no point. The data of `compare --chart` and of the Compare panel's plot.
util::ChartData compareTimeChart(const std::vector<CompareReport>& reports);
/// Adds the window's latest "compare all" to its bin sweep (the reports the panel's chart draws):
/// drops earlier reports of another source, frame size, renderer or out-of-range policy (a chart
/// compares like with like) and one of the same bin count; `latest` ends up last.
void addToSweep(std::vector<CompareReport>& sweep, CompareReport latest);

}  // namespace app
