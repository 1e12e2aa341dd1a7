#include "app/WindowEvents.h"

#include <GLFW/glfw3.h>

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace app {
namespace {

WindowEvents* gInstalled = nullptr;

}  // namespace

WindowEvents::WindowEvents(GLFWwindow* window) : mWindow(window)
{
    if (gInstalled)
        throw std::logic_error("WindowEvents: one window's events are already installed");
    gInstalled = this;
    mPreviousScroll = glfwSetScrollCallback(window, &WindowEvents::onScroll);
    mPreviousDrop = glfwSetDropCallback(window, &WindowEvents::onDrop);
    mPreviousContentScale = glfwSetWindowContentScaleCallback(window, &WindowEvents::onContentScale);
    mPreviousKey = glfwSetKeyCallback(window, &WindowEvents::onKey);
    float x = 1.0f, y = 1.0f;
    glfwGetWindowContentScale(window, &x, &y);
    mContentScale = std::max(x, y);
}

WindowEvents::~WindowEvents()
{
    glfwSetScrollCallback(mWindow, mPreviousScroll);
    glfwSetDropCallback(mWindow, mPreviousDrop);
    glfwSetWindowContentScaleCallback(mWindow, mPreviousContentScale);
    glfwSetKeyCallback(mWindow, mPreviousKey);
    gInstalled = nullptr;
}

double WindowEvents::takeScrollY()
{
    double y = mScrollY;
    mScrollY = 0.0;
    return y;
}

std::vector<std::filesystem::path> WindowEvents::takeDroppedFiles()
{
    return std::exchange(mDropped, {});
}

void WindowEvents::onScroll(GLFWwindow* window, double x, double y)
{
    if (!gInstalled)
        return;
    if (gInstalled->mPreviousScroll)
        gInstalled->mPreviousScroll(window, x, y);
    gInstalled->mScrollY += y;
}

void WindowEvents::onDrop(GLFWwindow* window, int count, const char** paths)
{
    if (!gInstalled)
        return;
    if (gInstalled->mPreviousDrop)
        gInstalled->mPreviousDrop(window, count, paths);
    for (int i = 0; i < count; ++i)
        if (paths[i])
            gInstalled->mDropped.emplace_back(paths[i]);
}

std::vector<WindowEvents::KeyPress> WindowEvents::takeKeyPresses()
{
    return std::exchange(mKeyPresses, {});
}

void WindowEvents::onKey(GLFWwindow* window, int key, int scancode, int action, int mods)
{
    if (!gInstalled)
        return;
    if (gInstalled->mPreviousKey)
        gInstalled->mPreviousKey(window, key, scancode, action, mods);
    if ((action != GLFW_PRESS && action != GLFW_REPEAT) || gInstalled->mKeyPresses.size() >= 256)
        return;
    gInstalled->mKeyPresses.push_back({key, mods, action == GLFW_REPEAT});
}

void WindowEvents::onContentScale(GLFWwindow* window, float x, float y)
{
    if (!gInstalled)
        return;
    if (gInstalled->mPreviousContentScale)
        gInstalled->mPreviousContentScale(window, x, y);
    gInstalled->mContentScale = std::max(x, y);
}

}  // namespace app
