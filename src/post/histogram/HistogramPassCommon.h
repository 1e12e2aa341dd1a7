// HistogramPassCommon.h: small pieces the paper methods and compute variants share: a guard that
// puts the rasteriser into a known state for a histogram pass and restores what it found, the
// counter census (a compute pass that fills the no-bin counters beside the raster methods), input
// binding and query-buffer-object availability.
#pragma once

#include "post/PostTypes.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace post {

/// Saves the GL state a raster histogram pass changes (framebuffer, viewport, blend, depth, colour
/// mask and a few switches that would silently break a full-screen pass),
/// sets neutral values (blend, depth, stencil, scissor, culling off; fill mode; depth range 0..1)
/// and restores everything on destruction.
class RasterStateGuard
{
public:
    RasterStateGuard();
    ~RasterStateGuard();
    RasterStateGuard(const RasterStateGuard&) = delete;
    RasterStateGuard& operator=(const RasterStateGuard&) = delete;

private:
    GLint mDrawFramebuffer = 0;
    GLint mReadFramebuffer = 0;
    GLint mViewport[4] = {};
    GLboolean mBlend = GL_FALSE;
    GLint mBlendSrcRgb = GL_ONE, mBlendDstRgb = GL_ZERO, mBlendSrcAlpha = GL_ONE, mBlendDstAlpha = GL_ZERO;
    GLint mBlendEquationRgb = GL_FUNC_ADD, mBlendEquationAlpha = GL_FUNC_ADD;
    GLboolean mDepthTest = GL_FALSE;
    GLint mDepthFunc = GL_LESS;
    GLboolean mDepthMask = GL_TRUE;
    GLfloat mDepthRange[2] = {0.0f, 1.0f};
    GLboolean mColorMask[4] = {GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE};
    GLboolean mStencilTest = GL_FALSE;
    GLboolean mScissorTest = GL_FALSE;
    GLboolean mCullFace = GL_FALSE;
    GLboolean mRasterizerDiscard = GL_FALSE;
    GLboolean mProgramPointSize = GL_FALSE;
    GLboolean mColorLogicOp = GL_FALSE;
    GLboolean mMultisample = GL_TRUE;
    GLint mPolygonMode[2] = {GL_FILL, GL_FILL};
};

/// Binds the input image to hd::kTextureUnitInput (with no sampler object, so texelFetch sees the
/// texture's own state) and the params buffer to hd::kBindingHistogramParams.
void bindHistogramInputs(const ImageInput& image, const HistogramTargets& targets);

/// Number of workgroups of `groupSize` that cover `count` items.
std::uint32_t groupsFor(int count, std::uint32_t groupSize);

/// Binds the inputs and the histogram buffer, then runs `program` with one invocation per pixel
/// (hd::kHistogramGroupX x hd::kHistogramGroupY workgroups); `sizeLocation` receives the image size.
void dispatchPerPixel(const gl::Program& program,
                      GLint sizeLocation,
                      const ImageInput& image,
                      const HistogramTargets& targets);

/// Byte offset of a word of the histogram buffer.
constexpr std::size_t wordOffset(std::uint32_t word)
{
    return std::size_t(word) * sizeof(std::uint32_t);
}

/// Clears bins [0, binCount) and every counter of the histogram buffer (on the GPU).
void clearHistogram(gl::Buffer& histogram, std::uint32_t binCount);

/// "" when query results can be written to a buffer (GL 4.4 or ARB_query_buffer_object), else why not.
std::string queryBufferUnavailableReason(const GpuCaps& caps);
/// Parses "4.5 (Core Profile) Mesa ..." into 45; 0 when unknown.
int glVersionNumber(const GpuCaps& caps);

/// The compute pass that counts NaN/Inf/non-positive/below/above pixels into the counters.
class CounterCensus
{
public:
    /// Clears the counters and counts them for `image`, inside profiler scope `scopeName`.
    void run(PassContext& ctx, const ImageInput& image, const HistogramTargets& targets, std::string_view scopeName);

private:
    gl::Program mProgram;
    GLint mSizeLocation = -1;
};

}  // namespace post
