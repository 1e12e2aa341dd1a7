// HistogramScatterBlend.h: scatter-blend, one point per pixel accumulated by additive blending.
//
// Papers: Scheuermann & Hensley, "Efficient Histogram Generation Using Scattering on GPUs" (I3D
// 2007); Deuerling-Zheng et al. 2006 (blending-based histograms). Each input pixel becomes a point
// (glDrawArrays(GL_POINTS, 0, w*h), no vertex buffer, gl_VertexID -> pixel, texelFetch in the vertex
// shader); the vertex shader bins it with hdBinOf and places it on the centre of its bin's texel of
// a 1xB render target (wrapped into rows when B exceeds the texture width); blending
// (GL_ONE, GL_ONE) adds 1.0 per point. Points in no bin are moved outside the clip volume.
// Options (the paper's precision workarounds):
//   - target format R32F (default, exact below 2^24 per texel) or R16F: float16 has 11 significant
//     bits, so a texel stops at 2048 (2048 + 1 rounds back to 2048); the status line shows the
//     saturated bins and the lost total live;
//   - L local histograms: point i goes to histogram i mod L (four per row group, one per RGBA
//     channel; more rows for more groups), summed by the gather pass, so each texel sees ~1/L of
//     the points;
//   - large histogram then reduce: scatter into 1024 bins and sum groups of 1024/B; exact only when B
//     divides 1024 (B a power of two <= 512: floor(t * 1024) / (1024 / B) == floor(t * B) for every
//     float t), otherwise the option is not applied and the status line says so.
// A compute gather pass converts the floats to uint counts (summing local histograms and groups);
// the counters come from a compute census. Point rasterisation: gl_PointSize = 1 at the texel
// centre, viewport = target size, so each point covers exactly one texel.
// Limits: blending serialises points that hit the same texel (uniform images are the slow case);
// R16F saturates at 2048 per texel.
#pragma once

#include "gl/Fence.h"
#include "gl/Framebuffer.h"
#include "gl/VertexArray.h"
#include "post/histogram/HistogramMethod.h"
#include "post/histogram/HistogramPassCommon.h"

#include <array>
#include <optional>

namespace post {

enum class ScatterFormat { R32F, R16F };

struct ScatterSettings
{
    ScatterFormat format = ScatterFormat::R32F;
    std::uint32_t localHistograms = 1;  ///< L, 1..kMaxLocalHistograms
    bool largeThenReduce = false;       ///< build kLargeBins bins, then sum groups (B must divide kLargeBins)
};

class HistogramScatterBlend : public HistogramMethod
{
public:
    static constexpr std::string_view kId = "scatter-blend";
    static constexpr std::uint32_t kMaxLocalHistograms = 16;
    static constexpr std::uint32_t kLargeBins = 1024;

    HistogramScatterBlend();
    ~HistogramScatterBlend() override;

    std::string_view id() const override { return kId; }
    std::string_view label() const override { return "Scheuermann 2007: scatter points + blending"; }
    std::string_view description() const override;
    std::string limits() const override;

    void build(PassContext& ctx,
               const ImageInput& image,
               const HistogramSpec& spec,
               const HistogramTargets& targets) override;

    bool ui() override;
    ParameterList parameters() override;
    std::string status() const override;

    const ScatterSettings& settings() const { return mSettings; }
    void setSettings(const ScatterSettings& settings);

private:
    struct Layout
    {
        std::uint32_t targetBins = 0;  ///< bins in the render target (B, or kLargeBins when reducing)
        int width = 0;
        int rowsPerHistogram = 0;
        int channels = 1;
        int height = 0;
        bool operator==(const Layout&) const = default;
    };
    struct StatsReadback
    {
        gl::Buffer buffer;
        gl::Fence fence;  ///< pending while the copy is in flight
    };
    Layout layoutFor(std::uint32_t binCount, int maxTextureSize) const;
    void ensureResources(PassContext& ctx, const Layout& layout);
    void pollStats();

    ScatterSettings mSettings;
    gl::Program mScatterProgram;
    gl::Program mResolveProgram;
    gl::VertexArray mVertexArray;
    gl::Texture mTarget;
    gl::Framebuffer mFramebuffer;
    Layout mLayout;
    ScatterFormat mBuiltFormat = ScatterFormat::R32F;
    gl::Buffer mStats;
    std::array<StatsReadback, 4> mReadbacks;
    std::size_t mNextReadback = 0;
    std::optional<std::array<std::uint32_t, 3>> mLastStats;  ///< saturated bins, total in bins, pixels in bins
    bool mReduceIgnored = false;
    CounterCensus mCensus;
};

}  // namespace post
