#include "ui/StatusLine.h"

#include "ui/TextFit.h"
#include "ui/Widgets.h"

#include <imgui.h>

#include <cstdio>

namespace ui {
namespace {

ImVec4 messageColour(MessageKind kind)
{
    switch (kind) {
        case MessageKind::Error:
            return kErrorColor;
        case MessageKind::Warning:
            return kWarningColor;
        case MessageKind::Success:
            return kOkColor;
        case MessageKind::Info:
            break;
    }
    return ImGui::GetStyle().Colors[ImGuiCol_Text];
}

void elidedIn(const ImVec4& colour, const std::string& text)
{
    ImGui::PushStyleColor(ImGuiCol_Text, colour);
    textElided(text);
    ImGui::PopStyleColor();
}

}  // namespace

void drawStatusLine(const StatusLineInfo& info)
{
    // The rate whole; the GPU's name in what is left of the line (elided, whole on hover).
    char rate[64] = "measuring...";
    if (info.frameMs > 0.0)
        std::snprintf(rate, sizeof rate, "%.1f fps, %.0f ms", 1000.0 / info.frameMs, info.frameMs);
    textUnformatted(rate);
    if (!info.gpu.empty()) {
        ImGui::SameLine();
        elidedIn(ImGui::GetStyle().Colors[ImGuiCol_TextDisabled], info.gpu);
    }
    elidedIn(ImGui::GetStyle().Colors[ImGuiCol_TextDisabled], info.shown.empty() ? std::string("-") : info.shown);
    if (info.message.text.empty())
        elidedIn(ImGui::GetStyle().Colors[ImGuiCol_TextDisabled], "no messages (F1: keys)");
    else
        elidedIn(messageColour(info.message.kind), info.message.text);  // the whole text on hover
}

std::string windowTitle(const std::string& shown)
{
    return shown.empty() ? std::string("hdrlab") : "hdrlab - " + shown;
}

}  // namespace ui
