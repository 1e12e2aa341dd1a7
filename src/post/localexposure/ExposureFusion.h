// ExposureFusion.h: the "fusion" local exposure: exposure fusion (Mertens, Kautz, Van Reeth, "Exposure
// Fusion", Pacific Graphics 2007) used as a local tone mapper, after Unreal Engine 5.5's Fusion local
// exposure method (public documentation: "fuse multiple exposures according to quality measures; local
// exposure is calculated using the fused exposures"; what it does not say is guessed, docs/TONE_OPERATORS.md).
//
// From the frame's luminance it makes three synthetic exposures, the frame's and two bracketing it by
// the highlight and shadow EVs (tone/ExposureFusionSettings.h), encodes each for display (1 / (1 +
// 2^-EV), middle grey at 0.5), weights each by Mertens' well-exposedness (a Gaussian around 0.5, sigma
// 0.2), normalises the weights and blends the exposures with Burt and Adelson's Laplacian pyramid (up
// to 16 levels). The result is a log2 exposure adjustment per texel (fused EV minus the frame's EV,
// within the bracket): an R32F texture the apply pass samples bilinearly (exposureLog2Texture()).
//
// Three sub-passes, each timed (profiler scopes in run(), GL timestamps in time()) with a debug group:
//  reduce   (FusionReduce.comp): the one read of the frame: the mean EV of each reduction x reduction
//           block (default 4x4: at 4K a 960x540 base), the exposures' display values and weights;
//  pyramid  (FusionPyramid.comp, one dispatch a level): the Gaussian pyramids of both;
//  collapse (FusionCollapse.comp, one dispatch a level, coarsest first): the blend, and at the base
//           the adjustment.
// Every value is computed by shared/ExposureFusion.h in a fixed order (`precise`), so the CPU reference
// (reference/ExposureFusion.h) gives the same bits.
// Limits: luminance only (Mertens' contrast and saturation measures are not used: the adjustment
// scales all three channels alike); the adjustment has the base's resolution (detail finer than a
// block keeps the frame's own contrast, as Unreal's bilateral grid does); textures RGBA32F; a frame of
// at most GL_MAX_TEXTURE_SIZE a side.
#pragma once

#include "post/PostTypes.h"
#include "tone/ExposureFusionSettings.h"

#include <vector>

namespace post {

/// One run's sub-pass times from GL timestamps (ms).
struct ExposureFusionTimings
{
    double reduceMs = 0.0;
    double pyramidMs = 0.0;
    double collapseMs = 0.0;
    double totalMs() const { return reduceMs + pyramidMs + collapseMs; }
};

class ExposureFusion
{
public:
    /// Computes the adjustment map of `frame` (RGBA16F or RGBA32F, linear, its first `size` pixels) at
    /// the global exposure `exposureLog2`: the luminance (s.luminance's weights) times 2^exposureLog2
    /// puts the metered middle grey at 0.18 (a pipeline that meters a middle-grey luminance M passes
    /// log2(0.18 / M)); each sub-pass in a profiler scope ("local-exposure/fusion/...").
    /// Throws std::invalid_argument for an empty size or one larger than the texture.
    void run(PassContext& ctx, const gl::Texture& frame, glm::ivec2 size, float exposureLog2, const FusionSettings& s);
    /// As run(), with the global exposure read on the GPU from `exposureLog2` (float[0], hd::
    /// kBindingFusionExposure: FusionMeter.comp's in the pipeline), so the host never waits for it.
    void run(PassContext& ctx,
             const gl::Texture& frame,
             glm::ivec2 size,
             const gl::Buffer& exposureLog2,
             const FusionSettings& s);

    /// Runs the passes `runs` times back to back with GL timestamps around each sub-pass and waits
    /// for them (benchmarks, tests): no profiler.
    std::vector<ExposureFusionTimings> time(gl::ShaderLibrary& shaders,
                                            const gl::Texture& frame,
                                            glm::ivec2 size,
                                            float exposureLog2,
                                            const FusionSettings& s,
                                            int runs);

    /// The log2 exposure adjustment (R32F, mapSize(), linear filtering, clamped to the edge). The apply
    /// pass samples it at uv = (pixel + 0.5) / (frame size) x uvScale().
    const gl::Texture& exposureLog2Texture() const { return mOutput; }
    glm::ivec2 mapSize() const { return mOutput.size(); }
    /// frame size / (reduction x map size): 1 where the frame is a multiple of the reduction; else the
    /// map's last texels cover partial blocks and the frame's uv is scaled to land on their centres.
    glm::vec2 uvScale() const;
    int levels() const { return int(mLevels.size()); }
    int reduction() const { return mReduction; }

private:
    struct Level
    {
        gl::Texture display, weight, collapsed;  ///< collapsed: levels above the base only
    };
    void prepare(gl::ShaderLibrary& shaders, const gl::Texture& frame, glm::ivec2 size, const FusionSettings& s);
    void dispatchReduce(const gl::Texture& frame,
                        float exposureLog2,
                        const FusionSettings& s,
                        const gl::Buffer* metered = nullptr);
    void runPasses(PassContext& ctx,
                   const gl::Texture& frame,
                   float exposureLog2,
                   const FusionSettings& s,
                   const gl::Buffer* metered);
    void dispatchPyramid();
    void dispatchCollapse();

    gl::Program mReduceProgram, mReduceMeteredProgram, mPyramidProgram, mCollapseProgram;
    std::vector<Level> mLevels;
    gl::Texture mOutput;
    glm::ivec2 mFrameSize{0};
    int mReduction = 1;
    FusionBracket mBracket;
};

}  // namespace post
