#include "post/histogram/HistogramComputeSubgroup.h"

#include "post/histogram/HistogramPassCommon.h"
#include "profiling/Profiler.h"

namespace post {

std::string_view HistogramComputeSubgroup::description() const
{
    return "Subgroup-aggregated global atomics: invocations of a subgroup holding the same bin are counted with a "
           "ballot and added with one atomic (GL_KHR_shader_subgroup).";
}

Availability HistogramComputeSubgroup::availability(const GpuCaps& caps) const
{
    if (!caps.gl.hasExtension("GL_KHR_shader_subgroup")) {
        if (caps.gl.isSoftwareRenderer())
            return Availability::no("GL_KHR_shader_subgroup not supported by " + caps.gl.renderer);
        return Availability::no("GL_KHR_shader_subgroup not supported by this driver");
    }
    GLint stages = 0;
    GLint features = 0;
    glGetIntegerv(GL_SUBGROUP_SUPPORTED_STAGES_KHR, &stages);
    glGetIntegerv(GL_SUBGROUP_SUPPORTED_FEATURES_KHR, &features);
    if ((stages & GL_COMPUTE_SHADER_BIT) == 0)
        return Availability::no("subgroup operations are not supported in compute shaders here");
    const GLint needed =
        GL_SUBGROUP_FEATURE_BASIC_BIT_KHR | GL_SUBGROUP_FEATURE_VOTE_BIT_KHR | GL_SUBGROUP_FEATURE_BALLOT_BIT_KHR;
    if ((features & needed) != needed)
        return Availability::no("subgroup basic/vote/ballot operations are not all supported here");
    return Availability::yes();
}

void HistogramComputeSubgroup::build(PassContext& ctx,
                                     const ImageInput& image,
                                     const HistogramSpec& spec,
                                     const HistogramTargets& targets)
{
    auto scope = ctx.profiler.scope("histogram/compute-subgroup/count");
    if (!mProgram)
        mProgram = ctx.shaders.buildCompute("histogram/compute-subgroup", "histogram/SubgroupAtomic.comp");
    clearHistogram(targets.histogram, spec.binCount);
    if (image.size.x <= 0 || image.size.y <= 0)
        return;
    bindHistogramInputs(image, targets);
    targets.histogram.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogram);
    glProgramUniform2i(mProgram.id(), 0, image.size.x, image.size.y);
    mProgram.use();
    glDispatchCompute(groupsFor(image.size.x, hd::kHistogramGroupX), groupsFor(image.size.y, hd::kHistogramGroupY), 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
}

}  // namespace post
