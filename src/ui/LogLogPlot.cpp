#include "ui/LogLogPlot.h"

#include "ui/TextFit.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace ui {

namespace {

constexpr ImU32 kBackgroundColor = IM_COL32(25, 25, 28, 255);
constexpr ImU32 kAxisColor = IM_COL32(200, 200, 200, 255);
constexpr ImU32 kMajorGridColor = IM_COL32(90, 90, 95, 255);
constexpr ImU32 kMinorGridColor = IM_COL32(50, 50, 55, 255);
constexpr float kMarkerRadius = 3.5f;
constexpr float kHoverDistance = 8.0f;

ImU32 toImColor(util::ChartColor color)
{
    return IM_COL32(color.r, color.g, color.b, 255);
}

void drawMarker(ImDrawList* draw, util::MarkerShape shape, ImVec2 at, ImU32 color)
{
    const float r = kMarkerRadius;
    switch (shape) {
        case util::MarkerShape::Circle:
            draw->AddCircleFilled(at, r, color);
            return;
        case util::MarkerShape::Square:
            draw->AddRectFilled(ImVec2(at.x - r, at.y - r), ImVec2(at.x + r, at.y + r), color);
            return;
        case util::MarkerShape::Triangle:
            draw->AddTriangleFilled(ImVec2(at.x, at.y - 1.2f * r), ImVec2(at.x + 1.1f * r, at.y + 0.8f * r),
                                    ImVec2(at.x - 1.1f * r, at.y + 0.8f * r), color);
            return;
        case util::MarkerShape::Diamond:
            draw->AddQuadFilled(ImVec2(at.x, at.y - 1.3f * r), ImVec2(at.x + 1.3f * r, at.y),
                                ImVec2(at.x, at.y + 1.3f * r), ImVec2(at.x - 1.3f * r, at.y), color);
            return;
    }
}

/// `text` shortened with "..." at its end to at most `width` (a legend entry beside a narrow plot; the
/// whole name is in the point's tooltip).
std::string elide(const std::string& text, float width)
{
    if (ImGui::CalcTextSize(text.c_str()).x <= width)
        return text;
    std::string shown = text;
    while (!shown.empty() && ImGui::CalcTextSize((shown + "...").c_str()).x > width)
        shown.pop_back();
    return shown.empty() ? std::string() : shown + "...";
}

ImVec2 toScreen(const util::ChartLayout& layout, const util::PlotRect& rect, util::ChartPoint point)
{
    const util::ChartPoint at = util::plotPosition(layout, rect, point);
    return ImVec2(float(at.x), float(at.y));
}

}  // namespace

void drawLogLogPlot(const char* id, const util::ChartData& data, float height)
{
    const util::ChartLayout layout = util::layOutChart(data);
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 size(std::max(ImGui::GetContentRegionAvail().x, 200.0f), height);
    ImGui::InvisibleButton(id, size);
    const bool hovered = ImGui::IsItemHovered();
    const float line = ImGui::GetTextLineHeight();

    // Margins from the labels' sizes; the legend takes what its longest name needs, at most 40%.
    float yLabelWidth = 0.0f;
    for (double tick : layout.y.majorTicks())
        yLabelWidth = std::max(yLabelWidth, ImGui::CalcTextSize(util::formatDecade(tick).c_str()).x);
    float legendWidth = 0.0f;
    for (const util::ChartSeries& series : layout.series)
        legendWidth = std::max(legendWidth, ImGui::CalcTextSize(series.name.c_str()).x + 34.0f);
    legendWidth = std::min(legendWidth, size.x * 0.4f);
    util::PlotRect rect;
    rect.left = origin.x + yLabelWidth + 8.0f;
    rect.top = origin.y + line + 4.0f;
    rect.width = std::max(20.0, double(origin.x + size.x - legendWidth - 8.0f) - rect.left);
    rect.height = std::max(20.0, double(origin.y + size.y - 2.0f * line - 6.0f) - rect.top);
    const ImVec2 plotMin(float(rect.left), float(rect.top));
    const ImVec2 plotMax(float(rect.left + rect.width), float(rect.top + rect.height));

    const ImVec2 itemMax(origin.x + size.x, origin.y + size.y);
    drawTextIn(draw, ImVec2(origin.x, origin.y), kAxisColor, data.yLabel, origin, itemMax);
    draw->AddRectFilled(plotMin, plotMax, kBackgroundColor);
    for (double tick : layout.x.minorTicks()) {
        const float x = plotMin.x + float(layout.x.fraction(tick) * rect.width);
        draw->AddLine(ImVec2(x, plotMin.y), ImVec2(x, plotMax.y), kMinorGridColor);
    }
    for (double tick : layout.y.minorTicks()) {
        const float y = plotMax.y - float(layout.y.fraction(tick) * rect.height);
        draw->AddLine(ImVec2(plotMin.x, y), ImVec2(plotMax.x, y), kMinorGridColor);
    }
    for (double tick : layout.x.majorTicks()) {
        const float x = plotMin.x + float(layout.x.fraction(tick) * rect.width);
        draw->AddLine(ImVec2(x, plotMin.y), ImVec2(x, plotMax.y), kMajorGridColor);
        const std::string label = util::formatDecade(tick);
        const float labelWidth = ImGui::CalcTextSize(label.c_str()).x;
        drawTextIn(draw, ImVec2(std::clamp(x - labelWidth * 0.5f, origin.x, itemMax.x - labelWidth), plotMax.y + 2.0f),
                   kAxisColor, label, origin, itemMax);
    }
    for (double tick : layout.y.majorTicks()) {
        const float y = plotMax.y - float(layout.y.fraction(tick) * rect.height);
        draw->AddLine(ImVec2(plotMin.x, y), ImVec2(plotMax.x, y), kMajorGridColor);
        const std::string label = util::formatDecade(tick);
        drawTextIn(draw, ImVec2(plotMin.x - 4.0f - ImGui::CalcTextSize(label.c_str()).x, y - line * 0.5f), kAxisColor,
                   label, origin, itemMax);
    }
    draw->AddRect(plotMin, plotMax, kAxisColor);
    const float xLabelWidth = ImGui::CalcTextSize(data.xLabel.c_str()).x;
    drawTextIn(draw,
               ImVec2(std::clamp(0.5f * (plotMin.x + plotMax.x - xLabelWidth), origin.x, itemMax.x - xLabelWidth),
                      plotMax.y + line + 4.0f),
               kAxisColor, data.xLabel, origin, itemMax);

    // Series, and the point nearest the mouse for the tooltip.
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    float nearest = kHoverDistance * kHoverDistance;
    const util::ChartSeries* hoveredSeries = nullptr;
    util::ChartPoint hoveredPoint;
    for (std::size_t i = 0; i < layout.series.size(); ++i) {
        const util::ChartSeries& series = layout.series[i];
        const ImU32 color = toImColor(util::seriesColor(i));
        std::vector<ImVec2> points;
        for (const util::ChartPoint& point : series.points) {
            points.push_back(toScreen(layout, rect, point));
            const float dx = points.back().x - mouse.x, dy = points.back().y - mouse.y;
            if (hovered && dx * dx + dy * dy < nearest) {
                nearest = dx * dx + dy * dy;
                hoveredSeries = &series;
                hoveredPoint = point;
            }
        }
        if (points.size() > 1)
            draw->AddPolyline(points.data(), int(points.size()), color, 0, 1.6f);
        for (const ImVec2& at : points)
            drawMarker(draw, util::seriesMarker(i), at, color);

        const ImVec2 entry(plotMax.x + 10.0f, plotMin.y + float(i) * (line + 2.0f));
        draw->AddLine(ImVec2(entry.x, entry.y + line * 0.5f), ImVec2(entry.x + 20.0f, entry.y + line * 0.5f), color,
                      1.6f);
        drawMarker(draw, util::seriesMarker(i), ImVec2(entry.x + 10.0f, entry.y + line * 0.5f), color);
        const std::string name = elide(series.name, itemMax.x - (entry.x + 26.0f));
        drawTextIn(draw, ImVec2(entry.x + 26.0f, entry.y), series.points.empty() ? kMinorGridColor : kAxisColor, name,
                   origin, itemMax);
    }
    if (hoveredSeries)
        ImGui::SetTooltip("%s\n%s %.6g\n%s %.6g", hoveredSeries->name.c_str(), data.xLabel.c_str(), hoveredPoint.x,
                          data.yLabel.c_str(), hoveredPoint.y);
    if (!layout.note.empty())
        textWrapped(layout.note);
}

}  // namespace ui
