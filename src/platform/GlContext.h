// GlContext.h: an OpenGL 4.5 core context, either in a GLFW window or headless through EGL.
//
// Headless uses the EGL device platform when an NVIDIA device is present (GPU servers have no
// display) and otherwise Mesa's surfaceless platform (llvmpipe in CI). The same renderer and passes
// run on either; only presentation differs.
#pragma once

#include "gl/GlInfo.h"

#include <glm/vec2.hpp>

#include <memory>
#include <set>
#include <string>

struct GLFWwindow;

namespace platform {

class GlContext
{
public:
    virtual ~GlContext() = default;

    virtual bool isWindow() const = 0;
    virtual GLFWwindow* window() const { return nullptr; }
    /// Framebuffer size of the window; {0,0} when minimised. Headless contexts return {0,0}.
    virtual glm::ivec2 framebufferSize() const { return {0, 0}; }
    /// The window is iconified. X11 keeps an iconified window's framebuffer size, so the size
    /// alone does not tell.
    virtual bool isMinimised() const { return false; }
    virtual void swapBuffers() {}
    virtual void pollEvents() {}
    virtual bool shouldClose() const { return false; }
    virtual void setVsync(bool) {}
    virtual bool vsync() const { return false; }

    const gl::GlInfo& info() const { return mInfo; }

protected:
    void queryInfo(const std::string& platformName);
    gl::GlInfo mInfo;
};

struct ContextOptions
{
    bool debug = false;  ///< KHR_debug context, errors reported through the callback
    glm::ivec2 windowSize{1280, 720};
    std::string title = "hdrlab";
    bool vsync = true;
    bool visible = true;
};

/// A GLFW window with a GL 4.5 core context; nullptr (with `whyNot` set) when no display can be
/// opened or the driver lacks GL 4.5.
std::unique_ptr<GlContext> createWindowContext(const ContextOptions& options, std::string& whyNot);

/// A headless EGL context; throws std::runtime_error with the reason when none can be made.
std::unique_ptr<GlContext> createHeadlessContext(const ContextOptions& options);

}  // namespace platform
