#include "app/ImageViewControls.h"

#include <GLFW/glfw3.h>
#include <glm/common.hpp>

#include <cmath>

namespace app {
namespace {

/// The cursor in framebuffer pixels, GL's bottom-left origin (GLFW gives screen units, top-left).
glm::dvec2 cursorInFramebuffer(GLFWwindow* window, glm::ivec2 framebuffer)
{
    double x = 0.0, y = 0.0;
    int width = 0, height = 0;
    glfwGetCursorPos(window, &x, &y);
    glfwGetWindowSize(window, &width, &height);
    const glm::dvec2 scale = glm::dvec2(framebuffer) / glm::max(glm::dvec2(width, height), glm::dvec2(1.0));
    return {x * scale.x, framebuffer.y - y * scale.y};
}

}  // namespace

void ImageViewControls::update(const FrameSourceInput& input, glm::ivec2 image)
{
    mWindowSize = input.windowSize;
    if (!input.window) {
        mView = fitView(image, mWindowSize);
        return;
    }
    mView = mView.fitted ? fitView(image, mWindowSize) : clampView(mView, image, mWindowSize);

    const glm::dvec2 cursor = cursorInFramebuffer(input.window, mWindowSize);
    const bool pressed = glfwGetMouseButton(input.window, GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS;
    if (pressed && (mDragging || input.mouseFree)) {
        if (mDragging && cursor != mLastCursor)
            mView = panBy(mView, cursor - mLastCursor, image, mWindowSize);
        mDragging = true;
    } else {
        mDragging = false;
    }
    mLastCursor = cursor;
    if (input.mouseFree && input.scrollY != 0.0)
        mView = zoomAbout(mView, cursor, std::pow(1.25, input.scrollY), image, mWindowSize);

    if (!input.keyboardFree)
        return;
    auto down = [&](int key) { return glfwGetKey(input.window, key) == GLFW_PRESS; };
    const glm::dvec2 centre = glm::dvec2(mWindowSize) * 0.5;
    const double step = std::pow(4.0, input.dt);  // held: x4 a second
    if (down(GLFW_KEY_EQUAL) || down(GLFW_KEY_KP_ADD))
        mView = zoomAbout(mView, centre, step, image, mWindowSize);
    if (down(GLFW_KEY_MINUS) || down(GLFW_KEY_KP_SUBTRACT))
        mView = zoomAbout(mView, centre, 1.0 / step, image, mWindowSize);
    if (down(GLFW_KEY_1))
        mView = zoomAbout(mView, centre, 1.0 / mView.zoom, image, mWindowSize);
    if (down(GLFW_KEY_F) || down(GLFW_KEY_0))
        mView = fitView(image, mWindowSize);
}

BlitRects ImageViewControls::placement(glm::ivec2 windowSize, glm::ivec2 image) const
{
    const PanZoom view = mView.fitted ? fitView(image, windowSize) : clampView(mView, image, windowSize);
    return visibleRects(view, image, windowSize);
}

std::string ImageViewControls::describe(glm::ivec2 image) const
{
    return describeView(mView, image, mWindowSize);
}

}  // namespace app
