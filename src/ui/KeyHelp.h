// KeyHelp.h: the live window's keys, listed once (kKeys: the F1 overlay and the docs read the same
// scheme) and the overlay that shows them. The scheme, as image viewers and engines' editors have it:
//   F1 this help (F1 or Esc closes it); Tab hides or shows the panels; Esc or Ctrl+Q quits (Esc closes
//   an open list or the help first; while a "Record" runs, the first press warns and a second within
//   3 s quits without writing); F12 writes a PNG of the window; Ctrl+R resets the pipeline's settings
//   to the defaults; Ctrl+O puts the cursor in the open row's path field (ui/OpenFileRow.h); R puts a
//   scene's camera back at its start. A scene: WASD/QE move, right mouse looks, Shift is faster. An
//   image: wheel or +/- zoom, 1 is 1:1, F or 0 fits, left drag pans. A sequence: Space plays or pauses, Left/Right
//   step, Home goes to the first frame. Keys act on their press events (a tap between two slow frames
//   counts); keys held for a movement or a zoom are read each frame. Where a text field has the
//   keyboard, it takes the keys (Esc then ends the edit; F1, F12, Ctrl+Q still act).
#pragma once

#include "ui/PanelLayout.h"

#include <array>
#include <string_view>

namespace ui {

struct KeyBinding
{
    std::string_view keys;
    std::string_view action;
};

inline constexpr std::array<KeyBinding, 14> kKeys{{
    {"F1", "this help (F1 or Esc closes it)"},
    {"Tab", "hide or show the panels"},
    {"Esc, Ctrl+Q", "quit (during Record: press twice)"},
    {"F12", "PNG of the window (working directory)"},
    {"Ctrl+R", "reset the pipeline to its defaults"},
    {"Ctrl+O", "open a file: the path field at the column's top"},
    {"R", "scene: camera back to its start"},
    {"WASD, QE", "scene: move (Shift: faster)"},
    {"right mouse", "scene: look around"},
    {"wheel, +/-", "image: zoom (about the mouse, the centre)"},
    {"1 / F, 0", "image: 1:1 / fit the viewport"},
    {"left drag", "image: pan; split view: move the divider"},
    {"Space, Left/Right", "sequence: play or pause, step a frame"},
    {"Home", "sequence: the first frame"},
}};

/// Draws the key list in a window centred on `viewport` (ImGui units) until closed: `open` is set
/// false by its close button.
void drawKeyHelp(const LayoutRect& viewport, bool& open);

}  // namespace ui
