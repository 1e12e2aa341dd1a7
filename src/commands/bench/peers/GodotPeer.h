// GodotPeer.h: Godot 4's auto exposure as a peer of `bench pipeline --peers` (PeerMetering.h).
// Engine: Godot 4 (4.0-4.4, the RenderingDevice renderers), following
// servers/rendering/renderer_rd/shaders/effects/luminance_reduce.glsl as
// servers/rendering/renderer_rd/effects/luminance.cpp chains it, written anew in GLSL
// (shaders/peers/GodotReduce.comp): 8x8 blocks of max(r, g, b) averaged into an R32F image 8x
// smaller, again and again down to 1x1; the last step blends with the previous luminance
// (auto_exposure_speed 0.5 x dt) and clamps it; the picture is then multiplied by
// auto_exposure_scale (0.4) / that luminance. No histogram: the arithmetic mean of the brightest
// channel. One timer row per step ("reduce-1" .. "reduce-N", the last the final step).
// Simplifies: the previous luminance lives in the state buffer (Godot keeps a second 1x1 texture), the
// limits are 2^-20..2^20 cd/m^2 (Godot's come from the camera attributes), invocations outside the
// source read nothing (Godot relies on robust out-of-bounds reads), the frame's channels in cd/m^2.
#pragma once

#include "commands/bench/peers/PeerMetering.h"

namespace app {

class GodotPeer final : public PeerMetering
{
public:
    explicit GodotPeer(const gl::ShaderLibrary& shaders);
    std::string_view id() const override { return "godot"; }
    std::string_view engine() const override { return "Godot 4, luminance_reduce.glsl (reduction chain to 1x1)"; }
    std::string_view simplifies() const override
    {
        return "previous luminance in a buffer; limits 2^-20..2^20 cd/m^2; no out-of-bounds reads";
    }
    std::vector<std::string> passNames() const override;

    /// The sizes the chain writes, the frame's ceil(/ 8) each, ending with 1x1.
    static std::vector<glm::ivec2> chainSizes(glm::ivec2 frame);

protected:
    void prepareFor(glm::ivec2 size) override;
    void dispatch(const gl::Texture& frame, bool snap, const std::function<void(int)>& mark) override;

private:
    std::vector<gl::Texture> mSteps;  ///< R32F, chainSizes(frame)
};

}  // namespace app
