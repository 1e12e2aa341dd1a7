// FxaaRef.h: CPU reference of the display image's anti-aliasing pass (post/DisplayAntiAliasing.h,
// shaders/post/DisplayFxaa.comp), byte for byte: the same integer arithmetic, pixel by pixel.
#pragma once

#include <cstdint>
#include <vector>

namespace ref {

/// The FXAA-style pass on an RGBA8 image (`width` x `height`, rows in texture order; the rule is the
/// same whichever row is first). Alpha comes out 255. Throws std::invalid_argument when the buffer
/// does not hold width x height RGBA8 pixels.
std::vector<std::uint8_t> fxaa(const std::vector<std::uint8_t>& rgba, int width, int height);

/// The pass's luma of one pixel: 54 R + 183 G + 19 B (Rec. 709 weights in 1/256 on the encoded
/// values; 0..65280).
int fxaaLuma(std::uint8_t r, std::uint8_t g, std::uint8_t b);

}  // namespace ref
