// HdrpPeer.h: Unity HDRP's Automatic Histogram exposure as a peer of `bench pipeline --peers`
// (PeerMetering.h). Engine: Unity HDRP (com.unity.render-pipelines.high-definition, Unity-Technologies/Graphics),
// following Runtime/PostProcessing/Shaders/HistogramExposure.compute (KHistogramGen, KHistogramReduce) with
// HistogramExposureCommon.hlsl, ExposureCommon.hlsl (the centre-weighted mask) and the defaults of
// Runtime/PostProcessing/Components/Exposure.cs (shared/Peers.h), written anew in GLSL:
//   clear      the 128 global bins cleared (HDRP sets them from the CPU every frame);
//   histogram  shaders/peers/HdrpHistogram.comp: 16x8 workgroups over a half-resolution grid reading
//              every second full-resolution pixel, centre-weighted weights packed x 2048, shared
//              atomics, one global atomicAdd per bin per workgroup;
//   reduce     shaders/peers/HdrpReduce.comp: one workgroup of 128: the total, then one invocation's
//              40..90 % band of EV100, the adaptation, the limits -1..14 EV100.
// Simplifies: no wave intrinsics in the reduce (HDRP's fallback path), no curve remapping or
// compensation (off by default), no dynamic-resolution UV scaling (point reads at the pixel, which
// HDRP's bilinear read at the texel centre equals), the grid rounded up (ceil(w/2) x ceil(h/2)) so a
// 1-pixel frame is metered, hdrlab's luminance weights.
#pragma once

#include "commands/bench/peers/PeerMetering.h"

namespace app {

class HdrpPeer final : public PeerMetering
{
public:
    explicit HdrpPeer(const gl::ShaderLibrary& shaders);
    std::string_view id() const override { return "unity-hdrp"; }
    std::string_view engine() const override { return "Unity HDRP, HistogramExposure.compute"; }
    std::string_view simplifies() const override
    {
        return "no wave intrinsics; no curve remapping or compensation; point reads; hdrlab's luminance weights";
    }
    std::vector<std::string> passNames() const override { return {"clear", "histogram", "reduce"}; }

protected:
    void prepareFor(glm::ivec2 size) override;
    void dispatch(const gl::Texture& frame, bool snap, const std::function<void(int)>& mark) override;

private:
    gl::Buffer mBins;
};

}  // namespace app
