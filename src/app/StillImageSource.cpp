#include "app/StillImageSource.h"

#include "image/ImageIo.h"
#include "util/Log.h"

#include <GLFW/glfw3.h>
#include <glm/common.hpp>

#include <cmath>
#include <cstring>
#include <stdexcept>

namespace app {
namespace {

std::string displayName(const std::filesystem::path& path, const std::string& exrPart)
{
    std::string name = path.filename().string();
    return exrPart.empty() ? name : name + " [" + exrPart + "]";
}

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

gl::Texture uploadStillImage(const image::ImageF& image, int maxTextureSize, const std::string& name)
{
    if (image.empty())
        throw std::runtime_error(
            util::format("cannot show '{}': the image is empty ({} x {} pixels)", name, image.width, image.height));
    if (image.width > maxTextureSize || image.height > maxTextureSize)
        throw std::runtime_error(
            util::format("cannot show '{}': {} x {} pixels is larger than this GPU's largest "
                         "texture ({} on a side)",
                         name, image.width, image.height, maxTextureSize));
    std::vector<float> bottomUp(image.pixels.size());
    const std::size_t row = std::size_t(image.width) * image::ImageF::kChannels;
    for (int y = 0; y < image.height; ++y)
        std::memcpy(bottomUp.data() + std::size_t(image.height - 1 - y) * row, image.at(0, y), row * sizeof(float));
    gl::Texture texture("view.image", GL_RGBA32F, {image.width, image.height});
    texture.upload(GL_RGBA, GL_FLOAT, bottomUp.data());
    return texture;
}

StillImageSource::StillImageSource(const std::filesystem::path& path, const std::string& exrPart, int maxTextureSize)
    : mMaxTextureSize(maxTextureSize), mPath(path), mName(displayName(path, exrPart))
{
    const image::ImageF image = image::loadHdrImage(path, exrPart);
    mTexture = uploadStillImage(image, maxTextureSize, path.string());
    mRadiance = image.radiance;
}

StillImageSource::ReplaceResult StillImageSource::replaceWith(const std::filesystem::path& path)
{
    ReplaceResult result;
    try {
        const image::ImageF image = image::loadHdrImage(path);
        gl::Texture texture = uploadStillImage(image, mMaxTextureSize, path.string());
        mTexture = std::move(texture);
        mRadiance = image.radiance;
        mPath = path;
        mName = displayName(path, {});
        mView.fitted = true;
        result.replaced = true;
        result.message = util::format("showing {} ({} x {})", path.string(), mTexture.size().x, mTexture.size().y);
    } catch (const std::exception& error) {
        result.message = std::string(error.what()) + "; still showing " + mName;
    }
    return result;
}

void StillImageSource::update(const FrameSourceInput& input)
{
    mWindowSize = input.windowSize;
    const glm::ivec2 image = size();
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

std::string StillImageSource::hint(bool isWindow, double) const
{
    const std::string size = util::format("{} x {} px, ", this->size().x, this->size().y);
    return size + (isWindow ? describeView(mView, this->size(), mWindowSize) : std::string("RGBA32F"));
}

std::string StillImageSource::controlsHelp() const
{
    return "Drag pans, the wheel zooms about the cursor, +/- zoom about the centre, 1 shows 1:1, F or 0 "
           "fits, F1 hides the panels. Drop an image file on the window to open it (the pipeline runs on the "
           "whole image, RGBA32F, at its own size).";
}

BlitRects StillImageSource::placement(glm::ivec2 windowSize) const
{
    const PanZoom view = mView.fitted ? fitView(size(), windowSize) : clampView(mView, size(), windowSize);
    return visibleRects(view, size(), windowSize);
}

}  // namespace app
