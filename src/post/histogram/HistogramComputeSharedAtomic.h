// HistogramComputeSharedAtomic.h: "compute-shared-atomic", the default GL histogram method.
//
// Technique: one private histogram per workgroup in shared memory; a persistent grid of workgroups
// walks 2-D tiles of the frame (32 x 8*ROWS pixels, a warp reading 32 neighbouring texels of a
// row), each thread issues ROWS texel loads before binning them (Bugetti, "Histogram Equalization",
// 2.2: thread coarsening; his run aggregation is an option, measured slower on the H200). Binning is
// bit-exact at the hardware log2's speed (shared/HostDevice.h's hdBinOfFast: the polynomial only
// next to bin edges). Each workgroup adds its non-zero bins to an accumulator once, and the last one
// to finish moves the sums into the histogram (no clear dispatch before it). The first version, with
// a linear pixel index and one workgroup per 4096 pixels, is kept as compute-shared-atomic-linear.
// Limits: 1..4096 bins (shared memory sized to the next of 256 / 1024 / 4096 bins, at most 16 KB);
// any input size. With a foveal target (Ward), the same pass also box-filters the frame into Ward's
// foveal image (FOVEAL 2 of the shader: a block per row of 32 invocations; FOVEAL 1, a block per
// workgroup, is a benchmark option). With a curve target (percentile, equalize), the last workgroup
// also scans the bins and builds the operator's curve (histogram/CurveInLastGroup.glsl), so no curve
// dispatch follows. Tunables (for benchmarks):
// HDRLAB_SHARED_ATOMIC="pixels=N,groups=N,strip=0|1,replicas=N,subgroup=0|1,merge=0|1,foveal=0|1|2,curve=0..3"
// (see SharedAtomic.comp and docs/PERF.md).
#pragma once

#include "post/histogram/HistogramMethod.h"
#include "post/histogram/TileHistogramTarget.h"

#include <array>
#include <map>
#include <string>

namespace post {

class HistogramComputeSharedAtomic final : public HistogramMethod, public TileHistogramSink
{
public:
    static constexpr std::string_view kId = "compute-shared-atomic";
    /// The shared array's sizes (BIN_CAPACITY), smallest first: a build uses the first that holds the bins.
    static constexpr std::array<std::uint32_t, 3> kBinCapacities{256u, 1024u, 4096u};
    /// A workgroup is kTileWidth x kGroupRows invocations (SharedAtomic.comp's 32x8).
    static constexpr std::uint32_t kTileWidth = 32;
    static constexpr std::uint32_t kGroupRows = 8;
    /// CurveInLastGroup.glsl's CURVE_UNIFORMS: the curve kernel's uniforms start at this location.
    static constexpr int kCurveUniforms = 32;
    static constexpr int kCurveGateUniform = 31;  ///< SharedAtomic.comp's uCurveGate (CURVE_GATE)
    /// The kernel's shape; defaults from the H200 sweep in docs/PERF.md.
    struct Tuning
    {
        std::uint32_t pixels = 4;        ///< texel loads in flight per invocation
        std::uint32_t maxGroups = 1024;  ///< persistent grid size
        bool strip = false;              ///< an invocation's pixels in a row (true) or 8 rows apart
        std::uint32_t replicas = 1;      ///< shared histogram copies (bin counts up to 1024 only)
        bool subgroupVote = false;       ///< subgroupAllEqual fast path (where GL_KHR_shader_subgroup exists)
        /// Runs of equal bins added with one shared atomic: off, as measured on the H200 (every pixel's own
        /// shared atomic is faster there, even on one-bin frames; docs/PERF.md).
        bool runMerge = false;
        std::uint32_t fovealShape = 2;  ///< Ward's foveal blocks: 1 a block per workgroup, 2 per 32 invocations
        /// 1: the last workgroup builds the curve target it is given. Experiments (CURVE_GATE): 0 the curve
        /// code compiled into the pass but skipped at run time (its cost to every workgroup), 2 the scan alone,
        /// 3 percentile's meter without its curve samples.
        std::uint32_t curveRuns = 1;
    };

    HistogramComputeSharedAtomic();
    std::string_view id() const override { return kId; }
    std::string_view label() const override { return "Compute: shared-memory atomics, 2-D tiles"; }
    std::string_view description() const override;
    Availability availability(const GpuCaps& caps) const override;
    std::string limits() const override { return "1..4096 bins, up to 16 KB shared memory per workgroup"; }
    std::string status() const override;
    HistogramTraits traits() const override
    {
        return {.fillsFovealImage = true, .appliesCurve = true, .buildsCurve = true, .buildsLocalExposureGrid = true};
    }

    void build(PassContext& ctx,
               const ImageInput& image,
               const HistogramSpec& spec,
               const HistogramTargets& targets) override;
    /// The next build() also counts a local operator's tile histograms (TILES 1: not with a foveal or
    /// apply target).
    void offerTileHistograms(TileHistogramTarget* target) override { mTileTarget = target; }

private:
    Tuning mTuning;
    std::uint32_t mLastGroups = 0;
    std::uint32_t mLastReplicas = 1;
    bool mLastSubgroupVote = false;
    bool mLastFoveal = false;
    bool mLastCurve = false;
    bool mLastTiles = false;
    TileHistogramTarget* mTileTarget = nullptr;  ///< for the next build() only
    gl::Buffer mAccumulator;  ///< the workgroups' sums and the ticket (SELF_CLEAR), zero between dispatches
    /// The builds made so far, by their defines (foveal variant, capacity, APPLY, the curve kernel...).
    std::map<std::string, gl::Program> mPrograms;
};

}  // namespace post
