#include "ui/ImGuiLayer.h"

#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <stdexcept>

namespace ui {

ImGuiLayer::ImGuiLayer(GLFWwindow* window) : mHasWindow(window != nullptr)
{
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // no imgui.ini in the user's working directory; layout is fixed in code
    io.LogFilename = nullptr;
    ImGui::StyleColorsDark();
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

void ImGuiLayer::newFrame(glm::ivec2 displaySize, double dtSeconds)
{
    ImGui_ImplOpenGL3_NewFrame();
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
