// HistogramMethod.h: the interface every GPU histogram technique implements.
//
// A method counts the log-luminance of each pixel of a scene-linear image into bins, with the
// binning of shared/HostDevice.h (hdBinOf): the range and bin count come from the params buffer,
// NaN/Inf/non-positive pixels go in no bin (and into the counters where the method can count them),
// out-of-range pixels follow the policy. Results stay on the GPU; only methods that are about
// readback read anything back (and show what it costs).
#pragma once

#include "post/Parameter.h"
#include "post/PostTypes.h"

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace post {

class HistogramMethod
{
public:
    virtual ~HistogramMethod() = default;

    virtual std::string_view id() const = 0;           ///< stable key: CLI, captures, tests ("compute-shared-atomic")
    virtual std::string_view label() const = 0;        ///< combo text
    virtual std::string_view description() const = 0;  ///< tooltip: technique, paper, limits
    virtual Backend backend() const { return Backend::OpenGL; }
    virtual Availability availability(const GpuCaps&) const { return Availability::yes(); }
    /// Largest bin count supported here; the pipeline clamps larger requests and says so.
    virtual std::uint32_t maxBins(const GpuCaps&) const { return hd::kMaxHistogramBins; }
    /// A limit worth showing beside the method (empty when none), e.g. "R16F saturates at 2048".
    virtual std::string limits() const { return {}; }
    /// True when build() also writes the cumulative histogram (then no scan is needed).
    virtual bool producesCumulative() const { return false; }
    /// True when build() fills the NaN/Inf/non-positive/below/above counters.
    virtual bool fillsCounters() const { return true; }
    /// False while an option trades bit-exact binning for speed (e.g. cuda-fast's hardware log2):
    /// then pixels within a few ulps of an edge may sit in the neighbouring bin, and verify and
    /// compare accept exactly that. Every method is exact with its default options.
    virtual bool exactBinning() const { return true; }
    /// Whether build() also fills HistogramTargets::foveal (in the same read of the frame).
    virtual bool fillsFovealImage() const { return false; }
    /// True when build() cannot run on just any image: it finishes what the frame's producer binned while
    /// writing the frame (fused-lighting: the scene's deferred lighting pass). The pipeline offers such a
    /// method only where the app declares a producer (PostPipeline::setFusedHistogramProducer); tools and
    /// tests that build histograms of a texture leave it out, saying kNeedsFusedProducer.
    virtual bool needsFusedProducer() const { return false; }

    /// Builds the histogram of `image` into `targets.histogram` (the method clears what it writes).
    virtual void build(PassContext& ctx,
                       const ImageInput& image,
                       const HistogramSpec& spec,
                       const HistogramTargets& targets) = 0;

    /// Widgets for the method's options (no windows); returns true when a setting changed.
    virtual bool ui() { return false; }
    /// Every option ui() edits, keyed "<id>.<name>" and bound to this object (post/Parameter.h).
    virtual ParameterList parameters() { return {}; }
    /// One line of live status for the panel (latency, saturation...), empty when none.
    virtual std::string status() const { return {}; }
    /// The timer for this method's profiler scope when it runs outside GL (CUDA events), else nullptr:
    /// `ctx.profiler.scope(name, method.timerBackend())`.
    virtual profiling::TimerBackend* timerBackend() { return nullptr; }
};

/// Why a method that needs a fused producer cannot run on this frame source.
inline constexpr std::string_view kNeedsFusedProducer = "needs the scene's deferred lighting pass";

struct HistogramMethodEntry
{
    std::string_view id;
    std::function<std::unique_ptr<HistogramMethod>()> create;
};

/// Every histogram method, in display order (explicit table in HistogramRegistry.cpp).
const std::vector<HistogramMethodEntry>& histogramMethodRegistry();
/// nullptr when the id is unknown.
std::unique_ptr<HistogramMethod> createHistogramMethod(std::string_view id);

}  // namespace post
