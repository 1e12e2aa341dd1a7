// HistogramComputeSharedAtomic.h: "compute-shared-atomic", the default GL histogram method.
//
// Technique: one private histogram per workgroup in shared memory; a persistent grid of workgroups
// walks 2-D tiles of the frame (32 x 8*ROWS pixels, a warp reading 32 neighbouring texels of a
// row), each thread issues ROWS texel loads before binning them, and runs of equal bins go in with
// one shared atomic (Bugetti, "Histogram Equalization", 2.2: aggregation + thread coarsening). Each
// workgroup then adds its non-zero bins to an accumulator once, and the last one to finish moves the
// sums into the histogram (no clear dispatch before it). Binning is bit-exact
// (shared/HostDevice.h's hdBinOfFast: the hardware log2, the polynomial next to bin edges). The first version, with a
// linear pixel index and one workgroup per 4096 pixels, is kept as compute-shared-atomic-linear. Limits: 1..4096 bins
// (shared memory sized to the next of 256 / 1024 / 4096 bins, at most 16 KB); any input size. With a foveal target
// (Ward), the same pass also box-filters the frame into Ward's foveal image (FOVEAL variants of the shader: the foveal
// blocks are the tiles; a block per workgroup for large blocks, per row of 32 invocations for small ones). Tunables
// (for benchmarks): HDRLAB_SHARED_ATOMIC="pixels=N,groups=N,strip=0|1,replicas=N,subgroup=0|1,merge=0|1" (see
// SharedAtomic.comp and docs/PERF.md section 0).
#pragma once

#include "post/histogram/HistogramMethod.h"

#include <array>

namespace post {

class HistogramComputeSharedAtomic final : public HistogramMethod
{
public:
    static constexpr std::string_view kId = "compute-shared-atomic";
    /// The shared array's sizes (BIN_CAPACITY), smallest first: a build uses the first that holds the bins.
    static constexpr std::array<std::uint32_t, 3> kBinCapacities{256u, 1024u, 4096u};
    /// A workgroup is kTileWidth x kGroupRows invocations (SharedAtomic.comp's 32x8).
    static constexpr std::uint32_t kTileWidth = 32;
    static constexpr std::uint32_t kGroupRows = 8;
    /// The kernel's shape; defaults from the H200 sweep in docs/PERF.md.
    struct Tuning
    {
        std::uint32_t pixels = 4;        ///< texel loads in flight per invocation
        std::uint32_t maxGroups = 1024;  ///< persistent grid size
        bool strip = false;              ///< an invocation's pixels in a row (true) or 8 rows apart
        std::uint32_t replicas = 1;      ///< shared histogram copies (bin counts up to 1024 only)
        bool subgroupVote = false;       ///< subgroupAllEqual fast path (where GL_KHR_shader_subgroup exists)
        bool runMerge = true;            ///< runs of equal bins added with one shared atomic
    };

    HistogramComputeSharedAtomic();
    std::string_view id() const override { return kId; }
    std::string_view label() const override { return "Compute: shared-memory atomics, 2-D tiles"; }
    std::string_view description() const override;
    Availability availability(const GpuCaps& caps) const override;
    std::string limits() const override { return "1..4096 bins, up to 16 KB shared memory per workgroup"; }
    std::string status() const override;
    HistogramTraits traits() const override { return {.fillsFovealImage = true}; }

    void build(PassContext& ctx,
               const ImageInput& image,
               const HistogramSpec& spec,
               const HistogramTargets& targets) override;

private:
    Tuning mTuning;
    std::uint32_t mLastGroups = 0;
    std::uint32_t mLastReplicas = 1;
    bool mLastSubgroupVote = false;
    bool mLastFoveal = false;
    gl::Buffer mAccumulator;  ///< the workgroups' sums and the ticket (SELF_CLEAR), zero between dispatches
    /// [FOVEAL variant: none, block per workgroup, block per 32 invocations][bin capacity 256, 1024, 4096]
    std::array<std::array<gl::Program, 3>, 3> mPrograms;
};

}  // namespace post
