// ScanHensleySat.h: "hensley-sat", the histogram's prefix sum by recursive doubling over a texture
// in O(log B) render passes.
//
// Paper: Hensley, Scheuermann, Coombe, Singh & Lastra, "Fast summed-area table generation and its
// applications", Computer Graphics Forum 24(3) (Eurographics 2005), the method Scheuermann &
// Hensley's histogram paper (seed 003, section 3.1) names for integrating the histogram into the
// equalization table T in O(log B) rendering passes. Their summed-area table is built by recursive
// doubling: pass i renders every texel as itself plus the texel 2^i before it (ping-ponging two
// textures), first along rows, then along columns.
// Here: the histogram is a one-row B x 1 texture (the 1D texture of seed 003), so only the row phase
// runs: ceil(log2 B) passes of a fragment shader (shaders/scan/HensleyDoubling.frag), 12 for 4096
// bins, two texel fetches each. A 2-D layout would not help: a summed-area table sums rectangles,
// not row-major prefixes, so a 2-D prefix would need the row phase plus a scan of the row totals,
// and every GL 4.5 implementation takes rows of at least 16384 texels. The input buffer becomes the
// first texture and the last texture becomes the output buffer through pixel buffer copies
// (glTextureSubImage2D from GL_PIXEL_UNPACK_BUFFER, glGetTextureSubImage into GL_PIXEL_PACK_BUFFER),
// so nothing leaves the GPU.
// Precision: the paper's float render targets lose exactness once a prefix exceeds 2^24 (a CDF of
// more than 16.7M pixels); R32UI targets and uint adds keep every length exact, wrapping mod 2^32
// like the CPU reference.
// Limits: up to kMaxHistogramBins (4096) elements, and no more than GL_MAX_TEXTURE_SIZE (availability
// says so); O(B log B) additions, against O(B) for the compute scans.
#pragma once

#include "gl/Framebuffer.h"
#include "gl/VertexArray.h"
#include "post/scan/ScanMethod.h"

#include <array>

namespace post {

class ScanHensleySat final : public ScanMethod
{
public:
    static constexpr std::string_view kId = "hensley-sat";

    std::string_view id() const override { return kId; }
    std::string_view label() const override { return "Hensley 2005: recursive doubling, render passes"; }
    std::string_view description() const override;
    Availability availability(const GpuCaps& caps) const override;
    std::string status() const override;

    void inclusiveScan(PassContext& ctx, const gl::Buffer& input, gl::Buffer& output, std::uint32_t count) override;

    /// Render passes for a length: ceil(log2 count) (0 for one element).
    static int passCountFor(std::uint32_t count);
    /// Render passes of the last scan.
    int lastPassCount() const { return mLastPasses; }

private:
    void ensureResources(PassContext& ctx);

    gl::Program mProgram;
    gl::VertexArray mVertexArray;
    std::array<gl::Texture, 2> mTextures;  ///< ping-pong, kMaxHistogramBins x 1, R32UI
    std::array<gl::Framebuffer, 2> mFramebuffers;
    int mLastPasses = -1;
    std::uint32_t mLastCount = 0;
};

}  // namespace post
