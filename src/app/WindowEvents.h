// WindowEvents.h: the window events the frame loop polls but GLFW only delivers through callbacks:
// mouse-wheel movement, dropped files and the content scale (the window moved to a monitor of
// another DPI setting). Installed after the ImGui backend, it chains to the wheel
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

private:
    static void onScroll(GLFWwindow* window, double x, double y);
    static void onDrop(GLFWwindow* window, int count, const char** paths);
    static void onContentScale(GLFWwindow* window, float x, float y);

    GLFWwindow* mWindow = nullptr;
    void (*mPreviousScroll)(GLFWwindow*, double, double) = nullptr;
    void (*mPreviousDrop)(GLFWwindow*, int, const char**) = nullptr;
    void (*mPreviousContentScale)(GLFWwindow*, float, float) = nullptr;
    float mContentScale = 1.0f;
    double mScrollY = 0.0;
    std::vector<std::filesystem::path> mDropped;
};

}  // namespace app
