// ImGuiLayer.h: Dear ImGui around the unmodified backends: imgui_impl_glfw (window input) plus
// imgui_impl_opengl3 (drawing) in a window; only the OpenGL3 backend headless, where the display size
// and frame time are set by hand, so panels can be drawn into off-screen screenshots.
//
// The UI scale follows the monitor's content scale (or --ui-scale): the font atlas is rebuilt at the
// scaled size (ImGui's default font, ProggyClean, rasterised at 13 px times the scale) and the style's
// sizes are scaled (ImGuiStyle::ScaleAllSizes), so a 4K monitor at 200 % shows the panels as a
// 1080p monitor at 100 % does. Where the framebuffer has more pixels than the window has units (a
// Retina or Wayland scaled window), ImGui's units stay the window's and only the font is rasterised finer.
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

    /// Sets the UI scale: `contentScale` is the monitor's (1 at 96 dpi, 2 at 200 %), `framebufferScale`
    /// the framebuffer's pixels per window unit (1 on X11 and Windows). Rebuilds the font and the style
    /// when they change; call between frames.
    void setScale(float contentScale, float framebufferScale = 1.0f);
    /// The scale of the style's sizes (ImGui units per unit at scale 1).
    float scale() const { return mStyleScale; }

    static constexpr float kBaseFontPixels = 13.0f;  ///< ImGui's default font at scale 1

private:
    bool mHasWindow = false;
    bool mInFrame = false;
    bool mDeviceObjectsMade = false;  ///< the OpenGL3 backend made its font texture (first frame)
    float mContentScale = 0.0f;
    float mFramebufferScale = 0.0f;
    float mStyleScale = 1.0f;
};

/// Sets the current ImGui context's style (dark, sizes scaled) and font (rebuilt at the scaled size,
/// on the CPU) for a content scale and framebuffer scale as ImGuiLayer::setScale describes; returns
/// the style's scale. The font texture is the caller's to remake (ImGuiLayer does).
float applyUiScale(float contentScale, float framebufferScale);

}  // namespace ui
