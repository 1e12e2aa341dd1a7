#include "ui/PanelColumns.h"

#include "post/tonemap/EnginePresets.h"
#include "ui/FramePanel.h"
#include "ui/InView.h"
#include "ui/PipelinePanel.h"
#include "ui/SplitPanel.h"
#include "ui/ViewPanel.h"

#include <imgui.h>
#include <imgui_internal.h>  // the current window's clip rectangle and scroll (combo placements)

#include <algorithm>
#include <cfloat>
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
        case PanelRegion::Settings:
            return "##panels-settings";
        case PanelRegion::Histogram:
            return "##panels-histogram";
        case PanelRegion::Timings:
            return "##panels-timings";
        case PanelRegion::Exposure:
            return "##panels-exposure";
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
/// A strip section's header keeps the frame's height (the strip's lines go to the measurements).
void pushPanelHeaderColours(bool taller = true)
{
    const ImGuiStyle& style = ImGui::GetStyle();
    const ImVec4 title = style.Colors[ImGuiCol_TitleBgActive];
    ImGui::PushStyleColor(ImGuiCol_Header, title);
    ImGui::PushStyleColor(ImGuiCol_HeaderHovered, lighter(title, 0.15f));
    ImGui::PushStyleColor(ImGuiCol_HeaderActive, lighter(title, 0.25f));
    ImGui::PushStyleVar(ImGuiStyleVar_FramePadding,
                        ImVec2(style.FramePadding.x, (taller ? 2.0f : 1.0f) * style.FramePadding.y));
}

void popPanelHeaderColours()
{
    ImGui::PopStyleVar();
    ImGui::PopStyleColor(3);
}

/// The arrow on a collapsing bar: where its region goes when clicked (collapse towards the window's
/// edge, or open).
ImGuiDir arrowDirection(PanelBar bar, bool open)
{
    if (bar == PanelBar::Settings)
        return open ? ImGuiDir_Left : ImGuiDir_Right;
    return open ? ImGuiDir_Down : ImGuiDir_Up;
}

std::vector<ComboPlacement>& placements()
{
    static std::vector<ComboPlacement> list;
    return list;
}

/// Records the next item's placement as a combo of `names`, `height` tall, at the item width.
template <typename Names>
void recordPlacement(const Names& names, float height)
{
    ComboPlacement placement;
    for (const auto& name : names)
        placement.names.emplace_back(name);
    const ImVec2 at = ImGui::GetCursorScreenPos();
    placement.frame = {at.x, at.y, ImGui::CalcItemWidth(), height};
    const ImGuiWindow* window = ImGui::GetCurrentWindow();
    placement.visible = {window->InnerClipRect.Min.x, window->InnerClipRect.Min.y, window->InnerClipRect.GetWidth(),
                         window->InnerClipRect.GetHeight()};
    placement.scrollY = window->Scroll.y;
    placements().push_back(std::move(placement));
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
    placements().clear();
    clearInView();
    return mRects;
}

LayoutRect PanelColumns::referenceViewport(glm::vec2 display, float scale) const
{
    const PanelMetrics metrics = measuredAt(scale) ? mMetrics : PanelMetrics::atScale(scale);
    return layOutPanels(display, mState, metrics, true).viewport;
}

bool PanelColumns::beginRegion(PanelRegion region, const std::function<void()>& fixedTop)
{
    const LayoutRect& rect = mRects.region(region);
    mScrollChild = false;
    if (rect.empty())
        return false;
    // The column's scroll bar is always there, so its inner width (and the fields') never jumps; with
    // lines that stay at its top, the scrolled part is a child under them.
    const bool column = region == PanelRegion::Settings;
    const bool split = column && fixedTop;
    const ImGuiWindowFlags flags = !column ? 0
                                   : split ? ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse
                                           : ImGuiWindowFlags_AlwaysVerticalScrollbar;
    // A strip section's padding is half the column's at the top and bottom: its height goes to the
    // measurements (ui/InView.h checks they show without scrolling).
    const ImVec2 padding = ImGui::GetStyle().WindowPadding;
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding,
                        ImVec2(padding.x, column ? padding.y : std::round(0.5f * padding.y)));
    const bool shown = beginFixedWindow(regionWindowName(region), rect, flags);
    ImGui::PopStyleVar();
    if (!shown) {
        ImGui::End();
        return false;
    }
    if (split) {
        fixedTop();
        ImGui::Separator();
        ImGui::BeginChild("##column-scroll", ImVec2(0.0f, 0.0f), false, ImGuiWindowFlags_AlwaysVerticalScrollbar);
        mScrollChild = true;
    }
    // A labelled field leaves its label the room it needs, at most 40 % of the width.
    const float inner = ImGui::GetContentRegionAvail().x;
    ImGui::PushItemWidth(-std::min(mMetrics.fieldLabelRoom, std::round(0.4f * inner)));
    return true;
}

void PanelColumns::endRegion()
{
    ImGui::PopItemWidth();
    if (std::exchange(mScrollChild, false))
        ImGui::EndChild();
    ImGui::End();
}

bool PanelColumns::beginSection(SettingsSection section, const char* title, bool* visible)
{
    bool& open = mState.sectionOpen[int(section)];
    ImGui::SetNextItemOpen(open, ImGuiCond_Always);
    open = beginPanel(title, visible);
    return open;
}

void PanelColumns::drawSplitters()
{
    for (PanelBar which : {PanelBar::Settings, PanelBar::Strip, PanelBar::HistogramTimings, PanelBar::TimingsExposure})
        drawSplitter(which, mRects.bar(which));
}

void PanelColumns::drawSplitter(PanelBar which, const LayoutRect& bar)
{
    if (bar.empty())
        return;
    const char* names[] = {"##bar-settings", "##bar-strip", "##bar-histogram-timings", "##bar-timings-exposure"};
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0.0f, 0.0f));
    const bool visible = beginFixedWindow(names[int(which)], bar,
                                          ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse |
                                              ImGuiWindowFlags_NoBackground | ImGuiWindowFlags_NoNav);
    ImGui::PopStyleVar();
    if (!visible) {
        ImGui::End();
        return;
    }
    const bool across = which == PanelBar::Strip;  // the only horizontal bar
    const bool collapses = which == PanelBar::Settings || which == PanelBar::Strip;
    bool dummyOpen = true;
    bool& open = which == PanelBar::Settings ? mState.settingsOpen
                 : which == PanelBar::Strip  ? mState.stripOpen
                                             : dummyOpen;
    ImGui::InvisibleButton("##bar", ImVec2(bar.width, bar.height));
    const bool hovered = ImGui::IsItemHovered();
    const bool active = ImGui::IsItemActive();
    const ImGuiIO& io = ImGui::GetIO();
    // The arrow's part of the bar: three frame heights about its middle.
    const float arrowLength = 3.0f * ImGui::GetFrameHeight();
    const ImVec2 centre(bar.x + bar.width * 0.5f, bar.y + bar.height * 0.5f);
    const float along = across ? io.MousePos.x - centre.x : io.MousePos.y - centre.y;
    const bool overArrow = collapses && std::abs(along) <= arrowLength * 0.5f;
    const float mouse = across ? io.MousePos.y : io.MousePos.x;

    if (ImGui::IsItemActivated()) {
        mDragging = which;
        mDragMoved = false;
        mDragOffset = mouse - (across ? bar.y : bar.x);
    }
    if (active && open && mDragging == which && ImGui::IsMouseDragging(ImGuiMouseButton_Left)) {
        mDragMoved = true;
        // The bar's start follows the mouse; every region keeps its minimum and the viewport its own.
        const float at = mouse - mDragOffset;
        const float thickness = mMetrics.splitter;
        const PanelMetrics& m = mMetrics;
        if (which == PanelBar::Settings) {
            const float width = std::clamp(at, m.settingsMinWidth,
                                           std::max(m.settingsMinWidth, mDisplay.x - m.viewportMin - thickness));
            mState.settingsWidth = width / m.scale;
        } else if (which == PanelBar::Strip) {
            const float height = std::clamp(mDisplay.y - at - thickness, m.stripMinHeight,
                                            std::max(m.stripMinHeight, mDisplay.y - m.viewportMin - thickness));
            mState.stripHeight = height / m.scale;
        } else if (which == PanelBar::HistogramTimings) {
            // Timings keeps its right edge; the Histogram keeps its minimum.
            const float right = mRects.timings.right();
            const float lowest = mRects.strip.x + m.histogramMinWidth;
            const float highest = right - thickness - m.sectionMinWidth;
            const float x = std::clamp(at, std::min(lowest, highest), highest);
            mState.timingsWidth = (right - x - thickness) / m.scale;
            mState.exposureWidth = mRects.exposure.width / m.scale;
        } else {
            // Between Timings and Exposure: both change, the Histogram does not.
            const float left = mRects.timings.x;
            const float right = mRects.strip.right();
            const float lowest = left + m.sectionMinWidth;
            const float highest = right - thickness - m.sectionMinWidth;
            const float x = std::clamp(at, std::min(lowest, highest), highest);
            mState.timingsWidth = (x - left) / m.scale;
            mState.exposureWidth = (right - x - thickness) / m.scale;
        }
    }
    if (ImGui::IsItemDeactivated() && mDragging == which) {
        // A click without a drag: on the arrow it collapses the region; anywhere on a collapsed bar it opens it.
        if (collapses && !mDragMoved && ImGui::IsItemHovered() && (!open || overArrow))
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
    if (collapses) {
        const float thickness = across ? bar.height : bar.width;
        drawArrow(draw, centre, thickness, arrowDirection(which, open), ImGui::GetColorU32(ImGuiCol_Text));
    }
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
    recordPlacement(names, ImGui::GetFrameHeight());
    const float width = ImGui::CalcItemWidth();
    for (const std::string& name : names)
        if (comboWidthFor(name) > width)
            namesCutShort().insert(name);
}

void checkNamesFit(std::span<const char* const> names)
{
    recordPlacement(names, ImGui::GetFrameHeight());
    const float width = ImGui::CalcItemWidth();
    for (const char* name : names)
        if (comboWidthFor(name) > width)
            namesCutShort().insert(name);
}

bool beginNameCombo(const char* id, const std::string& preview, std::span<const std::string> names)
{
    const ImGuiStyle& style = ImGui::GetStyle();
    const float width = std::max(ImGui::CalcItemWidth(), 2.0f * ImGui::GetFrameHeight());
    const float arrow = ImGui::GetFrameHeight();
    const float wrapWidth = std::max(1.0f, width - arrow - 2.0f * style.FramePadding.x);
    // As tall as its longest name needs (not the shown one's): the widgets under it stay where they are
    // whichever entry is chosen.
    float textHeight = ImGui::CalcTextSize(preview.c_str(), nullptr, false, wrapWidth).y;
    for (const std::string& name : names)
        textHeight = std::max(textHeight, ImGui::CalcTextSize(name.c_str(), nullptr, false, wrapWidth).y);
    const float height = std::max(ImGui::GetFrameHeight(), std::ceil(textHeight) + 2.0f * style.FramePadding.y);
    recordPlacement(names, height);  // nothing is cut short: a long name wraps

    const ImVec2 at = ImGui::GetCursorScreenPos();
    const ImGuiID popupId = ImGui::GetID(id);
    const bool pressed = ImGui::InvisibleButton(id, ImVec2(width, height));
    const bool hovered = ImGui::IsItemHovered();
    const bool popupOpen = ImGui::IsPopupOpen(popupId, ImGuiPopupFlags_None);
    if (pressed && !popupOpen)
        ImGui::OpenPopupEx(popupId, ImGuiPopupFlags_None);

    // Drawn as ImGui draws a combo: the frame, the arrow's square at the right, the text inside.
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImVec2 end(at.x + width, at.y + height);
    const ImU32 frame = ImGui::GetColorU32(hovered ? ImGuiCol_FrameBgHovered : ImGuiCol_FrameBg);
    const ImU32 button = ImGui::GetColorU32(popupOpen || hovered ? ImGuiCol_ButtonHovered : ImGuiCol_Button);
    draw->AddRectFilled(at, ImVec2(end.x - arrow, end.y), frame, style.FrameRounding, ImDrawFlags_RoundCornersLeft);
    draw->AddRectFilled(ImVec2(end.x - arrow, at.y), end, button, style.FrameRounding, ImDrawFlags_RoundCornersRight);
    drawArrow(draw, ImVec2(end.x - 0.5f * arrow, at.y + 0.5f * arrow), 0.5f * arrow, ImGuiDir_Down,
              ImGui::GetColorU32(ImGuiCol_Text));
    draw->AddText(ImGui::GetFont(), ImGui::GetFontSize(),
                  ImVec2(at.x + style.FramePadding.x, at.y + style.FramePadding.y), ImGui::GetColorU32(ImGuiCol_Text),
                  preview.c_str(), nullptr, wrapWidth);
    if (!ImGui::IsPopupOpen(popupId, ImGuiPopupFlags_None))
        return false;

    // The list under the combo, at least as wide, as wide as its longest name, at most eight rows tall.
    const float rows = 8.0f * ImGui::GetTextLineHeightWithSpacing() + 2.0f * style.WindowPadding.y;
    ImGui::SetNextWindowPos(ImVec2(at.x, end.y));
    ImGui::SetNextWindowSizeConstraints(ImVec2(width, 0.0f), ImVec2(FLT_MAX, rows));
    return ImGui::BeginPopupEx(popupId, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoTitleBar |
                                            ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoSavedSettings |
                                            ImGuiWindowFlags_NoMove);
}

bool ComboPlacement::visibleWithoutScrolling() const
{
    const float top = frame.y + scrollY;  // where the frame is with the window at its top
    return frame.x >= visible.x && frame.right() <= visible.right() + 0.5f && top >= visible.y &&
           top + frame.height <= visible.bottom() + 0.5f;
}

const std::vector<ComboPlacement>& comboPlacements()
{
    return placements();
}

const ComboPlacement* findComboShowing(const std::string& name)
{
    for (const ComboPlacement& placement : placements())
        if (std::find(placement.names.begin(), placement.names.end(), name) != placement.names.end())
            return &placement;
    return nullptr;
}

std::vector<std::string> takeNamesCutShort()
{
    std::vector<std::string> names(namesCutShort().begin(), namesCutShort().end());
    namesCutShort().clear();
    return names;
}

std::string describeCombosInSight(const std::vector<std::pair<std::string, std::string>>& roleAndName)
{
    std::string visible, hidden, tops;
    for (const auto& [role, name] : roleAndName) {
        if (name.empty())
            continue;
        const ComboPlacement* placement = findComboShowing(name);
        if (placement)
            tops +=
                (tops.empty() ? "" : ", ") + role + " " + std::to_string(int(placement->frame.y + placement->scrollY));
        const bool inSight = placement && placement->visibleWithoutScrolling();
        std::string& list = inSight ? visible : hidden;
        list += (list.empty() ? "" : ", ") + role;
        if (!placement)
            list += " (not drawn)";
        else if (!inSight)
            list += " (at y " + std::to_string(int(placement->frame.y + placement->scrollY)) + ".." +
                    std::to_string(int(placement->frame.bottom() + placement->scrollY)) + ", the region shows y " +
                    std::to_string(int(placement->visible.y)) + ".." +
                    std::to_string(int(placement->visible.bottom())) + ")";
    }
    std::string text = "combos visible without scrolling: " + (visible.empty() ? std::string("none") : visible);
    if (!hidden.empty())
        text += "; combos not visible without scrolling: " + hidden;
    return text + "; combo tops (y): " + (tops.empty() ? std::string("none") : tops);
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
    pushPanelHeaderColours(false);
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
