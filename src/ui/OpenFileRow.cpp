#include "ui/OpenFileRow.h"

#include "ui/TextFit.h"
#include "ui/Widgets.h"

#include <imgui.h>
#include <imgui_internal.h>  // ClearActiveID: a passed-on Enter ends the edit as ImGui's own does

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <utility>

namespace ui {

void RecentFiles::add(const std::string& path)
{
    if (path.empty())
        return;
    std::error_code error;
    std::filesystem::path absolute = std::filesystem::absolute(path, error);
    const std::string normal = (error ? std::filesystem::path(path) : absolute).lexically_normal().string();
    mFiles.erase(std::remove(mFiles.begin(), mFiles.end(), normal), mFiles.end());
    mFiles.insert(mFiles.begin(), normal);
    if (mFiles.size() > kMaxFiles)
        mFiles.resize(kMaxFiles);
}

std::string trimPathText(const std::string& text)
{
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    if (first == std::string::npos)
        return {};
    std::string trimmed = text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
    if (trimmed.size() >= 2 && (trimmed.front() == '"' || trimmed.front() == '\'') && trimmed.back() == trimmed.front())
        trimmed = trimmed.substr(1, trimmed.size() - 2);
    return trimmed;
}

std::optional<std::string> OpenFileRow::draw(const RecentFiles& recent)
{
    const ImGuiStyle& style = ImGui::GetStyle();
    const float openWidth = ImGui::CalcTextSize("Open").x + 2.0f * style.FramePadding.x;
    const float arrow = ImGui::GetFrameHeight();
    const float field =
        std::max(arrow, ImGui::GetContentRegionAvail().x - openWidth - arrow - 2.0f * style.ItemInnerSpacing.x);
    if (mFocus) {
        ImGui::SetKeyboardFocusHere();
        mFocus = false;
    }
    ImGui::SetNextItemWidth(field);
    bool open = ImGui::InputTextWithHint("##open-path", kHint, mPath.data(), mPath.size(),
                                         ImGuiInputTextFlags_EnterReturnsTrue | ImGuiInputTextFlags_AutoSelectAll);
    mActive = ImGui::IsItemActive();
    if (std::exchange(mSubmit, false) && mActive) {
        open = true;
        ImGui::ClearActiveID();  // as Enter ends the edit: the next Ctrl+O selects the whole path
        mActive = false;
    }
    showTooltipOnHover(
        "A path to an image (.exr .hdr .png .jpg ...) or a scene (.gltf .glb .json, or a scene's name): Enter or "
        "Open opens it as a dropped file would; what happened shows in the line above (errors red).");
    ImGui::SameLine(0.0f, style.ItemInnerSpacing.x);
    open |= ImGui::Button("Open");
    checkItemFits("Open");
    ImGui::SameLine(0.0f, style.ItemInnerSpacing.x);
    std::optional<std::string> picked;
    ImGui::BeginDisabled(recent.files().empty());
    ImGui::SetNextItemWidth(arrow);
    if (ImGui::BeginCombo("##recent-files", nullptr, ImGuiComboFlags_NoPreview | ImGuiComboFlags_PopupAlignLeft)) {
        for (const std::string& file : recent.files())
            if (ImGui::Selectable(file.c_str()))
                picked = file;
        ImGui::EndCombo();
    }
    ImGui::EndDisabled();
    checkItemFits("(recent files)");
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("%s", recent.files().empty() ? "Recent files: none opened yet in this session"
                                                       : "Recent files (this session)");
    if (picked) {
        std::snprintf(mPath.data(), mPath.size(), "%s", picked->c_str());
        return picked;
    }
    if (!open)
        return std::nullopt;
    std::string path = trimPathText(mPath.data());
    if (path.empty())
        return std::nullopt;
    return path;
}

}  // namespace ui
