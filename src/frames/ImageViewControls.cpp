#include "frames/ImageViewControls.h"

#include <GLFW/glfw3.h>

#include <algorithm>
#include <cmath>

namespace app {

void ImageViewControls::update(const FrameSourceInput& input, glm::ivec2 image)
{
    mViewportSize = input.viewportSize;
    if (!input.window) {
        mView = fitView(image, mViewportSize);
        return;
    }
    mView = mView.fitted ? fitView(image, mViewportSize) : clampView(mView, image, mViewportSize);

    const glm::dvec2 cursor = input.cursor;  // viewport pixels from its bottom-left corner
    const bool pressed = glfwGetMouseButton(input.window, GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS;
    if (pressed && (mDragging || input.mouseFree)) {
        if (mDragging && cursor != mLastCursor)
            mView = panBy(mView, cursor - mLastCursor, image, mViewportSize);
        mDragging = true;
    } else {
        mDragging = false;
    }
    mLastCursor = cursor;
    if (input.mouseFree && input.scrollY != 0.0)
        mView = zoomAbout(mView, cursor, std::pow(1.25, input.scrollY), image, mViewportSize);

    if (!input.keyboardFree)
        return;
    // Zoom keys held zoom smoothly (polled); a tap shorter than a frame is one step (its press event).
    auto down = [&](int key) { return glfwGetKey(input.window, key) == GLFW_PRESS; };
    const glm::dvec2 centre = glm::dvec2(mViewportSize) * 0.5;
    const double step = std::pow(4.0, input.dt);  // held: x4 a second
    constexpr double kTapStep = 1.25;
    if (down(GLFW_KEY_EQUAL) || down(GLFW_KEY_KP_ADD))
        mView = zoomAbout(mView, centre, step, image, mViewportSize);
    else if (input.tapped(GLFW_KEY_EQUAL) || input.tapped(GLFW_KEY_KP_ADD))
        mView = zoomAbout(mView, centre, kTapStep, image, mViewportSize);
    if (down(GLFW_KEY_MINUS) || down(GLFW_KEY_KP_SUBTRACT))
        mView = zoomAbout(mView, centre, 1.0 / step, image, mViewportSize);
    else if (input.tapped(GLFW_KEY_MINUS) || input.tapped(GLFW_KEY_KP_SUBTRACT))
        mView = zoomAbout(mView, centre, 1.0 / kTapStep, image, mViewportSize);
    if (input.tapped(GLFW_KEY_1))
        mView = zoomAbout(mView, centre, 1.0 / mView.zoom, image, mViewportSize);
    if (input.tapped(GLFW_KEY_F) || input.tapped(GLFW_KEY_0))
        mView = fitView(image, mViewportSize);
}

bool FrameSourceInput::tapped(int key) const
{
    return std::find(keysPressed.begin(), keysPressed.end(), key) != keysPressed.end();
}

BlitRects ImageViewControls::placement(glm::ivec2 viewportSize, glm::ivec2 image) const
{
    const PanZoom view = mView.fitted ? fitView(image, viewportSize) : clampView(mView, image, viewportSize);
    return visibleRects(view, image, viewportSize);
}

std::string ImageViewControls::describe(glm::ivec2 image) const
{
    return describeView(mView, image, mViewportSize);
}

}  // namespace app
