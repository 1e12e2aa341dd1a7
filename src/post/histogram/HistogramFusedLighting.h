// HistogramFusedLighting.h: "fused-lighting": the log-luminance histogram, and Ward's foveal image,
// built inside the scene's deferred lighting pass from the values it stores, so the chain reads the
// frame once (for apply) instead of two or three times.
//
// Technique (docs/METHODS.md; the "fuse the binning into the producer pass's epilogue" option of
// shared/research/performance.md section 5): before the frame renders, the pipeline writes this
// frame's params and prepare() clears the outputs (PostPipeline::prepareFusedHistogram); the app hands
// them to the lighting pass, whose FUSED_HISTOGRAM variant bins each pixel as it stores it
// (shaders/histogram/FusedLighting.glsl: per 8x8 tile one global atomic per distinct bin, one min/max
// of the luminance, and the tile's sums of each of Ward's foveal blocks it touches). build() only
// finishes: a 16 KB copy of bins and counters into the pipeline's histogram and, when Ward asks for
// its foveal image, one invocation per foveal sample adding the tiles' sums
// (shaders/histogram/FusedFoveal.comp: the sums are at most 1 byte per frame pixel, written by the
// lighting pass and read here, against 8 or 16 for a read of the frame). Binning is bit-exact
// (shared/HostDevice.h) on the frame as stored: an RGBA16F frame is rounded to half before it is
// binned, and a stress preset's NaN/Inf/negative texels are written by the same pass.
// Range: the manual range, or the auto range smoothed up to the previous frame (as engines meter with
// the frame before, docs/shared engines.md): the lighting pass also reduces the frame's luminance
// min/max, from which the pipeline's range stage makes the next frame's range without reading it.
// Limits: only where the frame comes from the scene's deferred lighting pass (not forward lighting, a
// still image, view, tonemap or a sequence: the pipeline refuses it there, kNeedsFusedProducer); the
// full frame (no downsampling); 1..4096 bins; the auto range lags one frame (the first frame after a
// reset bins with the manual range); split view B cannot use it (one producer, pipeline A's).
#pragma once

#include "post/histogram/HistogramMethod.h"

namespace post {

class HistogramFusedLighting final : public HistogramMethod, public FusedHistogramOutputs
{
public:
    static constexpr std::string_view kId = "fused-lighting";

    std::string_view id() const override { return kId; }
    std::string_view label() const override { return "Fused: binned in the deferred lighting pass"; }
    std::string_view description() const override;
    std::string limits() const override;
    std::string status() const override { return mStatus; }
    HistogramTraits traits() const override { return {.fillsFovealImage = true, .needsFusedProducer = true}; }
    FusedHistogramOutputs* fusedOutputs() override { return this; }

    /// Before the frame renders: clears the outputs for a frame of `frameSize` that will be binned with
    /// `params`, with Ward's foveal sums for `foveal`'s grid (nullptr: none), and returns what the
    /// producer fills (`produced` false until it has).
    FusedHistogramTarget& prepare(const gl::Buffer& params, glm::ivec2 frameSize, const FovealTarget* foveal) override;
    /// Whether the producer filled this frame's outputs for a frame of `frameSize`.
    bool produced(glm::ivec2 frameSize) const;
    /// After the frame's histogram stage: the outputs belong to the past frame now.
    void endFrame() override { mTarget.produced = false; }
    /// The pipeline's guard: the producer's outputs do not belong to the frame being run (`reason`);
    /// build() then leaves the histogram empty and status() gives the reason.
    void discardFrame(std::string reason) override
    {
        mTarget.produced = false;
        mDiscardReason = std::move(reason);
    }
    /// The fused outputs (after prepare()): words hd::kFusedMinBits and hd::kFusedMaxBits hold the float
    /// bits of the frame's least and largest finite positive luminance (the auto range of the next frame).
    const gl::Buffer& outputs() const override { return mOutputs; }

    /// Copies the producer's bins and counters into `targets.histogram` and, with a foveal target of the
    /// prepared grid, finishes Ward's foveal image. Without this frame's producer results the histogram
    /// is left empty and status() says why (the pipeline never lets that happen).
    void build(PassContext& ctx,
               const ImageInput& image,
               const HistogramSpec& spec,
               const HistogramTargets& targets) override;

private:
    gl::Buffer mOutputs;     ///< uint[hd::kFusedHistogramWords]
    gl::Buffer mFovealSums;  ///< vec4 per (tile, slot); grown as needed
    gl::Program mFovealProgram;
    FusedHistogramTarget mTarget;
    std::string mStatus;
    std::string mDiscardReason;
};

/// The most foveal blocks an 8x8 tile of the lighting pass touches along an axis of `pixels` split into
/// `cells` blocks (WardFoveal.comp's partition): the slots per tile the fused foveal sums keep.
int fusedFovealSpan(int pixels, int cells);

}  // namespace post
