// SplitCompose.h: the split view's composite of two display images of the same HDR frame (pipeline A
// and pipeline B, app/SplitView.h), one compute pass (shaders/post/SplitCompose.comp):
//
//   side-by-side: A left of the divider column, B right of it; the divider is two columns, white at
//                 x = d - 1 and black at x = d (d = splitDividerX), so it shows on any picture.
//   difference:   per pixel and channel, min(255, floor(|A - B| * gain + 0.5)) on the 8-bit display
//                 values (sRGB-encoded, as shown), alpha 255; the gain makes small differences
//                 visible (gain 1: the plain difference). Identical sides give black.
//
// Limits: both inputs must be GL_RGBA8 of the output's size (display images, already sRGB-encoded:
// the difference is of display values, not of scene luminance). CPU reference: reference/SplitComposeRef.
#pragma once

#include "post/PostTypes.h"

#include <optional>
#include <string_view>

namespace post {

enum class SplitMode { Off, SideBySide, Difference };

/// "off" / "side-by-side" / "difference" (the --split values).
std::string_view splitModeName(SplitMode mode);
std::optional<SplitMode> parseSplitMode(std::string_view text);

/// The divider column d for a divider at `position` (0 = left edge, 1 = right edge) of `width`
/// pixels: floor(position * width + 0.5), clamped to 0..width.
int splitDividerX(int width, float position);

inline constexpr float kDefaultSplitPosition = 0.5f;
inline constexpr float kDefaultSplitGain = 4.0f;
inline constexpr float kMaxSplitGain = 255.0f;

class SplitCompose
{
public:
    /// Writes the composite of `a` and `b` into `output` (all GL_RGBA8, one size); `mode` is SideBySide
    /// or Difference. Throws std::invalid_argument for other formats, sizes or SplitMode::Off.
    void run(PassContext& ctx,
             const gl::Texture& a,
             const gl::Texture& b,
             gl::Texture& output,
             SplitMode mode,
             float position,
             float gain);

private:
    gl::Program mProgram;
};

}  // namespace post
