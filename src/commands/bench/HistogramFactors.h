// HistogramFactors.h: what the default GL histogram (compute-shared-atomic,
// shaders/histogram/SharedAtomic.comp) spends its time on, one factor at a time (issue 25): the same
// shader built with one define changed from the way the method builds it (the frame read through
// texelFetch, imageLoad or a storage buffer; exact or hardware log2; the run-length merge on or off;
// the shared array's capacity; pixels per invocation and tile shape; the grid's size), plus variants
// that only read the frame or only clear and merge, each timed with GL timestamps around the
// dispatch (and the global clear the method issues before it). Every variant that bins exactly must
// give the pipeline variant's histogram bit for bit; the hardware-log2 ones report how many pixels
// moved. `hdrlab bench histogram-factors` prints the table (docs/PERF.md, "Where the histogram's
// time goes").
#pragma once

#include "gl/Buffer.h"
#include "post/PostTypes.h"
#include "post/histogram/HistogramComputeSharedAtomic.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace app {

/// One build of SharedAtomic.comp and how it is dispatched.
struct HistogramFactorVariant
{
    std::string name;    ///< short, unique: "pipeline", "source: imageLoad", ...
    std::string factor;  ///< the factor it isolates (the table's group)
    int source = 0;      ///< SOURCE: 0 texelFetch, 1 imageLoad, 2 storage buffer (RGBA16F frames only)
    int binning = 1;     ///< BINNING: 0 polynomial log2 for every pixel, 1 hdBinOfFast (the method), 2 hardware log2
    bool runMerge = post::HistogramComputeSharedAtomic::Tuning{}.runMerge;  ///< RUN_MERGE
    bool selfClear = true;  ///< SELF_CLEAR (the method): the last workgroup publishes, no clear needed
    int work = 0;  ///< WORK: 0 bin, 1 read only, 2 clear and merge only, 3 bin without atomics, 4 luminance only
    std::uint32_t capacity = 0;  ///< BIN_CAPACITY; 0: as the method picks it for the bin count
    std::uint32_t pixels = post::HistogramComputeSharedAtomic::Tuning{}.pixels;        ///< PIXELS
    bool strip = false;                                                                ///< STRIP
    std::uint32_t maxGroups = post::HistogramComputeSharedAtomic::Tuning{}.maxGroups;  ///< persistent grid size limit
};

/// The variants in table order, first "pipeline" (the method as the pipeline builds it).
std::vector<HistogramFactorVariant> histogramFactorVariants();

struct HistogramFactorRow
{
    HistogramFactorVariant variant;
    std::uint32_t capacity = 0;     ///< the BIN_CAPACITY it ran with
    std::uint32_t groups = 0;       ///< workgroups dispatched
    std::uint32_t sharedBytes = 0;  ///< shared memory per workgroup
    double dispatchMedianUs = 0.0;  ///< the dispatch alone
    double dispatchMinUs = 0.0;
    double withClearMedianUs = 0.0;        ///< the global clear and the dispatch, as the histogram stage
    bool binned = false;                   ///< the variant produces a histogram (WORK 0)
    bool exact = false;                    ///< its histogram equals the pipeline variant's, bit for bit
    std::uint64_t movedPixels = 0;         ///< pixels in another bin than the pipeline variant's (sum of |diff| / 2)
    std::vector<std::uint32_t> histogram;  ///< binned: the bins, then hd::kCounterCount counters
    std::string error;                     ///< not run (e.g. the storage-buffer source needs an RGBA16F frame)
};

struct HistogramFactorSettings
{
    std::uint32_t bins = hd::kDefaultHistogramBins;
    float logMin = -10.0f;
    float logMax = 20.0f;
    int runs = 200;   ///< timed dispatches per variant, in up to 10 rounds over every variant
    int warmup = 10;  ///< untimed dispatches before each variant's runs of a round, still running while they are queued
};

/// Runs every variant on `image` (timestamps waited for at the end: a benchmark, not a frame).
std::vector<HistogramFactorRow> measureHistogramFactors(post::PassContext& ctx,
                                                        const post::ImageInput& image,
                                                        const HistogramFactorSettings& settings,
                                                        const std::vector<HistogramFactorVariant>& variants);

/// `hdrlab bench histogram-factors [--repeat N] [--csv OUT]`: the default scene's first frame as the
/// app stores it (RGBA16F, pre-exposed) at 3840x2160 and 1920x1080, 256 bins over the frame's own
/// range, every variant timed over `runs` dispatches; prints a table per size, writes one CSV.
int runHistogramFactorsCommand(const std::optional<std::filesystem::path>& dataDir,
                               int runs,
                               const std::optional<std::filesystem::path>& csv);

/// The markdown table (one row per variant, the time against the pipeline variant's) and the CSV.
std::string formatHistogramFactorTable(const std::vector<HistogramFactorRow>& rows);
std::string formatHistogramFactorCsv(const std::vector<HistogramFactorRow>& rows);

}  // namespace app
