// WindowEvents.h: the window events the frame loop polls but GLFW only delivers through callbacks:
// mouse-wheel movement and dropped files. Installed after the ImGui backend, it chains to the wheel
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

private:
    static void onScroll(GLFWwindow* window, double x, double y);
    static void onDrop(GLFWwindow* window, int count, const char** paths);

    GLFWwindow* mWindow = nullptr;
    void (*mPreviousScroll)(GLFWwindow*, double, double) = nullptr;
    void (*mPreviousDrop)(GLFWwindow*, int, const char**) = nullptr;
    double mScrollY = 0.0;
    std::vector<std::filesystem::path> mDropped;
};

}  // namespace app
