// ImGuiLayer.h: Dear ImGui around the unmodified backends: imgui_impl_glfw (window input) plus
// imgui_impl_opengl3 (drawing) in a window; only the OpenGL3 backend headless, where the display size
// and frame time are set by hand, so panels can be drawn into off-screen screenshots.
#pragma once

#include <glm/vec2.hpp>

struct GLFWwindow;

namespace ui {

class ImGuiLayer
{
public:
    /// `window` is null for a headless context. Throws std::runtime_error if a backend fails to start.
    explicit ImGuiLayer(GLFWwindow* window);
    ~ImGuiLayer();
    ImGuiLayer(const ImGuiLayer&) = delete;
    ImGuiLayer& operator=(const ImGuiLayer&) = delete;

    /// Starts a frame; `displaySize` and `dtSeconds` are used headless (the GLFW backend measures them).
    void newFrame(glm::ivec2 displaySize, double dtSeconds);
    /// Ends the frame and draws it into the framebuffer bound to GL_DRAW_FRAMEBUFFER.
    void render();
    /// Ends the frame without drawing (panels hidden).
    void endFrameWithoutDrawing();

    bool wantsMouse() const;
    bool wantsKeyboard() const;

private:
    bool mHasWindow = false;
    bool mInFrame = false;
};

}  // namespace ui
