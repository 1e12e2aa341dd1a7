// WindowEvents.h: the window events the frame loop polls but GLFW only delivers through callbacks:
// mouse-wheel movement, dropped files, the content scale (the window moved to a monitor of another
// DPI setting) and every key press with its modifiers (a tap shorter than a slow frame is not missed,
// as polling the key's state would: the view, sequence and app keys act on these events; only keys
// held for a movement, WASD and the zoom keys, are polled). Installed after the ImGui backend, it chains to the wheel
// callback ImGui installed, so the panels still scroll; uninstalling restores it. One window per
// process (GLFW's callbacks carry no user data here; the window's user pointer is left alone).
#pragma once

#include <filesystem>
#include <vector>

struct GLFWwindow;

namespace app {

class WindowEvents
{
public:
    explicit WindowEvents(GLFWwindow* window);
    ~WindowEvents();
    WindowEvents(const WindowEvents&) = delete;
    WindowEvents& operator=(const WindowEvents&) = delete;

    /// Vertical wheel movement since the last call.
    double takeScrollY();
    /// Files dropped on the window since the last call, in drop order.
    std::vector<std::filesystem::path> takeDroppedFiles();
    /// The window's content scale (1 at 96 dpi; 2 on a monitor set to 200 %), kept up to date by
    /// GLFW's content-scale callback.
    float contentScale() const { return mContentScale; }
    /// A key press (or an auto-repeat of a held key): GLFW's key and modifier bits.
    struct KeyPress
    {
        int key = 0;
        int mods = 0;
        bool repeat = false;
    };
    /// The key presses since the last call, in order.
    std::vector<KeyPress> takeKeyPresses();

private:
    static void onScroll(GLFWwindow* window, double x, double y);
    static void onDrop(GLFWwindow* window, int count, const char** paths);
    static void onContentScale(GLFWwindow* window, float x, float y);
    static void onKey(GLFWwindow* window, int key, int scancode, int action, int mods);

    GLFWwindow* mWindow = nullptr;
    void (*mPreviousScroll)(GLFWwindow*, double, double) = nullptr;
    void (*mPreviousDrop)(GLFWwindow*, int, const char**) = nullptr;
    void (*mPreviousContentScale)(GLFWwindow*, float, float) = nullptr;
    void (*mPreviousKey)(GLFWwindow*, int, int, int, int) = nullptr;
    float mContentScale = 1.0f;
    std::vector<KeyPress> mKeyPresses;
    double mScrollY = 0.0;
    std::vector<std::filesystem::path> mDropped;
};

}  // namespace app
