#include "ui/KeyHelp.h"

#include <imgui.h>

#include <string>

namespace ui {

void drawKeyHelp(const LayoutRect& viewport, bool& open)
{
    if (!open)
        return;
    const ImVec2 centre(viewport.x + 0.5f * viewport.width, viewport.y + 0.5f * viewport.height);
    ImGui::SetNextWindowPos(centre, ImGuiCond_Always, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowBgAlpha(0.92f);
    constexpr ImGuiWindowFlags kFlags = ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoMove |
                                        ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoCollapse;
    if (ImGui::Begin("Keys (F1)", &open, kFlags)) {
        if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
            for (const KeyBinding& binding : kKeys) {
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(binding.keys.data(), binding.keys.data() + binding.keys.size());
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(binding.action.data(), binding.action.data() + binding.action.size());
            }
            ImGui::EndTable();
        }
        ImGui::TextDisabled("Files: drop an image or a scene on the window, type its path (Ctrl+O), or hdrlab FILE");
    }
    ImGui::End();
}

}  // namespace ui
