#include "post/histogram/HistogramFusedLighting.h"

#include "profiling/Profiler.h"

#include <algorithm>
#include <array>
#include <utility>

namespace post {

namespace {

constexpr std::uint32_t kPositiveInfinityBits = 0x7F800000u;
constexpr std::size_t kWordBytes = sizeof(std::uint32_t);
constexpr std::size_t kSumBytes = 4 * sizeof(float);

std::uint32_t groupsOf8(int count)
{
    return (std::uint32_t(std::max(count, 0)) + 7u) / 8u;
}

}  // namespace

int fusedFovealSpan(int pixels, int cells)
{
    const int tile = int(hd::kFusedTileSize);
    int span = 0;
    for (int first = 0; first < pixels; first += tile) {
        const int last = std::min(first + tile, pixels) - 1;
        span = std::max(span, hd::hdFovealBlockOf(last, pixels, cells) - hd::hdFovealBlockOf(first, pixels, cells) + 1);
    }
    return span;
}

std::string_view HistogramFusedLighting::description() const
{
    return "Binned inside the scene's deferred lighting pass as it stores each pixel (bit-exact, per 8x8 tile one "
           "atomic per distinct bin), with Ward's foveal sums and the luminance min/max for the next frame's auto "
           "range: the histogram stage only copies 16 KB and finishes the foveal image, no frame read.";
}

std::string HistogramFusedLighting::limits() const
{
    return "live scenes with deferred lighting only (not forward, view, tonemap, sequences); full frame, no "
           "downsampling; the auto range lags one frame";
}

FusedHistogramTarget& HistogramFusedLighting::prepare(const gl::Buffer& params,
                                                      glm::ivec2 frameSize,
                                                      const FovealTarget* foveal)
{
    if (!mOutputs)  // here, not in the constructor: methods are created without a GL context too (--methods)
        mOutputs = gl::Buffer("histogram/fused-lighting/outputs", hd::kFusedHistogramWords * kWordBytes);
    mOutputs.clearUintRange(0, hd::kHistogramBufferWords * kWordBytes);
    mOutputs.clearUintRange(hd::kFusedMinBits * kWordBytes, kWordBytes, kPositiveInfinityBits);
    mOutputs.clearUintRange(hd::kFusedMaxBits * kWordBytes, kWordBytes, 0u);
    mTarget = FusedHistogramTarget{};
    mTarget.params = &params;
    mTarget.histogram = &mOutputs;
    mTarget.frameSize = frameSize;
    if (foveal && foveal->grid.x > 0 && foveal->grid.y > 0 && foveal->grid.x <= frameSize.x &&
        foveal->grid.y <= frameSize.y) {
        mTarget.fovealGrid = foveal->grid;
        mTarget.fovealSpan = {fusedFovealSpan(frameSize.x, foveal->grid.x),
                              fusedFovealSpan(frameSize.y, foveal->grid.y)};
        const std::size_t tiles = std::size_t(groupsOf8(frameSize.x)) * groupsOf8(frameSize.y);
        const std::size_t bytes = tiles * std::size_t(mTarget.fovealSpan.x * mTarget.fovealSpan.y) * kSumBytes;
        if (mFovealSums.size() < bytes)
            mFovealSums = gl::Buffer("histogram/fused-lighting/foveal-sums", bytes);
        mTarget.fovealSums = &mFovealSums;
    }
    return mTarget;
}

bool HistogramFusedLighting::produced(glm::ivec2 frameSize) const
{
    return mTarget.produced && mTarget.frameSize == frameSize;
}

void HistogramFusedLighting::build(PassContext& ctx,
                                   const ImageInput& image,
                                   const HistogramSpec& spec,
                                   const HistogramTargets& targets)
{
    (void)spec;  // the producer binned with the params buffer the pipeline wrote before the frame
    if (!produced(image.size)) {
        targets.histogram.clearUint(0u);
        mStatus = mDiscardReason.empty() ? "no deferred lighting pass binned this frame: the histogram is empty"
                                         : std::exchange(mDiscardReason, {});
        return;
    }
    // The producer's bins and counters (the min/max words stay here for the auto range).
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT);
    mOutputs.copyTo(targets.histogram, 0, 0, hd::kHistogramBufferWords * kWordBytes);
    mStatus = "binned in scene/lighting";

    FovealTarget* foveal = targets.foveal;
    if (foveal && foveal->image && mTarget.fovealSums && foveal->grid == mTarget.fovealGrid) {
        auto scope = ctx.profiler.scope("histogram/fused-lighting/foveal");
        if (!mFovealProgram)
            mFovealProgram = ctx.shaders.buildCompute("histogram/fused-lighting/foveal", "histogram/FusedFoveal.comp");
        mFovealSums.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch0);
        foveal->image->bindImage(hd::kImageUnitOutput, GL_WRITE_ONLY);
        glProgramUniform2i(mFovealProgram.id(), 0, image.size.x, image.size.y);
        glProgramUniform4i(mFovealProgram.id(), 1, foveal->grid.x, foveal->grid.y, mTarget.fovealSpan.x,
                           mTarget.fovealSpan.y);
        mFovealProgram.set(2, foveal->sceneScale);
        mFovealProgram.use();
        glDispatchCompute(groupsOf8(foveal->grid.x), groupsOf8(foveal->grid.y), 1);
        glMemoryBarrier(GL_SHADER_IMAGE_ACCESS_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT);
        foveal->written = true;
        mStatus += ", Ward's foveal image from its sums";
    }
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
}

}  // namespace post
