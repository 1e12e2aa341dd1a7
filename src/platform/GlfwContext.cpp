// GlfwContext.cpp: a resizable GLFW window with a GL 4.5 core context.
#include "platform/GlContext.h"

#include "gl/Gl.h"

#include <GLFW/glfw3.h>

#include <string>

namespace platform {
namespace {

std::string gLastGlfwError;

void onGlfwError(int code, const char* description)
{
    gLastGlfwError = std::string(description ? description : "unknown") + " (GLFW error " + std::to_string(code) + ")";
}

class GlfwContext final : public GlContext
{
public:
    explicit GlfwContext(GLFWwindow* window, bool vsync) : mWindow(window)
    {
        glfwMakeContextCurrent(mWindow);
        setVsync(vsync);
    }

    ~GlfwContext() override
    {
        glfwDestroyWindow(mWindow);
        glfwTerminate();
    }

    bool finishSetup()
    {
        if (!gladLoadGL(reinterpret_cast<GLADloadfunc>(glfwGetProcAddress)))
            return false;
        queryInfo("GLFW window");
        return true;
    }

    bool isWindow() const override { return true; }
    GLFWwindow* window() const override { return mWindow; }
    glm::ivec2 framebufferSize() const override
    {
        int width = 0, height = 0;
        glfwGetFramebufferSize(mWindow, &width, &height);
        return {width, height};
    }
    bool isMinimised() const override { return glfwGetWindowAttrib(mWindow, GLFW_ICONIFIED) == GLFW_TRUE; }
    void swapBuffers() override { glfwSwapBuffers(mWindow); }
    void pollEvents() override { glfwPollEvents(); }
    bool shouldClose() const override { return glfwWindowShouldClose(mWindow); }
    void setVsync(bool on) override
    {
        mVsync = on;
        glfwSwapInterval(on ? 1 : 0);
    }
    bool vsync() const override { return mVsync; }

private:
    GLFWwindow* mWindow = nullptr;
    bool mVsync = true;
};

}  // namespace

std::unique_ptr<GlContext> createWindowContext(const ContextOptions& options, std::string& whyNot)
{
    glfwSetErrorCallback(onGlfwError);
    if (!glfwInit()) {
        whyNot = "no display could be opened: " + gLastGlfwError;
        return nullptr;
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 5);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_OPENGL_DEBUG_CONTEXT, options.debug ? GLFW_TRUE : GLFW_FALSE);
    glfwWindowHint(GLFW_RESIZABLE, GLFW_TRUE);
    glfwWindowHint(GLFW_VISIBLE, options.visible ? GLFW_TRUE : GLFW_FALSE);
    GLFWwindow* window =
        glfwCreateWindow(options.windowSize.x, options.windowSize.y, options.title.c_str(), nullptr, nullptr);
    if (!window) {
        whyNot = "cannot create an OpenGL 4.5 core window: " + gLastGlfwError;
        glfwTerminate();
        return nullptr;
    }
    auto context = std::make_unique<GlfwContext>(window, options.vsync);
    if (!context->finishSetup()) {
        whyNot = "cannot load the OpenGL 4.5 entry points in the window";
        return nullptr;
    }
    return context;
}

}  // namespace platform
