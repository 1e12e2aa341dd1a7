// SplitComposeRef.h: CPU reference of the split view's composite (post/SplitCompose, SplitCompose.comp),
// byte for byte, on RGBA8 images with rows in any order (columns are what matters).
#pragma once

#include <cstdint>
#include <vector>

namespace ref {

/// A left of the divider column d, B right of it; white at x = d - 1, black at x = d; alpha 255.
std::vector<std::uint8_t> splitSideBySide(const std::vector<std::uint8_t>& a,
                                          const std::vector<std::uint8_t>& b,
                                          int width,
                                          int height,
                                          int dividerX);
/// min(255, floor(|A - B| * gain + 0.5)) per colour channel, alpha 255.
std::vector<std::uint8_t> splitDifference(const std::vector<std::uint8_t>& a,
                                          const std::vector<std::uint8_t>& b,
                                          float gain);

}  // namespace ref
