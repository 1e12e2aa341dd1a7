// CpuText.h: text drawn into an 8-bit image on the CPU with the glyphs of Dear ImGui's built-in font
// (ProggyClean, 13 px: the app's own UI font). The font atlas is built once by ImGui's atlas builder
// (ImFontAtlas: no ImGui context, no GL) and each glyph's coverage is blended into the image, so
// files hdrlab writes (the tonemap contact sheet) carry the same lettering as the window, with no font
// file to find and the same bytes on every run.
// Limits: one font and size (an integer scale multiplies the pixels, nearest: blocky but sharp);
// ASCII and the Latin-1 characters the font has (others draw ImGui's fallback glyph); no kerning.
#pragma once

#include "image/Image.h"

#include <array>
#include <cstdint>
#include <string_view>

namespace ui {

using Rgb8 = std::array<std::uint8_t, 3>;

/// Height of one line of text at `scale` (13 px at scale 1).
int textLineHeight(int scale = 1);
/// Width in pixels of `text` drawn at `scale` (one line; no wrapping).
int textWidth(std::string_view text, int scale = 1);
/// Draws one line of `text` (UTF-8) with its top-left corner at (x, y) into an RGB or RGBA image,
/// blending the glyph coverage over what is there; pixels outside the image are skipped. Returns the
/// x after the last glyph.
int drawText(image::Image8& canvas, int x, int y, std::string_view text, Rgb8 colour, int scale = 1);

}  // namespace ui
