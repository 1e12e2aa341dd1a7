#include "post/scan/ScanHensleySat.h"

#include "gl/Debug.h"
#include "post/histogram/HistogramPassCommon.h"
#include "util/Log.h"

#include <stdexcept>

namespace post {

std::string_view ScanHensleySat::description() const
{
    return "Hensley et al. 2005 (cited by Scheuermann & Hensley for the equalization table): recursive doubling in "
           "render passes over a one-row R32UI texture; pass i adds the texel 2^i to the left (ping-pong), "
           "ceil(log2 B) passes, exact in integers. Up to 4096 elements.";
}

Availability ScanHensleySat::availability(const GpuCaps& caps) const
{
    if (caps.maxTextureSize < int(maxLength()))
        return Availability::no(
            util::format("needs GL_MAX_TEXTURE_SIZE >= {} for a one-row texture of every bin, "
                         "this GPU has {}",
                         maxLength(), caps.maxTextureSize));
    return Availability::yes();
}

std::string ScanHensleySat::status() const
{
    if (mLastPasses < 0)
        return {};
    return util::format("{} render pass{} over {} x 1 texels (R32UI)", mLastPasses, mLastPasses == 1 ? "" : "es",
                        mLastCount);
}

int ScanHensleySat::passCountFor(std::uint32_t count)
{
    int passes = 0;
    for (std::uint64_t covered = 1; covered < count; covered <<= 1u)
        ++passes;
    return passes;
}

void ScanHensleySat::ensureResources(PassContext& ctx)
{
    if (mProgram)
        return;
    mProgram = ctx.shaders.buildGraphics("scan.hensley-sat.doubling", "histogram/FullscreenTriangle.vert",
                                         "scan/HensleyDoubling.frag");
    mVertexArray = gl::VertexArray("scan.hensley-sat.empty-vertex-array");
    for (std::size_t i = 0; i < mTextures.size(); ++i) {
        const std::string name = util::format("scan.hensley-sat.ping-pong[{}]", i);
        mTextures[i] = gl::Texture(name, GL_R32UI, {int(maxLength()), 1});
        mTextures[i].setFilter(GL_NEAREST, GL_NEAREST);  // an integer texture with linear filters is incomplete
        mFramebuffers[i] = gl::Framebuffer(name + "-framebuffer");
        mFramebuffers[i].attachTexture(GL_COLOR_ATTACHMENT0, mTextures[i]);
        mFramebuffers[i].setDrawBuffers({GL_COLOR_ATTACHMENT0});
        mFramebuffers[i].checkComplete(name + "-framebuffer");
    }
}

void ScanHensleySat::inclusiveScan(PassContext& ctx, const gl::Buffer& input, gl::Buffer& output, std::uint32_t count)
{
    if (count > maxLength())
        throw std::invalid_argument(util::format("hensley-sat scans at most {} elements, got {}", maxLength(), count));
    const std::size_t bytes = std::size_t(count) * sizeof(std::uint32_t);
    if (input.size() < bytes || output.size() < bytes)
        throw std::invalid_argument(util::format("hensley-sat: buffers smaller than {} uints", count));
    if (count == 0)
        return;
    ensureResources(ctx);
    GLint previousUnpack = 0;
    GLint previousPack = 0;
    glGetIntegerv(GL_PIXEL_UNPACK_BUFFER_BINDING, &previousUnpack);
    glGetIntegerv(GL_PIXEL_PACK_BUFFER_BINDING, &previousPack);

    {
        gl::DebugGroup group("scan/hensley-sat/upload");
        glMemoryBarrier(GL_PIXEL_BUFFER_BARRIER_BIT);  // the histogram was written by shaders
        glBindBuffer(GL_PIXEL_UNPACK_BUFFER, input.id());
        glTextureSubImage2D(mTextures[0].id(), 0, 0, 0, GLsizei(count), 1, GL_RED_INTEGER, GL_UNSIGNED_INT, nullptr);
    }
    int current = 0;
    const int passes = passCountFor(count);
    {
        gl::DebugGroup group("scan/hensley-sat/doubling");
        RasterStateGuard guard;
        mVertexArray.bind();
        mProgram.use();
        glViewport(0, 0, GLsizei(count), 1);
        glBindSampler(hd::kTextureUnitAux, 0);
        for (int pass = 0; pass < passes; ++pass) {
            glBindFramebuffer(GL_FRAMEBUFFER, mFramebuffers[1 - current].id());
            mTextures[current].bindUnit(hd::kTextureUnitAux);
            mProgram.set(0, 1 << pass);
            glDrawArrays(GL_TRIANGLES, 0, 3);
            current = 1 - current;
        }
    }
    {
        gl::DebugGroup group("scan/hensley-sat/download");
        glMemoryBarrier(GL_PIXEL_BUFFER_BARRIER_BIT);  // the output may have been written by shaders before
        glBindBuffer(GL_PIXEL_PACK_BUFFER, output.id());
        glGetTextureSubImage(mTextures[current].id(), 0, 0, 0, 0, GLsizei(count), 1, 1, GL_RED_INTEGER, GL_UNSIGNED_INT,
                             GLsizei(bytes), nullptr);
    }
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, GLuint(previousUnpack));
    glBindBuffer(GL_PIXEL_PACK_BUFFER, GLuint(previousPack));
    mLastPasses = passes;
    mLastCount = count;
}

}  // namespace post
