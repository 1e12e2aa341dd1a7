#include "post/histogram/HistogramComputeReplicated.h"

#include "post/histogram/HistogramPassCommon.h"
#include "profiling/Profiler.h"
#include "util/Log.h"

#include <algorithm>

namespace post {

namespace {
constexpr int kTile = 64;                            // pixels per workgroup side (ReplicatedAtomic.comp TILE)
constexpr std::uint32_t kSharedBudgetBytes = 32768;  // leaves room for occupancy on GPUs with more
}  // namespace

std::string_view HistogramComputeReplicated::description() const
{
    return "Gomez-Luna et al. 2013: R padded copies of the histogram per workgroup in shared memory (invocation i "
           "adds into copy i mod R) to cut atomic contention, summed and merged at the end.";
}

std::string HistogramComputeReplicated::limits() const
{
    return "copies R = min(16, 8184 / (bins + 1)) in 32 KiB: a single copy at 4096 bins";
}

std::string HistogramComputeReplicated::status() const
{
    if (mLastReplicas == 0)
        return {};
    return util::format("{} copies per workgroup", mLastReplicas);
}

std::uint32_t HistogramComputeReplicated::replicasFor(std::uint32_t binCount, std::uint32_t sharedWords)
{
    std::uint32_t stride = binCount + 1u;
    return std::clamp(sharedWords / stride, 1u, kMaxReplicas);
}

void HistogramComputeReplicated::build(PassContext& ctx,
                                       const ImageInput& image,
                                       const HistogramSpec& spec,
                                       const HistogramTargets& targets)
{
    auto scope = ctx.profiler.scope("histogram/compute-replicated/count");
    if (!mProgram) {
        // The shared array also holds the 8 counters; keep the copies within the budget.
        std::uint32_t bytes =
            std::min<std::uint32_t>(std::uint32_t(std::max(ctx.caps.maxComputeSharedBytes, 0)), kSharedBudgetBytes);
        mSharedWords = std::max<std::uint32_t>(bytes / 4u - hd::kCounterCount, hd::kMaxHistogramBins + 1u);
        mProgram = ctx.shaders.buildCompute("histogram/compute-replicated", "histogram/ReplicatedAtomic.comp",
                                            {{"SHARED_WORDS", std::to_string(mSharedWords) + "u"}});
    }
    clearHistogram(targets.histogram, spec.binCount);
    if (image.size.x <= 0 || image.size.y <= 0)
        return;
    const std::uint32_t binCount = std::clamp(spec.binCount, 1u, hd::kMaxHistogramBins);
    mLastReplicas = replicasFor(binCount, mSharedWords);
    bindHistogramInputs(image, targets);
    targets.histogram.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogram);
    glProgramUniform2i(mProgram.id(), 0, image.size.x, image.size.y);
    glProgramUniform1ui(mProgram.id(), 1, mLastReplicas);
    glProgramUniform1ui(mProgram.id(), 2, binCount + 1u);
    mProgram.use();
    glDispatchCompute(groupsFor(image.size.x, kTile), groupsFor(image.size.y, kTile), 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
}

}  // namespace post
