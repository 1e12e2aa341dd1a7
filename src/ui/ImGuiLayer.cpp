#include "ui/ImGuiLayer.h"

#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ui {

ImGuiLayer::ImGuiLayer(GLFWwindow* window) : mHasWindow(window != nullptr)
{
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // no imgui.ini in the user's working directory; layout is fixed in code
    io.LogFilename = nullptr;
    setScale(1.0f);
    if (mHasWindow && !ImGui_ImplGlfw_InitForOpenGL(window, true)) {
        ImGui::DestroyContext();
        throw std::runtime_error("cannot start ImGui's GLFW backend");
    }
    if (!ImGui_ImplOpenGL3_Init("#version 450")) {
        if (mHasWindow)
            ImGui_ImplGlfw_Shutdown();
        ImGui::DestroyContext();
        throw std::runtime_error("cannot start ImGui's OpenGL 3 backend");
    }
}

ImGuiLayer::~ImGuiLayer()
{
    if (mInFrame)
        ImGui::EndFrame();
    ImGui_ImplOpenGL3_Shutdown();
    if (mHasWindow)
        ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
}

void ImGuiLayer::setScale(float contentScale, float framebufferScale)
{
    // Scales outside 0.5..4 are a broken report (GLFW gives 0 for a window being destroyed).
    contentScale = std::isfinite(contentScale) ? std::clamp(contentScale, 0.5f, 4.0f) : 1.0f;
    framebufferScale = std::isfinite(framebufferScale) ? std::clamp(framebufferScale, 0.5f, 4.0f) : 1.0f;
    if (contentScale == mContentScale && framebufferScale == mFramebufferScale)
        return;
    mContentScale = contentScale;
    mFramebufferScale = framebufferScale;
    mStyleScale = applyUiScale(contentScale, framebufferScale);
    // Before the first frame the backend makes the font texture itself; afterwards it is remade here.
    if (mDeviceObjectsMade) {
        ImGui_ImplOpenGL3_DestroyFontsTexture();
        ImGui_ImplOpenGL3_CreateFontsTexture();
    }
}

float applyUiScale(float contentScale, float framebufferScale)
{
    const float styleScale = contentScale / framebufferScale;
    ImGuiStyle style;
    ImGui::StyleColorsDark(&style);
    style.ScaleAllSizes(styleScale);
    ImGui::GetStyle() = style;
    ImFontAtlas& fonts = *ImGui::GetIO().Fonts;
    fonts.Clear();
    ImFontConfig config;  // as ImFontAtlas::AddFontDefault's own, at another size
    config.SizePixels = std::round(ImGuiLayer::kBaseFontPixels * contentScale);
    config.OversampleH = config.OversampleV = 1;
    config.PixelSnapH = true;
    fonts.AddFontDefault(&config);
    fonts.Build();
    ImGui::GetIO().FontGlobalScale = 1.0f / framebufferScale;
    return styleScale;
}

void ImGuiLayer::newFrame(glm::ivec2 displaySize, double dtSeconds)
{
    ImGui_ImplOpenGL3_NewFrame();
    mDeviceObjectsMade = true;
    if (mHasWindow) {
        ImGui_ImplGlfw_NewFrame();
    } else {
        ImGuiIO& io = ImGui::GetIO();
        io.DisplaySize = ImVec2(float(std::max(displaySize.x, 1)), float(std::max(displaySize.y, 1)));
        io.DisplayFramebufferScale = ImVec2(1.0f, 1.0f);
        io.DeltaTime = float(std::max(dtSeconds, 1e-4));
    }
    ImGui::NewFrame();
    mInFrame = true;
}

void ImGuiLayer::render()
{
    ImGui::Render();
    mInFrame = false;
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

void ImGuiLayer::endFrameWithoutDrawing()
{
    ImGui::EndFrame();
    mInFrame = false;
}

bool ImGuiLayer::wantsMouse() const
{
    return ImGui::GetIO().WantCaptureMouse;
}

bool ImGuiLayer::wantsKeyboard() const
{
    return ImGui::GetIO().WantCaptureKeyboard;
}

}  // namespace ui
