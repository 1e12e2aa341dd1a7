// StatusLine.h: the lines at the top of the settings column that never scroll away (the status bar of
// an image viewer or an editor, where a user looks first): the frame rate and frame time, the GPU,
// what is shown (the scene or the file), and the last message in its own colour (errors red, warnings
// amber, successes green, other news plain), with the whole text on hover. Each is one line, elided
// in the middle where the column is narrower, so the column's widgets below never move with them.
// The window's title names what is shown too (windowTitle). It only presents what it is given.
#pragma once

#include <string>

namespace ui {

enum class MessageKind { Info, Success, Warning, Error };

/// The last thing the app had to say on screen (a dropped file opened or refused, a scene switch, a
/// shader reload, a capture written); empty text: nothing yet.
struct StatusMessage
{
    std::string text;
    MessageKind kind = MessageKind::Info;
};

struct StatusLineInfo
{
    double frameMs = 0.0;  ///< mean CPU frame time; 0: not measured yet
    std::string gpu;       ///< the GL renderer's name
    std::string shown;     ///< "scene room (scenes/room.json)", "image photo.exr"
    StatusMessage message;
};

/// The number of lines drawStatusLine draws (always the same: the column below stays put).
inline constexpr int kStatusLines = 3;

/// Draws the status lines at the cursor, as wide as the room left.
void drawStatusLine(const StatusLineInfo& info);

/// "hdrlab - <shown>", or "hdrlab" when nothing is named.
std::string windowTitle(const std::string& shown);

}  // namespace ui
