// HistogramComputeSubgroup.h: compute-subgroup, global atomics after subgroup aggregation.
//
// Idea: invocations of one subgroup (warp) that hold the same bin are counted with a ballot and one
// of them adds the count with a single global atomic (the "warp aggregated atomics" pattern, here
// through GL_KHR_shader_subgroup: subgroupBroadcastFirst picks a leader slot, subgroupBallot +
// subgroupBallotBitCount count its holders, subgroupElect issues the atomic).
// Limits: needs GL_KHR_shader_subgroup with basic, vote and ballot operations in compute shaders
// (not offered by llvmpipe); gains nothing on noisy images where a subgroup holds 32 different bins.
#pragma once

#include "post/histogram/HistogramMethod.h"

namespace post {

class HistogramComputeSubgroup : public HistogramMethod
{
public:
    static constexpr std::string_view kId = "compute-subgroup";

    std::string_view id() const override { return kId; }
    std::string_view label() const override { return "Compute: subgroup-aggregated atomics"; }
    std::string_view description() const override;
    Availability availability(const GpuCaps& caps) const override;
    std::string limits() const override { return "needs GL_KHR_shader_subgroup (basic, vote, ballot in compute)"; }

    void build(PassContext& ctx,
               const ImageInput& image,
               const HistogramSpec& spec,
               const HistogramTargets& targets) override;

private:
    gl::Program mProgram;
};

}  // namespace post
