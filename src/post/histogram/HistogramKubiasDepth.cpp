#include "post/histogram/HistogramKubiasDepth.h"

#include "profiling/Profiler.h"
#include "util/Log.h"

#include <algorithm>

namespace post {

std::string_view HistogramKubiasDepth::description() const
{
    return "Kubias et al. 2007: pixels become depths (1 - bin centre), then one plane per bin is drawn back to front "
           "inside an occlusion query: the queries count the cumulative histogram directly (no scan needed).";
}

Availability HistogramKubiasDepth::availability(const GpuCaps& caps) const
{
    std::string reason = queryBufferUnavailableReason(caps);
    return reason.empty() ? Availability::yes() : Availability::no(reason);
}

void HistogramKubiasDepth::ensureResources(PassContext& ctx, glm::ivec2 size, std::uint32_t binCount)
{
    if (!mDepthProgram) {
        mDepthProgram = ctx.shaders.buildGraphics("histogram/kubias-depth/depth-pass",
                                                  "histogram/FullscreenTriangle.vert", "histogram/KubiasDepth.frag");
        mPlaneProgram = ctx.shaders.buildGraphics("histogram/kubias-depth/plane", "histogram/KubiasPlane.vert",
                                                  "histogram/KubiasPlane.frag");
        mDifferenceProgram =
            ctx.shaders.buildCompute("histogram/kubias-depth/difference", "histogram/KubiasDifference.comp");
        mVertexArray = gl::VertexArray("histogram/kubias-depth/empty-vertex-array");
        mOwnCumulative = gl::Buffer("histogram/kubias-depth/cumulative", hd::kMaxHistogramBins * sizeof(std::uint32_t));
    }
    if (mDepth.size() != size || !mDepth) {
        mDepth = gl::Texture::depth("histogram/kubias-depth/depth", GL_DEPTH_COMPONENT32F, size);
        mFramebuffer = gl::Framebuffer("histogram/kubias-depth/framebuffer");
        mFramebuffer.attachTexture(GL_DEPTH_ATTACHMENT, mDepth);
        glNamedFramebufferDrawBuffer(mFramebuffer.id(), GL_NONE);
        glNamedFramebufferReadBuffer(mFramebuffer.id(), GL_NONE);
        mFramebuffer.checkComplete("histogram/kubias-depth/framebuffer");
    }
    while (mQueries.size() < binCount)
        mQueries.emplace_back(util::format("histogram/kubias-depth/plane-query[{}]", mQueries.size()),
                              GL_SAMPLES_PASSED);
}

void HistogramKubiasDepth::build(PassContext& ctx,
                                 const ImageInput& image,
                                 const HistogramSpec& spec,
                                 const HistogramTargets& targets)
{
    const std::uint32_t binCount = std::clamp(spec.binCount, 1u, hd::kMaxHistogramBins);
    if (image.size.x <= 0 || image.size.y <= 0) {
        clearHistogram(targets.histogram, binCount);
        if (targets.cumulative)
            targets.cumulative->clearUintRange(0, wordOffset(binCount));
        return;
    }
    ensureResources(ctx, image.size, binCount);
    gl::Buffer& cumulative = targets.cumulative ? *targets.cumulative : mOwnCumulative;
    {
        RasterStateGuard guard;
        glBindFramebuffer(GL_FRAMEBUFFER, mFramebuffer.id());
        glViewport(0, 0, image.size.x, image.size.y);
        glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
        mVertexArray.bind();
        {
            auto scope = ctx.profiler.scope("histogram/kubias-depth/depth-pass");
            glEnable(GL_DEPTH_TEST);
            glDepthMask(GL_TRUE);
            const float clearDepth = 0.0f;
            glClearNamedFramebufferfv(mFramebuffer.id(), GL_DEPTH, 0, &clearDepth);
            glDepthFunc(GL_ALWAYS);
            bindHistogramInputs(image, targets);
            mDepthProgram.use();
            glDrawArrays(GL_TRIANGLES, 0, 3);
        }
        {
            auto scope = ctx.profiler.scope("histogram/kubias-depth/planes");
            glDepthMask(GL_FALSE);
            glDepthFunc(GL_LESS);
            mPlaneProgram.use();
            // Back to front: plane k (1..B) lies at window depth 1 - k/B, i.e. NDC depth 1 - 2k/B.
            for (std::uint32_t k = 1; k <= binCount; ++k) {
                glProgramUniform1f(mPlaneProgram.id(), 0, float(1.0 - 2.0 * double(k) / double(binCount)));
                mQueries[k - 1].begin();
                glDrawArrays(GL_TRIANGLES, 0, 3);
                mQueries[k - 1].end();
            }
        }
    }
    {
        auto scope = ctx.profiler.scope("histogram/kubias-depth/difference");
        for (std::uint32_t k = 0; k < binCount; ++k)
            glGetQueryBufferObjectuiv(mQueries[k].id(), cumulative.id(), GL_QUERY_RESULT, GLintptr(wordOffset(k)));
        targets.histogram.clearUintRange(0, wordOffset(binCount));
        targets.histogram.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogram);
        cumulative.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch0);
        glProgramUniform1ui(mDifferenceProgram.id(), 0, binCount);
        mDifferenceProgram.use();
        glDispatchCompute(groupsFor(int(binCount), 256), 1, 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    }
    mCensus.run(ctx, image, targets, "histogram/kubias-depth/counters");
}

}  // namespace post
