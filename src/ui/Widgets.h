// Widgets.h: small ImGui helpers shared by the panels.
#pragma once

#include <imgui.h>

namespace ui {

/// A greyed "(?)" that shows `text` as a wrapped tooltip on hover (instead of long labels).
inline void HelpMarker(const char* text)
{
    ImGui::SameLine();
    ImGui::TextDisabled("(?)");
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32.0f);
        ImGui::TextUnformatted(text);
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
}

/// Shows `text` as a tooltip when the previous item (possibly disabled) is hovered.
inline void showTooltipOnHover(const char* text)
{
    if (text && *text && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32.0f);
        ImGui::TextUnformatted(text);
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
}

inline const ImVec4 kWarningColor{1.0f, 0.8f, 0.3f, 1.0f};
inline const ImVec4 kErrorColor{1.0f, 0.4f, 0.4f, 1.0f};
inline const ImVec4 kOkColor{0.5f, 1.0f, 0.5f, 1.0f};

}  // namespace ui
