#include "post/histogram/HistogramComputeGlobalAtomic.h"

#include "post/histogram/HistogramPassCommon.h"
#include "profiling/Profiler.h"

namespace post {

std::string_view HistogramComputeGlobalAtomic::description() const
{
    return "One invocation per pixel, one atomicAdd on the global buffer per pixel: the naive GPU loop. "
           "Slow under contention (uniform images); the baseline for the shared-memory and subgroup variants.";
}

void HistogramComputeGlobalAtomic::build(PassContext& ctx, const ImageInput& image, const HistogramSpec& spec,
                                         const HistogramTargets& targets)
{
    auto scope = ctx.profiler.scope("histogram/compute-global-atomic/count");
    if (!mProgram) {
        mProgram = ctx.shaders.buildCompute("histogram/compute-global-atomic", "histogram/GlobalAtomic.comp");
        mSizeLocation = mProgram.uniformLocation("uSize");
    }
    clearHistogram(targets.histogram, spec.binCount);
    if (image.size.x <= 0 || image.size.y <= 0)
        return;
    bindHistogramInputs(image, targets);
    targets.histogram.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogram);
    glProgramUniform2i(mProgram.id(), mSizeLocation, image.size.x, image.size.y);
    mProgram.use();
    glDispatchCompute(groupsFor(image.size.x, hd::kHistogramGroupX), groupsFor(image.size.y, hd::kHistogramGroupY), 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
}

} // namespace post
