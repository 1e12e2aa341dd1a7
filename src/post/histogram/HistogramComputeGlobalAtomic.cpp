#include "post/histogram/HistogramComputeGlobalAtomic.h"

#include "post/histogram/HistogramPassCommon.h"
#include "profiling/Profiler.h"

namespace post {

std::string_view HistogramComputeGlobalAtomic::description() const
{
    return "One invocation per pixel, one atomicAdd on the global buffer per pixel: the naive GPU loop. "
           "Slow under contention (uniform images); the baseline for the shared-memory and subgroup variants.";
}

void HistogramComputeGlobalAtomic::build(PassContext& ctx,
                                         const ImageInput& image,
                                         const HistogramSpec& spec,
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
    dispatchPerPixel(mProgram, mSizeLocation, image, targets);
}

}  // namespace post
