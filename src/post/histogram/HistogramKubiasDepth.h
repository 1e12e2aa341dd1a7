// HistogramKubiasDepth.h: kubias-depth, the depth-buffer + occlusion-query histogram.
//
// Paper: Kubias, Deinzer, Kreiser, Paulus, "Efficient Computation of Histograms on the GPU" (SCCG
// 2007). A fragment pass writes each pixel's normalised value as depth 1 - t; then binCount planes
// parallel to the view plane are drawn back to front (plane k at depth 1 - k/B, depth test LESS,
// colour and depth writes off), each inside a GL_SAMPLES_PASSED query: plane k passes over exactly
// the pixels with t < k/B, so the queries give the cumulative histogram H directly, and
// h_i = H_i - H_(i-1).
// Here: depth is GL_DEPTH_COMPONENT32F and t is the centre of the pixel's hdBinOf bin, so every
// pixel sits half a bin away from every plane and the counts equal hdBinOf's at every bin edge
// (raw t could round to the other side of a plane). Pixels in no bin are written with depth 0,
// which no plane passes. The planes write their depth from the fragment shader: with the
// rasterised depth, planes near depth 0 passed pixels several bins nearer on the H200 (driver 580),
// so this costs early depth testing (7.2 -> 17.8 ms for 1024x1024 x 256 bins there) for exact
// counts. The queries write H into the cumulative target through a query buffer object (no CPU
// wait); a compute pass takes differences;
// the counters come from a compute census. Out-of-range: clamp puts pixels in the end bins,
// separate counts them in the counters.
// Limits: B + 1 full-screen passes (each plane runs a one-line shader and a depth test). On
// Hopper data-centre GPUs only two TPCs rasterise (17.8 ms for 1024x1024 x 256 bins on an H200).
#pragma once

#include "gl/Framebuffer.h"
#include "gl/Query.h"
#include "gl/VertexArray.h"
#include "post/histogram/HistogramMethod.h"
#include "post/histogram/HistogramPassCommon.h"

#include <vector>

namespace post {

class HistogramKubiasDepth : public HistogramMethod
{
public:
    static constexpr std::string_view kId = "kubias-depth";

    std::string_view id() const override { return kId; }
    std::string_view label() const override { return "Kubias 2007: depth buffer + occlusion queries"; }
    std::string_view description() const override;
    Availability availability(const GpuCaps& caps) const override;
    std::string limits() const override { return "bins + 1 full-screen passes per frame"; }
    HistogramTraits traits() const override { return {.producesCumulative = true}; }

    void build(PassContext& ctx,
               const ImageInput& image,
               const HistogramSpec& spec,
               const HistogramTargets& targets) override;

private:
    void ensureResources(PassContext& ctx, glm::ivec2 size, std::uint32_t binCount);

    gl::Program mDepthProgram;
    gl::Program mPlaneProgram;
    gl::Program mDifferenceProgram;
    gl::VertexArray mVertexArray;
    gl::Texture mDepth;
    gl::Framebuffer mFramebuffer;
    gl::Buffer mOwnCumulative;  ///< used when the pipeline passes no cumulative target
    std::vector<gl::Query> mQueries;
    CounterCensus mCensus;
};

}  // namespace post
