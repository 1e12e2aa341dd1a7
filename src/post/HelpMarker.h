// HelpMarker.h: the "(?)" help marker, the one both the methods' own ui() (post/) and the panels
// (ui/, through ui/Widgets.h) draw: a greyed "(?)" beside the last item where it fits, else under
// it (never cut at the column's edge), showing `text` as a wrapped tooltip on hover, also in a
// disabled block. It lives here, below ui/, because post/ cannot include ui/; the panels' text-fit
// check (ui/TextFit.h) sees it through the panel's scope, like every item a method draws.
#pragma once

#include <imgui.h>

namespace post {

inline void helpMarker(const char* text)
{
    const ImGuiStyle& style = ImGui::GetStyle();
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    if (right - ImGui::GetItemRectMax().x >= style.ItemSpacing.x + ImGui::CalcTextSize("(?)").x)
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

}  // namespace post
