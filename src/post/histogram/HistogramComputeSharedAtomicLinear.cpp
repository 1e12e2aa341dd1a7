#include "post/histogram/HistogramComputeSharedAtomicLinear.h"

#include "gl/Debug.h"

#include <algorithm>

namespace post {

std::string_view HistogramComputeSharedAtomicLinear::description() const
{
    return "GL compute, first version of compute-shared-atomic (kept to show what its rework fixed): a "
           "private histogram per workgroup of 4096 pixels in shared memory, pixel positions from a linear index "
           "(% and / per pixel), runs of equal bins added with one atomic (Bugetti's aggregation), then every "
           "workgroup atomically adds its non-zero bins into the same global words.";
}

Availability HistogramComputeSharedAtomicLinear::availability(const GpuCaps& caps) const
{
    const int needed = int((hd::kMaxHistogramBins + hd::kCounterCount) * sizeof(std::uint32_t));
    if (caps.maxComputeSharedBytes < needed)
        return Availability::no("needs " + std::to_string(needed) + " bytes of compute shared memory, the GPU has " +
                                std::to_string(caps.maxComputeSharedBytes));
    return Availability::yes();
}

void HistogramComputeSharedAtomicLinear::build(PassContext& ctx,
                                               const ImageInput& image,
                                               const HistogramSpec&,
                                               const HistogramTargets& targets)
{
    if (!mProgram)
        mProgram =
            ctx.shaders.buildCompute("histogram.compute-shared-atomic-linear", "histogram/SharedAtomicLinear.comp",
                                     {{"PIXELS_PER_THREAD", std::to_string(kPixelsPerThread)}});
    targets.histogram.clearUint(0u);
    const std::uint64_t pixels = std::uint64_t(std::max(image.size.x, 0)) * std::uint64_t(std::max(image.size.y, 0));
    if (pixels == 0)
        return;
    const std::uint64_t perGroup = std::uint64_t(hd::kHistogramGroupX * hd::kHistogramGroupY) * kPixelsPerThread;
    const GLuint groups = GLuint((pixels + perGroup - 1) / perGroup);

    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    mProgram.use();
    glProgramUniform2i(mProgram.id(), 0, image.size.x, image.size.y);
    image.texture.bindUnit(hd::kTextureUnitInput);
    glBindSampler(hd::kTextureUnitInput, 0);
    targets.histogram.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogram);
    targets.params.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogramParams);
    // More than 65535 groups (GL's guaranteed limit per dimension) spill into y; the shader linearises.
    glDispatchCompute(std::min(groups, 65535u), (groups + 65534u) / 65535u, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
}

}  // namespace post
