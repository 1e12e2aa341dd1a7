// HistogramComputeSharedAtomicLinear.h: "compute-shared-atomic-linear", the first version of the
// default GL method, kept as a documented variant (see compute-shared-atomic for what changed).
//
// Technique: one private histogram per workgroup in shared memory (up to 4096 uint bins = 16 KB),
// each thread walks PIXELS_PER_THREAD pixels and aggregates runs of consecutive equal bins into one
// shared atomic (Bugetti, "Histogram Equalization", section 2.2: aggregation + thread coarsening),
// then one global merge: an atomicAdd of every non-zero shared bin into the histogram buffer.
// Limits: 1..4096 bins (shared memory: 16 KB of the 32 KB GL guarantees); any input size. Cost: a
// per-pixel integer division for the pixel's position, one workgroup per 4096 pixels (so a 4K frame
// merges 2025 shared histograms into the same global words), one texel load in flight per thread.
#pragma once

#include "post/histogram/HistogramMethod.h"

namespace post {

class HistogramComputeSharedAtomicLinear final : public HistogramMethod
{
public:
    static constexpr std::string_view kId = "compute-shared-atomic-linear";
    static constexpr std::uint32_t kPixelsPerThread = 16;

    std::string_view id() const override { return kId; }
    std::string_view label() const override { return "Compute: shared-memory atomics, linear index (first version)"; }
    std::string_view description() const override;
    Availability availability(const GpuCaps& caps) const override;
    std::string limits() const override { return "1..4096 bins, 16 KB shared memory per workgroup"; }

    void build(PassContext& ctx,
               const ImageInput& image,
               const HistogramSpec& spec,
               const HistogramTargets& targets) override;

private:
    gl::Program mProgram;
};

}  // namespace post
