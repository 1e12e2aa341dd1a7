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

/// How a method's build() fills the pipeline's outputs (the pipeline plans the frame around it).
struct HistogramTraits
{
    bool producesCumulative = false;  ///< build() also writes the cumulative histogram (no scan needed)
    bool fillsCounters = true;        ///< build() fills the NaN/Inf/non-positive/below/above counters
    /// False while an option trades bit-exact binning for speed (e.g. cuda-fast's hardware log2):
    /// then pixels within a few ulps of an edge may sit in the neighbouring bin, and verify and
    /// compare accept exactly that. Every method is exact with its default options.
    bool exactBinning = true;
    bool fillsFovealImage = false;  ///< build() also fills HistogramTargets::foveal (same read of the frame)
    bool appliesCurve = false;      ///< build() also fills HistogramTargets::apply (the one-pass mode)
    bool buildsCurve = false;       ///< build() also builds HistogramTargets::curve (its last workgroup)
    /// build() cannot run on just any image: it finishes what the frame's producer binned while
    /// writing the frame (fused-lighting: the scene's deferred lighting pass). The pipeline offers such a
    /// method only where the app declares a producer (PostPipeline::setFusedHistogramProducer); tools and
    /// tests that build histograms of a texture leave it out, saying kNeedsFusedProducer.
    bool needsFusedProducer = false;
    /// build() also adds the frame to HistogramTargets::localExposureGrid (the same read of the frame).
    bool buildsLocalExposureGrid = false;
};

/// Capability of a method whose histogram a frame's producer bins (fused-lighting): the pipeline and
/// the compare tool prepare its outputs before the frame renders and close them after the histogram stage.
class FusedHistogramOutputs
{
public:
    virtual ~FusedHistogramOutputs() = default;
    /// Before the frame renders: clears the outputs for a frame of `frameSize` that will be binned with
    /// `params`, with Ward's foveal sums for `foveal`'s grid (nullptr: none), and returns what the
    /// producer fills (`produced` false until it has).
    virtual FusedHistogramTarget& prepare(const gl::Buffer& params,
                                          glm::ivec2 frameSize,
                                          const FovealTarget* foveal) = 0;
    /// After the frame's histogram stage: the outputs belong to the past frame now.
    virtual void endFrame() = 0;
    /// The producer's outputs do not belong to the frame being run (`reason`): build() then leaves the
    /// histogram empty and status() gives the reason.
    virtual void discardFrame(std::string reason) = 0;
    /// Words hd::kFusedMinBits and hd::kFusedMaxBits hold the float bits of the frame's least and
    /// largest finite positive luminance (the auto range of the next frame).
    virtual const gl::Buffer& outputs() const = 0;
};

/// Capability of a method that reads back to the CPU (cpu-readback): frames of latency by default;
/// synchronous for tools that compare the frame's own histogram (compare, tests).
class ReadbackLatency
{
public:
    virtual ~ReadbackLatency() = default;
    virtual void setSynchronous(bool synchronous) = 0;
};

/// A histogram technique. The core is its identity, one work verb (build) and its UI (ui, parameters,
/// status); what only some methods have comes through one accessor per capability, nullptr when absent.
class HistogramMethod
{
public:
    virtual ~HistogramMethod() = default;

    virtual std::string_view id() const = 0;           ///< stable key: CLI, captures, tests ("compute-shared-atomic")
    virtual std::string_view label() const = 0;        ///< combo text
    virtual std::string_view description() const = 0;  ///< tooltip: technique, paper, limits
    virtual Backend backend() const { return Backend::OpenGL; }
    /// A limit worth showing beside the method (empty when none), e.g. "R16F saturates at 2048".
    virtual std::string limits() const { return {}; }
    virtual Availability availability(const GpuCaps&) const { return Availability::yes(); }
    /// Largest bin count supported here; the pipeline clamps larger requests and says so.
    virtual std::uint32_t maxBins(const GpuCaps&) const { return hd::kMaxHistogramBins; }
    virtual HistogramTraits traits() const { return {}; }

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

    // Capabilities, nullptr when absent.
    /// The timer for this method's profiler scope when it runs outside GL (CUDA events):
    /// `ctx.profiler.scope(name, method.timerBackend())`.
    virtual profiling::TimerBackend* timerBackend() { return nullptr; }
    virtual FusedHistogramOutputs* fusedOutputs() { return nullptr; }
    virtual ReadbackLatency* readbackLatency() { return nullptr; }

    // Forwarders to traits().
    bool producesCumulative() const { return traits().producesCumulative; }
    bool fillsCounters() const { return traits().fillsCounters; }
    bool exactBinning() const { return traits().exactBinning; }
    bool fillsFovealImage() const { return traits().fillsFovealImage; }
    bool appliesCurve() const { return traits().appliesCurve; }
    bool buildsCurve() const { return traits().buildsCurve; }
    bool needsFusedProducer() const { return traits().needsFusedProducer; }
    bool buildsLocalExposureGrid() const { return traits().buildsLocalExposureGrid; }
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
/// Adds a method at run time (tests, tools; explicit); replaces an entry of the same id.
void registerHistogramMethod(HistogramMethodEntry entry);
/// Counts registerHistogramMethod calls: tables built from the registry rebuild when it moves.
std::uint64_t histogramMethodRegistryVersion();
/// nullptr when the id is unknown.
std::unique_ptr<HistogramMethod> createHistogramMethod(std::string_view id);

}  // namespace post
