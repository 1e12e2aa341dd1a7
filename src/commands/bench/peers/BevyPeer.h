// BevyPeer.h: Bevy's auto exposure as a peer of `bench pipeline --peers` (PeerMetering.h).
// Engine: Bevy 0.14 and later (the shader at bevyengine/bevy 67576440, with the exponential transition), following
// crates/bevy_core_pipeline/src/auto_exposure/auto_exposure.wgsl (compute_histogram,
// compute_average) with settings.rs / pipeline.rs defaults (shared/Peers.h), written anew in GLSL:
//   histogram  shaders/peers/BevyHistogram.comp: 16x16 workgroups, one pixel per invocation, the
//              metering mask's lookup, shared atomics, one global atomicAdd per bin per workgroup;
//   average    shaders/peers/BevyAverage.comp: one invocation: cumulative counts, the 10..90 %
//              filter, the mean bin as avg log2 L, target -avg, the adaptation; clears the bins.
// Simplifies: the compensation curve (flat 0 by default: its LUT lookup is left out), the metering
// mask is Bevy's default (a 1x1 white texture, still looked up per pixel), hdrlab's luminance
// weights. An earlier revision of the shader in Bevy's history has 256 bins; the one followed here has 64.
#pragma once

#include "commands/bench/peers/PeerMetering.h"

namespace app {

class BevyPeer final : public PeerMetering
{
public:
    explicit BevyPeer(const gl::ShaderLibrary& shaders);
    std::string_view id() const override { return "bevy"; }
    std::string_view engine() const override { return "Bevy 0.14+, auto_exposure.wgsl"; }
    std::string_view simplifies() const override
    {
        return "no compensation-curve lookup (flat 0 by default); default white metering mask; hdrlab's luminance "
               "weights";
    }
    std::vector<std::string> passNames() const override { return {"histogram", "average"}; }

protected:
    void prepareFor(glm::ivec2 size) override;
    void dispatch(const gl::Texture& frame, bool snap, const std::function<void(int)>& mark) override;

private:
    gl::Buffer mBins;
    gl::Texture mMask;
};

}  // namespace app
