// HistogramComputeGlobalAtomic.h: compute-global-atomic, the naive compute-shader histogram.
//
// Idea: one invocation per pixel, one atomicAdd on the global histogram buffer per pixel (the GPU
// form of the CPU loop every paper starts from). No shared memory, no aggregation.
// Limits: throughput falls with contention: a uniform image serialises every atomic on one word.
// It is the baseline the shared-memory (compute-shared-atomic, compute-replicated) and subgroup
// variants are measured against.
#pragma once

#include "post/histogram/HistogramMethod.h"

namespace post {

class HistogramComputeGlobalAtomic : public HistogramMethod
{
public:
    static constexpr std::string_view kId = "compute-global-atomic";

    std::string_view id() const override { return kId; }
    std::string_view label() const override { return "Compute: global atomics (naive)"; }
    std::string_view description() const override;
    std::string limits() const override { return "contention: a uniform image serialises on one word"; }

    void build(PassContext& ctx,
               const ImageInput& image,
               const HistogramSpec& spec,
               const HistogramTargets& targets) override;

private:
    gl::Program mProgram;
    GLint mSizeLocation = -1;
};

}  // namespace post
