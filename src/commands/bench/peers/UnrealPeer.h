// UnrealPeer.h: Unreal Engine 5's histogram auto exposure as a peer of `bench pipeline --peers`
// (PeerMetering.h). Engine: Unreal Engine 5 (5.x), the legacy histogram path, following
// Engine/Shaders/Private/PostProcessHistogram.usf (MainCS; group shape and loop counts from
// Renderer/Private/PostProcess/PostProcessHistogram.cpp), PostProcessHistogramReduce.usf and the eye
// adaptation of PostProcessEyeAdaptation.usf / PostProcessHistogramCommon.ush, on the input UE gives
// it (PostProcessing.cpp: HalfResolutionSceneColor), written anew in GLSL:
//   downsample      shaders/peers/UnrealDownsample.comp: the half-resolution scene colour (UE makes
//                   it for other passes too: its row is timed, and the metering row includes it);
//   histogram       shaders/peers/UnrealHistogram.comp: 8x4 invocations, 64x32-texel tiles, one
//                   64-bin float histogram per invocation in shared memory, a bilinear two-bin splat,
//                   each workgroup's histogram written out as a row;
//   reduce          shaders/peers/UnrealReduce.comp: the rows summed into one histogram;
//   eye-adaptation  shaders/peers/UnrealEyeAdaptation.comp: one invocation: the 10..90 % mean of
//                   log2 L, limited to 0.03..8, exposed to 0.18, adapted.
// Simplifies: buffers instead of UE's RGBA16F histogram textures (4 bins a texel, as here), texel
// fetches instead of gathers, no metering-mask texture (UE's default is none), no exposure
// compensation or its curve (unset by default), UE's calibration and lens constants left out (as in
// hdrlab's preset), hdrlab's luminance weights; the reduce is one compute workgroup (a pixel shader
// in UE). The atomic histogram (r.Histogram.UseAtomic, Histogram.usf) is not this peer.
#pragma once

#include "commands/bench/peers/PeerMetering.h"

namespace app {

class UnrealPeer final : public PeerMetering
{
public:
    explicit UnrealPeer(const gl::ShaderLibrary& shaders);
    std::string_view id() const override { return "unreal"; }
    std::string_view engine() const override
    {
        return "Unreal Engine 5, PostProcessHistogram.usf (legacy path) + eye adaptation, half resolution";
    }
    std::string_view simplifies() const override
    {
        return "buffers for the histogram textures; texel fetches for gathers; no mask, compensation or "
               "calibration constants; hdrlab's luminance weights";
    }
    std::vector<std::string> passNames() const override
    {
        return {"downsample", "histogram", "reduce", "eye-adaptation"};
    }

    /// The histogram's workgroups (rows) for a half-resolution image of `half`.
    static glm::uvec2 histogramGroups(glm::ivec2 half);

protected:
    void prepareFor(glm::ivec2 size) override;
    void dispatch(const gl::Texture& frame, bool snap, const std::function<void(int)>& mark) override;

private:
    gl::Texture mHalf;
    gl::Buffer mRows, mReduced;
};

}  // namespace app
