#include "ui/PanelColumns.h"

#include "post/tonemap/EnginePresets.h"
#include "ui/FramePanel.h"
#include "ui/PipelinePanel.h"
#include "ui/SplitPanel.h"
#include "ui/ViewPanel.h"

#include <imgui.h>

#include <algorithm>
#include <set>
#include <utility>

namespace ui {
namespace {

constexpr ImGuiWindowFlags kFixedWindow = ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoMove |
                                          ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                                          ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;

const char* regionWindowName(PanelRegion region)
{
    switch (region) {
        case PanelRegion::Left:
            return "##panels-left";
        case PanelRegion::Right:
            return "##panels-right";
        case PanelRegion::Bottom:
            return "##panels-bottom";
    }
    return "##panels";
}

/// Begins a fixed window over `rect`: square corners, no border, no minimum size (a bar is thinner
/// than ImGui's smallest window).
bool beginFixedWindow(const char* name, const LayoutRect& rect, ImGuiWindowFlags flags)
{
    ImGui::SetNextWindowPos(ImVec2(rect.x, rect.y), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(rect.width, rect.height), ImGuiCond_Always);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0.0f);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0.0f);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowMinSize, ImVec2(1.0f, 1.0f));
    const bool open = ImGui::Begin(name, nullptr, kFixedWindow | flags);
    ImGui::PopStyleVar(3);
    return open;
}

ImVec4 lighter(ImVec4 colour, float amount)
{
    return ImVec4(colour.x + (1.0f - colour.x) * amount, colour.y + (1.0f - colour.y) * amount,
                  colour.z + (1.0f - colour.z) * amount, 1.0f);
}

/// Pushes the look of a panel's header: the title bar's colour and a taller frame, so panels read as
/// windows and the stage headers inside them (ImGui's default look) as their parts.
void pushPanelHeaderColours()
{
    const ImGuiStyle& style = ImGui::GetStyle();
    const ImVec4 title = style.Colors[ImGuiCol_TitleBgActive];
    ImGui::PushStyleColor(ImGuiCol_Header, title);
    ImGui::PushStyleColor(ImGuiCol_HeaderHovered, lighter(title, 0.15f));
    ImGui::PushStyleColor(ImGuiCol_HeaderActive, lighter(title, 0.25f));
    ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(style.FramePadding.x, 2.0f * style.FramePadding.y));
}

void popPanelHeaderColours()
{
    ImGui::PopStyleVar();
    ImGui::PopStyleColor(3);
}

/// The arrow on a bar: where its region goes when clicked (collapse towards the window's edge, or open).
ImGuiDir arrowDirection(PanelRegion region, bool open)
{
    switch (region) {
        case PanelRegion::Left:
            return open ? ImGuiDir_Left : ImGuiDir_Right;
        case PanelRegion::Right:
            return open ? ImGuiDir_Right : ImGuiDir_Left;
        case PanelRegion::Bottom:
            return open ? ImGuiDir_Down : ImGuiDir_Up;
    }
    return ImGuiDir_None;
}

std::set<std::string>& namesCutShort()
{
    static std::set<std::string> names;
    return names;
}

void drawArrow(ImDrawList* draw, ImVec2 centre, float size, ImGuiDir direction, ImU32 colour)
{
    const float h = size * 0.5f;
    const float w = size * 0.3f;
    switch (direction) {
        case ImGuiDir_Left:
            draw->AddTriangleFilled(ImVec2(centre.x - w, centre.y), ImVec2(centre.x + w, centre.y - h),
                                    ImVec2(centre.x + w, centre.y + h), colour);
            break;
        case ImGuiDir_Right:
            draw->AddTriangleFilled(ImVec2(centre.x + w, centre.y), ImVec2(centre.x - w, centre.y + h),
                                    ImVec2(centre.x - w, centre.y - h), colour);
            break;
        case ImGuiDir_Up:
            draw->AddTriangleFilled(ImVec2(centre.x, centre.y - w), ImVec2(centre.x + h, centre.y + w),
                                    ImVec2(centre.x - h, centre.y + w), colour);
            break;
        case ImGuiDir_Down:
            draw->AddTriangleFilled(ImVec2(centre.x, centre.y + w), ImVec2(centre.x - h, centre.y - w),
                                    ImVec2(centre.x + h, centre.y - w), colour);
            break;
        default:
            break;
    }
}

}  // namespace

PanelColumns::PanelColumns(PanelNames names) : mNames(std::move(names))
{
}

const PanelRects& PanelColumns::arrange(float scale, bool panelsShown)
{
    if (ImGui::GetFontSize() != mMeasuredFontSize || scale != mMetrics.scale) {
        mMetrics = measurePanels(mNames, scale);
        mMeasuredFontSize = ImGui::GetFontSize();
    }
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    mDisplay = glm::vec2(display.x, display.y);
    mRects = layOutPanels(mDisplay, mState, mMetrics, panelsShown);
    return mRects;
}

bool PanelColumns::beginRegion(PanelRegion region)
{
    const LayoutRect& rect = region == PanelRegion::Left    ? mRects.left
                             : region == PanelRegion::Right ? mRects.right
                                                            : mRects.bottom;
    if (rect.empty())
        return false;
    // The columns' scroll bar is always there, so their inner width (and the fields') never jumps.
    const ImGuiWindowFlags flags = region == PanelRegion::Bottom ? 0 : ImGuiWindowFlags_AlwaysVerticalScrollbar;
    if (!beginFixedWindow(regionWindowName(region), rect, flags)) {
        ImGui::End();
        return false;
    }
    ImGui::PushItemWidth(-mMetrics.fieldLabelRoom);
    return true;
}

void PanelColumns::endRegion()
{
    ImGui::PopItemWidth();
    ImGui::End();
}

void PanelColumns::drawSplitters()
{
    drawSplitter(PanelRegion::Left, mRects.leftSplitter);
    drawSplitter(PanelRegion::Right, mRects.rightSplitter);
    drawSplitter(PanelRegion::Bottom, mRects.bottomSplitter);
}

void PanelColumns::drawSplitter(PanelRegion region, const LayoutRect& bar)
{
    if (bar.empty())
        return;
    const char* names[] = {"##bar-left", "##bar-right", "##bar-bottom"};
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0.0f, 0.0f));
    const bool visible = beginFixedWindow(names[int(region)], bar,
                                          ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse |
                                              ImGuiWindowFlags_NoBackground | ImGuiWindowFlags_NoNav);
    ImGui::PopStyleVar();
    if (!visible) {
        ImGui::End();
        return;
    }
    const bool across = region == PanelRegion::Bottom;  // a horizontal bar
    bool& open = region == PanelRegion::Left    ? mState.leftOpen
                 : region == PanelRegion::Right ? mState.rightOpen
                                                : mState.bottomOpen;
    ImGui::InvisibleButton("##bar", ImVec2(bar.width, bar.height));
    const bool hovered = ImGui::IsItemHovered();
    const bool active = ImGui::IsItemActive();
    const ImGuiIO& io = ImGui::GetIO();
    // The arrow's part of the bar: three frame heights about its middle.
    const float arrowLength = 3.0f * ImGui::GetFrameHeight();
    const ImVec2 centre(bar.x + bar.width * 0.5f, bar.y + bar.height * 0.5f);
    const float along = across ? io.MousePos.x - centre.x : io.MousePos.y - centre.y;
    const bool overArrow = std::abs(along) <= arrowLength * 0.5f;

    if (ImGui::IsItemActivated()) {
        mDragging = region;
        mDragMoved = false;
    }
    if (active && open && mDragging == region && ImGui::IsMouseDragging(ImGuiMouseButton_Left)) {
        mDragMoved = true;
        // The bar's centre follows the mouse; each column leaves the other and a minimal viewport room.
        const float half = bar.width * 0.5f;
        const float room = mDisplay.x - mMetrics.viewportMin - 2.0f * mMetrics.splitter;
        if (region == PanelRegion::Left) {
            const float width = std::clamp(io.MousePos.x - half, mMetrics.leftMinWidth,
                                           std::max(mMetrics.leftMinWidth, room - mRects.right.width));
            mState.leftWidth = width / mMetrics.scale;
        } else if (region == PanelRegion::Right) {
            const float width = std::clamp(mDisplay.x - io.MousePos.x - half, mMetrics.rightMinWidth,
                                           std::max(mMetrics.rightMinWidth, room - mRects.left.width));
            mState.rightWidth = width / mMetrics.scale;
        } else {
            const float maximum = mDisplay.y - mMetrics.viewportMin - mMetrics.splitter;
            const float height = std::clamp(mDisplay.y - io.MousePos.y - bar.height * 0.5f, mMetrics.bottomMinHeight,
                                            std::max(mMetrics.bottomMinHeight, maximum));
            mState.bottomHeight = height / mMetrics.scale;
        }
    }
    if (ImGui::IsItemDeactivated() && mDragging == region) {
        // A click without a drag: on the arrow it collapses the region; anywhere on a collapsed bar it opens it.
        if (!mDragMoved && ImGui::IsItemHovered() && (!open || overArrow))
            open = !open;
        mDragging.reset();
    }
    if (hovered || active)
        ImGui::SetMouseCursor(!open    ? ImGuiMouseCursor_Hand
                              : across ? ImGuiMouseCursor_ResizeNS
                                       : ImGuiMouseCursor_ResizeEW);
    if (hovered && overArrow && !active)
        ImGui::SetTooltip(open ? "Click: collapse these panels. Drag: resize." : "Click: show these panels.");

    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImGuiStyle& style = ImGui::GetStyle();
    const ImU32 fill = ImGui::GetColorU32(active    ? style.Colors[ImGuiCol_SeparatorActive]
                                          : hovered ? style.Colors[ImGuiCol_SeparatorHovered]
                                                    : style.Colors[ImGuiCol_TitleBg]);
    draw->AddRectFilled(ImVec2(bar.x, bar.y), ImVec2(bar.right(), bar.bottom()), fill);
    const float thickness = across ? bar.height : bar.width;
    drawArrow(draw, centre, thickness, arrowDirection(region, open), ImGui::GetColorU32(ImGuiCol_Text));
    ImGui::End();
}

PanelNames collectPanelNames(const PipelinePanel& pipelinePanel, const std::vector<scene::ScenePreset>& presets)
{
    PanelNames names;
    names.columnWide = pipelinePanel.comboNames();
    for (const scene::ScenePreset& preset : presets)
        names.labelled.push_back(preset.name);
    for (const post::EnginePreset& preset : post::enginePresets())
        names.labelled.emplace_back(preset.label);
    names.labelled.emplace_back("custom");  // the engine preset combo after an edit
    for (std::span<const char* const> labels :
         {std::span<const char* const>(kViewModeLabels), std::span<const char* const>(kSplitModeLabels),
          std::span<const char* const>(kLightingPathLabels), std::span<const char* const>(kFrameFormatLabels)})
        for (const char* label : labels)
            names.labelled.emplace_back(label);
    return names;
}

void checkNamesFit(std::span<const std::string> names)
{
    const float width = ImGui::CalcItemWidth();
    for (const std::string& name : names)
        if (comboWidthFor(name) > width)
            namesCutShort().insert(name);
}

void checkNamesFit(std::span<const char* const> names)
{
    const float width = ImGui::CalcItemWidth();
    for (const char* name : names)
        if (comboWidthFor(name) > width)
            namesCutShort().insert(name);
}

std::vector<std::string> takeNamesCutShort()
{
    std::vector<std::string> names(namesCutShort().begin(), namesCutShort().end());
    namesCutShort().clear();
    return names;
}

bool beginPanel(const char* title, bool* visible)
{
    pushPanelHeaderColours();
    const bool open = visible ? ImGui::CollapsingHeader(title, visible, ImGuiTreeNodeFlags_DefaultOpen)
                              : ImGui::CollapsingHeader(title, ImGuiTreeNodeFlags_DefaultOpen);
    popPanelHeaderColours();
    if (open)
        ImGui::PushID(title);
    return open;
}

bool beginFixedPanel(const char* title)
{
    pushPanelHeaderColours();
    ImGui::CollapsingHeader(title, ImGuiTreeNodeFlags_Leaf | ImGuiTreeNodeFlags_DefaultOpen);
    popPanelHeaderColours();
    ImGui::PushID(title);
    return true;
}

void endPanel()
{
    ImGui::PopID();
    ImGui::Spacing();
}

}  // namespace ui
