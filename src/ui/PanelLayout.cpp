#include "ui/PanelLayout.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>

namespace ui {
namespace {

/// The longest label of a field that should read whole beside it (the percentile operator's limits).
constexpr const char* kReferenceFieldLabel = "Exposure limits (EV)";
/// The right column shows at least a timed pass's name of this length and its mean (the Timings table's
/// first two columns; the others scroll sideways).
constexpr const char* kReferencePassName = "histogram/compute-shared-atomic";
constexpr const char* kReferenceMean = "000.000";

float widest(const std::vector<std::string>& names)
{
    float width = 0.0f;
    for (const std::string& name : names)
        width = std::max(width, comboWidthFor(name));
    return width;
}

}  // namespace

float preferredExtent(PanelRegion region, glm::vec2 display, const PanelLayoutState& state, const PanelMetrics& metrics)
{
    switch (region) {
        case PanelRegion::Left:
            return state.leftWidth > 0.0f ? std::max(state.leftWidth * metrics.scale, metrics.leftMinWidth)
                                          : metrics.leftMinWidth;
        case PanelRegion::Right:
            return state.rightWidth > 0.0f
                       ? std::max(state.rightWidth * metrics.scale, metrics.rightMinWidth)
                       : std::max(metrics.rightMinWidth, std::round(display.x * metrics.rightFraction));
        case PanelRegion::Bottom:
            return state.bottomHeight > 0.0f
                       ? std::max(state.bottomHeight * metrics.scale, metrics.bottomMinHeight)
                       : std::max(metrics.bottomMinHeight, std::round(display.y * metrics.bottomFraction));
    }
    return 0.0f;
}

PanelRects layOutPanels(glm::vec2 display, const PanelLayoutState& state, const PanelMetrics& metrics, bool panelsShown)
{
    PanelRects rects;
    const float width = std::max(0.0f, std::floor(display.x));
    const float height = std::max(0.0f, std::floor(display.y));
    rects.viewport = {0.0f, 0.0f, width, height};
    if (!panelsShown)
        return rects;

    // Across: [left][bar] viewport [bar][right]. Without room for both bars and a minimal viewport,
    // the picture gets the whole window.
    const float bar = std::round(metrics.splitter);
    if (width < metrics.viewportMin + 2.0f * bar)
        return rects;
    float left = state.leftOpen ? std::round(preferredExtent(PanelRegion::Left, display, state, metrics)) : 0.0f;
    float right = state.rightOpen ? std::round(preferredExtent(PanelRegion::Right, display, state, metrics)) : 0.0f;
    const float room = width - metrics.viewportMin - 2.0f * bar;  // for both columns
    right = std::clamp(room - left, 0.0f, right);                 // the right column gives way first,
    if (right < metrics.rightMinWidth)                            // and goes where it would be too narrow
        right = 0.0f;
    left = std::min(left, room);
    rects.left = {0.0f, 0.0f, left, height};
    rects.leftSplitter = {left, 0.0f, bar, height};
    rects.rightSplitter = {width - right - bar, 0.0f, bar, height};
    rects.right = {width - right, 0.0f, right, height};
    if (rects.left.empty())
        rects.left = {};
    if (rects.right.empty())
        rects.right = {};

    // Down, between the bars: viewport over [bar][bottom].
    const float x0 = left + bar;
    const float x1 = width - right - bar;
    rects.viewport = {x0, 0.0f, x1 - x0, height};
    if (height < metrics.viewportMin + bar)
        return rects;
    float bottom = state.bottomOpen ? std::round(preferredExtent(PanelRegion::Bottom, display, state, metrics)) : 0.0f;
    bottom = std::min(bottom, height - metrics.viewportMin - bar);
    rects.bottom = {x0, height - bottom, x1 - x0, bottom};
    rects.bottomSplitter = {x0, height - bottom - bar, x1 - x0, bar};
    if (rects.bottom.empty())
        rects.bottom = {};
    rects.viewport.height = height - bottom - bar;
    return rects;
}

glm::ivec4 viewportPixels(const LayoutRect& viewport, glm::vec2 display, glm::ivec2 framebuffer)
{
    if (framebuffer.x <= 0 || framebuffer.y <= 0 || display.x <= 0.0f || display.y <= 0.0f)
        return {0, 0, 0, 0};
    const glm::vec2 scale = glm::vec2(framebuffer) / display;
    auto toPixels = [](float units, float perUnit, int limit) {
        return std::clamp(int(std::lround(units * perUnit)), 0, limit);
    };
    int x0 = toPixels(viewport.x, scale.x, framebuffer.x - 1);
    int x1 = std::max(toPixels(viewport.right(), scale.x, framebuffer.x), x0 + 1);
    int top = toPixels(viewport.y, scale.y, framebuffer.y - 1);
    int bottom = std::max(toPixels(viewport.bottom(), scale.y, framebuffer.y), top + 1);
    return {x0, framebuffer.y - bottom, x1 - x0, bottom - top};
}

float comboWidthFor(const std::string& name)
{
    // ImGui draws the preview from FramePadding.x and clips it at the arrow button (a frame-high
    // square); one more padding keeps the last letter off the arrow.
    const ImGuiStyle& style = ImGui::GetStyle();
    return std::ceil(ImGui::CalcTextSize(name.c_str()).x + 2.0f * style.FramePadding.x + ImGui::GetFrameHeight());
}

PanelMetrics measurePanels(const PanelNames& names, float scale)
{
    const ImGuiStyle& style = ImGui::GetStyle();
    PanelMetrics m;
    m.scale = scale;
    const float helpMarker = style.ItemSpacing.x + ImGui::CalcTextSize("(?)").x;
    m.fieldLabelRoom =
        std::ceil(style.ItemInnerSpacing.x + ImGui::CalcTextSize(kReferenceFieldLabel).x + helpMarker + 1.0f);
    // A column's window: padding on both sides and a scroll bar that is always there (a constant
    // inner width: contents never jump when the bar appears).
    const float frame = 2.0f * style.WindowPadding.x + style.ScrollbarSize;
    m.leftMinWidth = std::ceil(frame + std::max(widest(names.columnWide), widest(names.labelled) + m.fieldLabelRoom));
    m.rightMinWidth = std::ceil(frame + 4.0f * style.CellPadding.x + ImGui::CalcTextSize(kReferencePassName).x +
                                ImGui::CalcTextSize(kReferenceMean).x);
    const float line = ImGui::GetTextLineHeightWithSpacing();
    // The Histogram: its title (a panel header is taller than a frame), a line of numbers, a plot of
    // six lines and the counters' line.
    m.bottomMinHeight = std::ceil(2.0f * style.WindowPadding.y + ImGui::GetFrameHeightWithSpacing() +
                                  2.0f * style.FramePadding.y + 2.0f * line + 6.0f * line);
    m.splitter = std::round(8.0f * scale);
    m.viewportMin = std::round(64.0f * scale);
    return m;
}

}  // namespace ui
