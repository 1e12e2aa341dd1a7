// ImGuiTestContext.h: a bare Dear ImGui context for tests that draw panels without a window or a
// renderer, with the app's style and font at a UI scale (ui::applyUiScale), made current while it lives.
#pragma once

#include "ui/ImGuiLayer.h"

#include <imgui.h>
#include <glm/vec2.hpp>

namespace testing_support {

class ImGuiContextAtScale
{
public:
    explicit ImGuiContextAtScale(float scale)
    {
        mContext = ImGui::CreateContext();
        ImGuiIO& io = ImGui::GetIO();
        io.IniFilename = nullptr;
        io.DeltaTime = 1.0f / 60.0f;
        ui::applyUiScale(scale, 1.0f);
    }
    ~ImGuiContextAtScale() { ImGui::DestroyContext(mContext); }
    ImGuiContextAtScale(const ImGuiContextAtScale&) = delete;
    ImGuiContextAtScale& operator=(const ImGuiContextAtScale&) = delete;

    void newFrame(glm::vec2 display)
    {
        ImGui::GetIO().DisplaySize = ImVec2(display.x, display.y);
        ImGui::NewFrame();
    }
    void endFrame() { ImGui::Render(); }

private:
    ImGuiContext* mContext = nullptr;
};

}  // namespace testing_support
