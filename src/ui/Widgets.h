// Widgets.h: small ImGui helpers shared by the panels.
#pragma once

#include "post/HelpMarker.h"
#include "ui/TextFit.h"

#include <imgui.h>

#include <string>

namespace ui {

/// The "(?)" help marker (one implementation for the panels and the methods' ui(): post/HelpMarker.h).
using post::helpMarker;

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

/// `text` wrapped at spaces at the window's edge in `colour` (a status line that may be longer than a
/// column is wide), checked (ui/TextFit.h).
inline void TextColouredWrapped(const ImVec4& colour, const std::string& text)
{
    textWrappedColoured(colour, text);
}

/// `text` greyed and wrapped at spaces at the window's edge.
inline void TextDisabledWrapped(const std::string& text)
{
    textWrappedColoured(ImGui::GetStyle().Colors[ImGuiCol_TextDisabled], text);
}

/// A length given in pixels at UI scale 1, at the current font size (the panels' fixed sizes follow
/// the UI scale: ui/ImGuiLayer.h).
inline float scaled(float pixelsAtScaleOne)
{
    return pixelsAtScaleOne * ImGui::GetFontSize() / 13.0f;
}

inline const ImVec4 kWarningColor{1.0f, 0.8f, 0.3f, 1.0f};
inline const ImVec4 kErrorColor{1.0f, 0.4f, 0.4f, 1.0f};
inline const ImVec4 kOkColor{0.5f, 1.0f, 0.5f, 1.0f};

}  // namespace ui
