// OpenFileRow.h: the "open" row at the top of the settings column, under the status line, never
// scrolled away (the address bar of an image viewer or a browser): a path field (Enter or Open opens
// what it names), and the list of the files opened in this session, newest first (RecentFiles).
// Ctrl+O puts the cursor in the field. The row only asks (PanelHost::requestOpenFile): the app opens
// the path as its kind says, as it opens a dropped file (an image, or a scene: .gltf .glb .json or a
// scene's name), and says what happened in the status line (errors red), and only a file that opened
// joins the list.
// Limits: the recent files are kept in memory for the session only: hdrlab keeps no settings between
// runs (the settings file is written by Save alone, no user folder is read or written); a path is
// text (no file browser: Dear ImGui 1.86 has none, and no native dialog is linked).
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace ui {

/// The files opened in this session, newest first, each once (by its absolute, normalised path).
class RecentFiles
{
public:
    static constexpr std::size_t kMaxFiles = 8;

    /// Puts `path` first (made absolute and normal; an earlier entry of it goes), keeping at most
    /// kMaxFiles; an empty path is ignored.
    void add(const std::string& path);
    const std::vector<std::string>& files() const { return mFiles; }

private:
    std::vector<std::string> mFiles;
};

class OpenFileRow
{
public:
    /// Draws the row at the cursor, as wide as the room left: the field, Open and the recent files'
    /// list. Returns the path to open when Enter or Open was pressed on a non-empty field (spaces and
    /// quotes around it dropped) or a recent file was picked (it then fills the field).
    std::optional<std::string> draw(const RecentFiles& recent);
    /// The next draw() gives the field the keyboard (Ctrl+O).
    void focusNextFrame() { mFocus = true; }
    /// Whether the field had the keyboard in the last draw().
    bool fieldActive() const { return mActive; }
    /// The next draw() opens the field's path as Enter would: the app's own key events pass an Enter
    /// on (Dear ImGui 1.86 polls keys once a frame and loses a tap between two slow frames).
    void submitNextFrame() { mSubmit = true; }
    std::string text() const { return mPath.data(); }

    static constexpr const char* kHint = "image or scene file (Ctrl+O)";

private:
    std::array<char, 1024> mPath{};
    bool mFocus = false;
    bool mActive = false;
    bool mSubmit = false;
};

/// `text` without the spaces and the one pair of quotes around it (a path pasted from a shell).
std::string trimPathText(const std::string& text);

}  // namespace ui
