// DisplayAntiAliasing.h: post-process anti-aliasing of the display image, FXAA-style (after
// Lottes' FXAA 3: luma edge detection, edge-end search, sub-pixel blend), one compute pass
// (shaders/post/DisplayFxaa.comp) from the tone-mapped sRGB image into a second RGBA8 image.
//
// Per pixel, on the 8-bit encoded values (what the eye judges edges on):
//   luma = 54 R + 183 G + 19 B (Rec. 709 weights in 1/256); range = max - min of the pixel and its
//   four neighbours. Below max(1/16 of full scale, 1/8 of that max) nothing happens: flat areas,
//   gradients and noise-free texture pass through unchanged, byte for byte.
//   Otherwise the edge runs along the axis the 3x3 luma changes least across; the pixel's partner is
//   the neighbour across the edge with the larger luma step. The edge is followed both ways (steps
//   1,1,1,1,1,1,2,2,2,4,8: up to 24 pixels) until the pair luma (pixel row + partner row) leaves the
//   edge's by half the step; the nearer end, when the edge leaves this pixel's side there, gives a
//   weight 1/2 - distance / span (a staircase step becomes a ramp). A sub-pixel weight (how far the
//   pixel stands out of its 3x3 low-pass, smoothstepped, squared, times 3/4) handles features
//   thinner than a pixel. The output is the pixel mixed with its partner by the larger weight.
//   Integer arithmetic throughout (weights in 1/256, rounded), so the CPU reference
//   (reference/FxaaRef) gives the same bytes on any GPU. Borders clamp to the edge.
// Limits: it sees only the final 8-bit image (no depth, no sub-pixel coverage), so it softens
// near-horizontal and near-vertical staircases but cannot restore detail smaller than a pixel or
// stop crawling in motion (no temporal history); it also softens sharp text or texture edges of
// high contrast, which is why still images (no scene depth) are never passed through it. The blend is
// of encoded values, as FXAA does (a linear-light blend would brighten dark edges slightly).
#pragma once

#include "post/PostTypes.h"

#include <optional>
#include <string_view>

namespace post {

enum class AntiAliasing { Off, Fxaa };

/// "off" / "fxaa" (the display.aa setting's values).
std::string_view antiAliasingName(AntiAliasing mode);
std::optional<AntiAliasing> parseAntiAliasing(std::string_view text);

class DisplayAntiAliasing
{
public:
    /// Writes the anti-aliased `input` into `output` (both GL_RGBA8 of one size; not the same texture).
    /// Throws std::invalid_argument otherwise.
    void run(PassContext& ctx, const gl::Texture& input, gl::Texture& output);

private:
    gl::Program mProgram;
};

}  // namespace post
