// PixelInjection.h: overwrites a stress preset's chosen texels of the rendered HDR frame with NaN,
// +Inf and negative values ("inject" in docs/SCENE_FORMAT.md), so that the post pipeline's NaN, Inf
// and non-positive counters and its exposure can be watched against a known input.
//
// Technique: one glClearTexSubImage per texel (float data, converted by GL to the target's format;
// half floats keep NaN and Inf). Positions are fixed and spread evenly over the frame in row order:
// texel k of n sits at linear index (k + 1) * pixels / (n + 1), all distinct while n < pixels. NaN
// texels come first, then +Inf, then negative (-1 in R, G and B: stored values, so -2^-k cd/m^2 in a
// frame pre-exposed by 2^k, negative either way). Limits: a frame with fewer pixels
// than requested gets only the first `pixels - 1`; meant for a few hundred texels per frame.
#pragma once

#include "scene/Scene.h"

#include <glm/vec2.hpp>

#include <vector>

namespace gl {
class Texture;
}

namespace scene {

/// The texels `injectPixels` writes in a frame of `size`, in order (NaN, then Inf, then negative).
std::vector<glm::ivec2> injectionPositions(glm::ivec2 size, int count);

/// Writes the injected texels into `target` (an RGBA float-format colour texture). No-op when
/// `inject` is empty.
void injectPixels(const gl::Texture& target, const PixelInjection& inject);

}  // namespace scene
