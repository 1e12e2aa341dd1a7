#include "post/histogram/HistogramPassCommon.h"

#include "profiling/Profiler.h"

#include <cstdio>

namespace post {

RasterStateGuard::RasterStateGuard()
{
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &mDrawFramebuffer);
    glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &mReadFramebuffer);
    glGetIntegerv(GL_VIEWPORT, mViewport);
    mBlend = glIsEnabled(GL_BLEND);
    glGetIntegerv(GL_BLEND_SRC_RGB, &mBlendSrcRgb);
    glGetIntegerv(GL_BLEND_DST_RGB, &mBlendDstRgb);
    glGetIntegerv(GL_BLEND_SRC_ALPHA, &mBlendSrcAlpha);
    glGetIntegerv(GL_BLEND_DST_ALPHA, &mBlendDstAlpha);
    glGetIntegerv(GL_BLEND_EQUATION_RGB, &mBlendEquationRgb);
    glGetIntegerv(GL_BLEND_EQUATION_ALPHA, &mBlendEquationAlpha);
    mDepthTest = glIsEnabled(GL_DEPTH_TEST);
    glGetIntegerv(GL_DEPTH_FUNC, &mDepthFunc);
    glGetBooleanv(GL_DEPTH_WRITEMASK, &mDepthMask);
    glGetFloatv(GL_DEPTH_RANGE, mDepthRange);
    glGetBooleanv(GL_COLOR_WRITEMASK, mColorMask);
    mStencilTest = glIsEnabled(GL_STENCIL_TEST);
    mScissorTest = glIsEnabled(GL_SCISSOR_TEST);
    mCullFace = glIsEnabled(GL_CULL_FACE);
    mRasterizerDiscard = glIsEnabled(GL_RASTERIZER_DISCARD);
    mProgramPointSize = glIsEnabled(GL_PROGRAM_POINT_SIZE);
    mColorLogicOp = glIsEnabled(GL_COLOR_LOGIC_OP);
    mMultisample = glIsEnabled(GL_MULTISAMPLE);
    glGetIntegerv(GL_POLYGON_MODE, mPolygonMode);

    glDisable(GL_BLEND);
    glDisable(GL_DEPTH_TEST);
    glDepthMask(GL_FALSE);
    glDepthRange(0.0, 1.0);
    glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    glDisable(GL_STENCIL_TEST);
    glDisable(GL_SCISSOR_TEST);
    glDisable(GL_CULL_FACE);
    glDisable(GL_RASTERIZER_DISCARD);
    glDisable(GL_COLOR_LOGIC_OP);
    glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
}

RasterStateGuard::~RasterStateGuard()
{
    auto setEnabled = [](GLenum cap, GLboolean on) { on ? glEnable(cap) : glDisable(cap); };
    auto live = [](GLint framebuffer) {
        return framebuffer != 0 && glIsFramebuffer(GLuint(framebuffer)) ? GLuint(framebuffer) : 0u;
    };
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, live(mDrawFramebuffer));
    glBindFramebuffer(GL_READ_FRAMEBUFFER, live(mReadFramebuffer));
    glViewport(mViewport[0], mViewport[1], mViewport[2], mViewport[3]);
    setEnabled(GL_BLEND, mBlend);
    glBlendFuncSeparate(GLenum(mBlendSrcRgb), GLenum(mBlendDstRgb), GLenum(mBlendSrcAlpha), GLenum(mBlendDstAlpha));
    glBlendEquationSeparate(GLenum(mBlendEquationRgb), GLenum(mBlendEquationAlpha));
    setEnabled(GL_DEPTH_TEST, mDepthTest);
    glDepthFunc(GLenum(mDepthFunc));
    glDepthMask(mDepthMask);
    glDepthRange(mDepthRange[0], mDepthRange[1]);
    glColorMask(mColorMask[0], mColorMask[1], mColorMask[2], mColorMask[3]);
    setEnabled(GL_STENCIL_TEST, mStencilTest);
    setEnabled(GL_SCISSOR_TEST, mScissorTest);
    setEnabled(GL_CULL_FACE, mCullFace);
    setEnabled(GL_RASTERIZER_DISCARD, mRasterizerDiscard);
    setEnabled(GL_PROGRAM_POINT_SIZE, mProgramPointSize);
    setEnabled(GL_COLOR_LOGIC_OP, mColorLogicOp);
    setEnabled(GL_MULTISAMPLE, mMultisample);
    glPolygonMode(GL_FRONT_AND_BACK, GLenum(mPolygonMode[0]));
    // Passes bind their own program and vertex array (no pass relies on those being left bound), and the
    // ones bound before may have been deleted since, so they are not restored.
}

void bindHistogramInputs(const ImageInput& image, const HistogramTargets& targets)
{
    image.texture.bindUnit(hd::kTextureUnitInput);
    glBindSampler(hd::kTextureUnitInput, 0);
    targets.params.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogramParams);
}

std::uint32_t groupsFor(int count, std::uint32_t groupSize)
{
    if (count <= 0)
        return 0u;
    return (std::uint32_t(count) + groupSize - 1u) / groupSize;
}

void dispatchPerPixel(const gl::Program& program,
                      GLint sizeLocation,
                      const ImageInput& image,
                      const HistogramTargets& targets)
{
    bindHistogramInputs(image, targets);
    targets.histogram.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogram);
    glProgramUniform2i(program.id(), sizeLocation, image.size.x, image.size.y);
    program.use();
    glDispatchCompute(groupsFor(image.size.x, hd::kHistogramGroupX), groupsFor(image.size.y, hd::kHistogramGroupY), 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
}

void clearHistogram(gl::Buffer& histogram, std::uint32_t binCount)
{
    histogram.clearUintRange(0, wordOffset(binCount));
    histogram.clearUintRange(wordOffset(hd::kHistogramCountersOffset), wordOffset(hd::kCounterCount));
}

int glVersionNumber(const GpuCaps& caps)
{
    int major = 0;
    int minor = 0;
    if (std::sscanf(caps.gl.version.c_str(), "%d.%d", &major, &minor) != 2)
        return 0;
    return major * 10 + minor;
}

std::string queryBufferUnavailableReason(const GpuCaps& caps)
{
    if (glVersionNumber(caps) >= 44 || caps.gl.hasExtension("GL_ARB_query_buffer_object"))
        return {};
    return "needs GL 4.4 or GL_ARB_query_buffer_object to keep occlusion-query results on the GPU";
}

void CounterCensus::run(PassContext& ctx,
                        const ImageInput& image,
                        const HistogramTargets& targets,
                        std::string_view scopeName)
{
    auto scope = ctx.profiler.scope(scopeName);
    if (!mProgram) {
        mProgram = ctx.shaders.buildCompute("histogram/counter-census", "histogram/CounterCensus.comp");
        mSizeLocation = mProgram.uniformLocation("uSize");
    }
    targets.histogram.clearUintRange(wordOffset(hd::kHistogramCountersOffset), wordOffset(hd::kCounterCount));
    if (image.size.x <= 0 || image.size.y <= 0)
        return;
    dispatchPerPixel(mProgram, mSizeLocation, image, targets);
}

}  // namespace post
