// HistogramComputeReplicated.h: compute-replicated, R padded sub-histograms per workgroup.
//
// Paper: Gomez-Luna, Gonzalez-Linares, Benavides, Guil, "An optimized approach to histogram
// computation on GPU" (Machine Vision and Applications, 2013): replicate the per-block histogram in
// shared memory so that threads that hit the same bin at once usually update different copies,
// pad the copies so the same bin of neighbouring copies falls in different banks, and sum the
// copies when the block is done.
// Here: R = min(16, sharedWords / (binCount + 1)) copies of stride binCount + 1 (at least one copy);
// a workgroup covers a 64x64 pixel tile and merges with one global atomic per non-zero bin.
// Limits: with 4096 bins only one copy fits in 32 KiB of shared memory (then it equals a plain
// shared-memory histogram); larger R costs more clearing and merging per workgroup.
#pragma once

#include "post/histogram/HistogramMethod.h"

namespace post {

class HistogramComputeReplicated : public HistogramMethod
{
public:
    static constexpr std::string_view kId = "compute-replicated";
    static constexpr std::uint32_t kMaxReplicas = 16;

    std::string_view id() const override { return kId; }
    std::string_view label() const override { return "Compute: replicated shared histograms"; }
    std::string_view description() const override;
    std::string limits() const override;
    std::string status() const override;

    void build(PassContext& ctx,
               const ImageInput& image,
               const HistogramSpec& spec,
               const HistogramTargets& targets) override;

    /// Copies used for `binCount` with `sharedWords` of shared memory.
    static std::uint32_t replicasFor(std::uint32_t binCount, std::uint32_t sharedWords);

private:
    gl::Program mProgram;
    std::uint32_t mSharedWords = 0;
    std::uint32_t mLastReplicas = 0;
};

}  // namespace post
