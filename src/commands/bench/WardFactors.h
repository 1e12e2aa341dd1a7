// WardFactors.h: what Ward's frame fit spends its time on (issue 25). The pipeline's fit spreads
// the foveal samples over many workgroups in two dispatches (shaders/tonemap/WardCurveSpread.comp):
// its rows time both (the pipeline), the range dispatch alone and the bin + fit dispatch alone, and
// with 1, 2 or 8 samples per invocation instead of 4 and 128 or 512 invocations instead of 256. The
// one-workgroup kernel it replaced (WardCurve.comp, "one workgroup (before)") is timed one stage at
// a time: stopped after the range and log-average, after the histogram, after the first ceiling
// pass, after every pass (before the CDF, the curve's LUT and the view), with the TVI ceiling's
// threshold replaced by a constant, with each ceiling loop (the workgroup scan with barriers, the
// lanes through shared memory, the lanes in one subgroup) and with 512 or 1024 invocations instead
// of 256. Each variant is its own ToneWard on the default scene's foveal image, timed with GL
// timestamps around the fit's dispatches alone. The experiment defines (STOP_AFTER, PASS_LIMIT,
// CONSTANT_THRESHOLD) are the bench's only: the method never sets them. The reference is the
// pipeline's own fit (per ceiling): it is compared with the CPU model (reference/ToneWardExact) bit
// for bit, and every other complete variant with it; a variant that differs is reported as
// information (the table says which), not an error; the test requires it only of the variants with
// the pipeline's workgroup size. `hdrlab bench ward-factors` prints the table (docs/PERF.md, Ward item).
#pragma once

#include "post/PostTypes.h"
#include "post/tonemap/WardCurveDispatch.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace app {

/// One build of WardCurve.comp and the settings it fits with.
struct WardFactorVariant
{
    std::string name;    ///< short, unique
    std::string factor;  ///< the stage it isolates (the table's group)
    post::WardCeilingLoop loop = post::WardCeilingLoop::Auto;
    int stopAfter = 0;               ///< STOP_AFTER: 0 the whole fit, 1 range, 2 histogram, 3 ceiling loop
    std::uint32_t passLimit = 0;     ///< PASS_LIMIT; 0: the method's cap
    bool constantThreshold = false;  ///< CONSTANT_THRESHOLD (TVI ceiling only; not exact)
    bool humanContrast = false;      ///< the TVI ceiling (pcond -s) instead of the linear one (the default)
    std::uint32_t groupSize = 0;     ///< GROUP_SIZE; 0: the method's (post::WardCurveProgram::kGroupSize)
    /// The kernel: the spread path (the pipeline's) or the one workgroup it replaced (most rows).
    post::WardCurvePath path = post::WardCurvePath::OneWorkgroup;
    post::WardSpreadParts parts = post::WardSpreadParts::Both;  ///< spread path: which dispatches are timed
    std::uint32_t samplesPerInvocation = 0;                     ///< spread path; 0: the method's
    /// Each timed fit follows (outside its timestamps) the histogram pass that writes its foveal image,
    /// as in the pipeline's frame; that image's sums may round differently from the foveal pass's.
    bool afterHistogramPass = false;
    /// With afterHistogramPass: the CPU waits for the histogram pass to finish (glFinish) before the
    /// first timestamp, so no part of the pass can fall between the fit's timestamps.
    bool finishHistogramPass = false;
    /// With afterHistogramPass: the fit takes its range from the keys that pass wrote (one dispatch, no
    /// range dispatch: the pipeline's frame); off, the keys go unused and the fit runs both dispatches.
    bool rangeKeys = false;
    /// Each timed fit follows (outside its timestamps) a plain streaming read of as many bytes as the
    /// frame holds (bench/StreamRead.comp): the histogram pass's traffic without its work.
    bool afterStreamingRead = false;
    /// Whether it runs the whole fit on the foveal pass's image (its curve and state are compared with
    /// the pipeline's).
    bool complete() const
    {
        return stopAfter == 0 && passLimit == 0 && !constantThreshold && parts == post::WardSpreadParts::Both &&
               !afterHistogramPass && !afterStreamingRead;
    }
    /// Whether it is the fit exactly as the pipeline runs it (the reference of its ceiling).
    bool pipeline() const
    {
        return complete() && path == post::WardCurvePath::Spread && loop == post::WardCeilingLoop::Auto &&
               groupSize == 0 && samplesPerInvocation == 0;
    }
};

/// The variants in table order, first "pipeline" (the fit as the pipeline runs it here); the TVI
/// ceiling's reference is "TVI ceiling, pipeline".
std::vector<WardFactorVariant> wardFactorVariants();

struct WardFactorRow
{
    WardFactorVariant variant;
    post::WardCeilingLoop loopUsed = post::WardCeilingLoop::Workgroup;
    double medianUs = 0.0;  ///< the fit dispatch alone
    double minUs = 0.0;
    int passes = 0;      ///< ceiling passes (state word), where the variant records them
    int outcome = -1;    ///< state word: 0 histogram, 1 fits, 2 failed, 3 no samples
    bool exact = false;  ///< complete variants: curve and state equal the pipeline's (same ceiling), bit for bit
    /// The pipeline's rows: curve, state and histogram equal the CPU model's (ref::wardFrameFitExact).
    bool cpuExact = false;
    /// The pipeline's rows, and complete rows that differ from the pipeline: the first word that differs
    /// from the CPU model on the variant's own foveal image.
    std::string cpuDifference;
    std::string difference;  ///< complete rows: the first word that differs from the pipeline's, or empty
    /// rangeKeys rows: "" when the fit took the keys and matched the two dispatches on the same foveal
    /// image bit for bit, else what went wrong.
    std::string keysDifference;
    std::string error;  ///< not run (e.g. no subgroup arithmetic here)
};

/// Runs every variant on `image` (timestamps waited for at the end: a benchmark, not a frame).
std::vector<WardFactorRow> measureWardFactors(post::PassContext& ctx,
                                              const post::ImageInput& image,
                                              float fovYDegrees,
                                              int runs,
                                              const std::vector<WardFactorVariant>& variants);

/// `hdrlab bench ward-factors [--repeat N] [--csv OUT]`: the default scene's first frame as the app
/// stores it (RGBA16F, pre-exposed) at 3840x2160 and 1920x1080, Ward's default settings with frame
/// sampling; prints a table per size with the stage split it implies, writes one CSV.
int runWardFactorsCommand(const std::optional<std::filesystem::path>& dataDir,
                          int runs,
                          const std::optional<std::filesystem::path>& csv);

/// The markdown table (one row per variant) with the split below it, and the CSV.
std::string formatWardFactorTable(const std::vector<WardFactorRow>& rows);
std::string formatWardFactorCsv(const std::vector<WardFactorRow>& rows);

}  // namespace app
