#include "ui/HistogramView.h"

#include "ui/InView.h"
#include "ui/PlotLabels.h"
#include "ui/TextFit.h"
#include "ui/Widgets.h"
#include "util/Log.h"

#include <imgui.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

namespace ui {
namespace {

constexpr ImU32 kHistogramColor = IM_COL32(220, 50, 50, 255);
constexpr ImU32 kCurveColor = IM_COL32(60, 220, 60, 255);
constexpr ImU32 kMarkerColor = IM_COL32(240, 200, 60, 255);
constexpr ImU32 kAxisColor = IM_COL32(140, 140, 140, 255);
constexpr ImU32 kBackgroundColor = IM_COL32(20, 20, 24, 255);
constexpr ImU32 kDisplayColor = IM_COL32(200, 200, 200, 255);
constexpr ImU32 kTileHistogramColor = IM_COL32(80, 170, 255, 255);  // the selected tile's (outline bars)
constexpr ImU32 kTileCurveColor = IM_COL32(80, 220, 255, 255);
/// Rows for the markers' labels above the plot, always reserved so the plot keeps its height (labels
/// with no room there go to the legend line under the plot, also always reserved).
constexpr int kMarkerRows = 2;
constexpr float kLabelGap = 3.0f;  ///< pixels between a label and a neighbour or a line

/// "-12.5..8" : the axis range with as few decimals as it needs.
std::string formatAxisRange(float low, float high)
{
    char text[48];
    std::snprintf(text, sizeof text, "%.3g..%.3g", double(low), double(high));
    return text;
}

/// The curve's display value at log2 luminance `x` (linear between samples, clamped at the ends, as
/// the apply pass does).
float evaluateCurve(const post::HistogramSnapshot& s, float x)
{
    if (s.curve.empty() || !(s.curveLogMax > s.curveLogMin))
        return 0.0f;
    float n = float(s.curve.size());
    float position = (x - s.curveLogMin) / (s.curveLogMax - s.curveLogMin) * n - 0.5f;
    position = std::clamp(position, 0.0f, n - 1.0f);
    std::size_t i = std::size_t(position);
    std::size_t j = std::min(i + 1, s.curve.size() - 1);
    float t = position - float(i);
    return s.curve[i] * (1.0f - t) + s.curve[j] * t;
}

/// The marker labels' rows above the plot and the markers with no room there (for the legend line).
struct MarkerLayout
{
    std::vector<ui::PlacedLabel> placed;
    struct Marker
    {
        std::string name;
        float ev = 0.0f;  ///< its position on the axis
        float x = 0.0f;   ///< its line on the screen
    };
    std::vector<Marker> visible;  ///< the markers inside the axis
    int rows = 0;
};

MarkerLayout layOutMarkers(const post::HistogramSnapshot& s, float plotLeft, float plotWidth)
{
    MarkerLayout layout;
    const float span = s.logMax - s.logMin;
    if (!(span > 0.0f))
        return layout;
    std::vector<ui::MarkerLabel> labels;
    for (const auto& [name, position] : s.markers)
        if (std::isfinite(position) && position >= s.logMin && position <= s.logMax) {
            const float x = plotLeft + (position - s.logMin) / span * plotWidth;
            layout.visible.push_back({name, position, x});
            labels.push_back({x, ImGui::CalcTextSize(name.c_str()).x});
        }
    layout.placed = placeMarkerLabels(labels, plotLeft, plotLeft + plotWidth, kMarkerRows, kLabelGap);
    for (const ui::PlacedLabel& label : layout.placed)
        layout.rows = std::max(layout.rows, label.row + 1);
    return layout;
}

void drawMainPlot(const post::HistogramSnapshot& s, const MarkerLayout& markers, bool logCounts, ImVec2 size)
{
    ImDrawList* draw = ImGui::GetWindowDrawList();
    ImVec2 origin = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("##histogram", size);
    bool hovered = ImGui::IsItemHovered();
    const float line = ImGui::GetTextLineHeight();
    // Above the plot the marker labels' rows, below it the axis numbers.
    const float bandTop = origin.y;
    ImVec2 plotMin(origin.x, origin.y + float(kMarkerRows) * line);
    ImVec2 plotMax(origin.x + size.x, origin.y + size.y - line);
    draw->AddRectFilled(plotMin, plotMax, kBackgroundColor);
    draw->AddRect(plotMin, plotMax, kAxisColor);
    float width = plotMax.x - plotMin.x;
    float height = plotMax.y - plotMin.y;
    float axisMin = s.logMin, axisMax = s.logMax;
    if (!(axisMax > axisMin) || width < 2.0f || height < 2.0f)
        return;
    auto toX = [&](float logL) { return plotMin.x + (logL - axisMin) / (axisMax - axisMin) * width; };

    // Histogram bars (red).
    std::uint32_t peak = 1;
    for (std::uint32_t count : s.bins)
        peak = std::max(peak, count);
    auto barHeight = [&](std::uint32_t count) {
        if (count == 0)
            return 0.0f;
        float fraction = logCounts ? std::log1p(float(count)) / std::log1p(float(peak)) : float(count) / float(peak);
        return fraction * height;
    };
    std::size_t binCount = s.bins.size();
    for (std::size_t i = 0; i < binCount; ++i) {
        float x0 = plotMin.x + width * float(i) / float(binCount);
        float x1 = plotMin.x + width * float(i + 1) / float(binCount);
        float h = barHeight(s.bins[i]);
        if (h > 0.0f)
            draw->AddRectFilled(ImVec2(x0, plotMax.y - h), ImVec2(std::max(x1, x0 + 1.0f), plotMax.y), kHistogramColor);
    }

    // Axis ticks (EV) at a nice step, as many as their numbers have room for; each number inside the
    // plot's width (the first and last move in rather than lose their sign or a digit) and none over
    // its neighbour.
    const float span = axisMax - axisMin;
    const float numberWidth = ImGui::CalcTextSize("-00").x;
    // A digit's width between two numbers: "-10 -9", never "-10-9" (the first number is held inside the plot).
    const float numberGap = ImGui::CalcTextSize("0").x;
    const int maxTicks = ticksThatFit(width, numberWidth, numberGap);
    const double step = niceStep(span, maxTicks);
    float lastRight = -std::numeric_limits<float>::infinity();
    const ImVec2 numbersMin(plotMin.x, plotMax.y);
    const ImVec2 numbersMax(plotMax.x, plotMax.y + line + 1.0f);
    for (double tick : niceTicks(axisMin, axisMax, maxTicks)) {
        const float x = toX(float(tick));
        draw->AddLine(ImVec2(x, plotMax.y), ImVec2(x, plotMax.y + 3), kAxisColor);
        const std::string label = formatTick(tick, step);
        const float labelWidth = ImGui::CalcTextSize(label.c_str()).x;
        const float left = std::clamp(x - labelWidth * 0.5f, plotMin.x, plotMax.x - labelWidth);
        if (left < lastRight + numberGap)
            continue;
        drawTextIn(draw, ImVec2(left, plotMax.y + 1.0f), kAxisColor, label, numbersMin, numbersMax);
        lastRight = left + labelWidth;
    }

    // The selected tile (a local operator): its histogram as blue outline bars scaled to its own peak,
    // its curve in cyan, over the global ones (the legend line under the plot names them).
    if (s.tile && s.tile->bins.size() == binCount) {
        std::uint32_t tilePeak = 1;
        for (std::uint32_t count : s.tile->bins)
            tilePeak = std::max(tilePeak, count);
        for (std::size_t i = 0; i < binCount; ++i) {
            const std::uint32_t count = s.tile->bins[i];
            if (count == 0)
                continue;
            const float fraction =
                logCounts ? std::log1p(float(count)) / std::log1p(float(tilePeak)) : float(count) / float(tilePeak);
            const float x0 = plotMin.x + width * float(i) / float(binCount);
            const float x1 = std::max(plotMin.x + width * float(i + 1) / float(binCount), x0 + 1.0f);
            draw->AddRect(ImVec2(x0, plotMax.y - fraction * height), ImVec2(x1, plotMax.y), kTileHistogramColor);
        }
    }
    if (s.tile && !s.tile->curve.empty() && s.tile->curveLogMax > s.tile->curveLogMin) {
        const post::TileSnapshot& t = *s.tile;
        std::vector<ImVec2> points;
        const int steps = std::max(2, int(width / 2.0f));
        const float n = float(t.curve.size());
        for (int i = 0; i <= steps; ++i) {
            const float logL = axisMin + span * float(i) / float(steps);
            float position =
                std::clamp((logL - t.curveLogMin) / (t.curveLogMax - t.curveLogMin) * n - 0.5f, 0.0f, n - 1.0f);
            const std::size_t a = std::size_t(position);
            const std::size_t b = std::min(a + 1, t.curve.size() - 1);
            const float value = t.curve[a] + (position - float(a)) * (t.curve[b] - t.curve[a]);
            points.emplace_back(toX(logL), plotMax.y - std::clamp(value, 0.0f, 1.0f) * height);
        }
        draw->AddPolyline(points.data(), int(points.size()), kTileCurveColor, 0, 1.5f);
    }

    // Tone curve (green): display luminance 0..1 over the same log axis.
    if (!s.curve.empty()) {
        std::vector<ImVec2> points;
        int steps = std::max(2, int(width / 2.0f));
        for (int i = 0; i <= steps; ++i) {
            float logL = axisMin + span * float(i) / float(steps);
            float value = std::clamp(evaluateCurve(s, logL), 0.0f, 1.0f);
            points.emplace_back(toX(logL), plotMax.y - value * height);
        }
        draw->AddPolyline(points.data(), int(points.size()), kCurveColor, 0, 2.0f);
    }

    // Operator markers: each line rises from the plot's bottom to its label's row (ui/PlotLabels.h:
    // no label over another or over a line); a marker without a row has its line only.
    const ImVec2 bandMin(plotMin.x, bandTop);
    const ImVec2 bandMax(plotMax.x, plotMin.y);
    for (std::size_t i = 0; i < markers.visible.size(); ++i) {
        const float x = markers.visible[i].x;
        const ui::PlacedLabel& label = markers.placed[i];
        const float labelTop = plotMin.y - float(label.row + 1) * line;
        draw->AddLine(ImVec2(x, label.row >= 0 ? labelTop : plotMin.y), ImVec2(x, plotMax.y), kMarkerColor, 1.0f);
        if (label.row >= 0)
            drawTextIn(draw, ImVec2(label.left, labelTop), kMarkerColor, markers.visible[i].name, bandMin, bandMax);
    }

    if (hovered) {
        float logL = axisMin + (ImGui::GetIO().MousePos.x - plotMin.x) / width * span;
        std::size_t bin =
            std::min(binCount - 1, std::size_t(std::max(0.0f, (logL - axisMin) / span * float(binCount))));
        ImGui::BeginTooltip();
        ImGui::Text("log2 L = %.2f EV (L = %.4g cd/m^2)", logL, std::exp2(logL));
        if (binCount)
            ImGui::Text("bin %zu: %u pixels", bin, s.bins[bin]);
        if (s.tile && bin < s.tile->bins.size())
            ImGui::Text("tile (%d,%d): %u pixels", s.tile->tile[0], s.tile->tile[1], s.tile->bins[bin]);
        if (!s.curve.empty())
            ImGui::Text("display %.3f", evaluateCurve(s, logL));
        for (std::size_t i = 0; i < markers.visible.size(); ++i)
            if (std::abs(markers.visible[i].x - ImGui::GetIO().MousePos.x) <= 3.0f)
                ImGui::Text("marker: %s (%.2f EV)", markers.visible[i].name.c_str(), markers.visible[i].ev);
        ImGui::EndTooltip();
    }
}

void drawDisplayHistogram(const post::HistogramSnapshot& s, ImVec2 size, float top)
{
    ImDrawList* draw = ImGui::GetWindowDrawList();
    ImVec2 origin = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("##display", size);
    const float line = ImGui::GetTextLineHeight();
    // The plot's top and bottom line up with the main plot's (`top` below the item's top).
    ImVec2 plotMin(origin.x, origin.y + std::max(top, line));
    ImVec2 plotMax(origin.x + size.x, origin.y + size.y - line);
    draw->AddRectFilled(plotMin, plotMax, kBackgroundColor);
    draw->AddRect(plotMin, plotMax, kAxisColor);
    const ImVec2 itemMax(origin.x + size.x, origin.y + size.y);
    drawTextIn(draw, ImVec2(origin.x, plotMin.y - line), kAxisColor, "displayed", origin, itemMax);
    drawTextIn(draw, ImVec2(plotMin.x, plotMax.y + 1), kAxisColor, "0", origin, itemMax);
    drawTextIn(draw, ImVec2(plotMax.x - ImGui::CalcTextSize("1").x, plotMax.y + 1), kAxisColor, "1", origin, itemMax);
    std::uint32_t peak = 1;
    for (std::uint32_t count : s.displayBins)
        peak = std::max(peak, count);
    std::size_t n = s.displayBins.size();
    float width = plotMax.x - plotMin.x, height = plotMax.y - plotMin.y;
    for (std::size_t i = 0; i < n; ++i) {
        float h = float(s.displayBins[i]) / float(peak) * height;
        float x0 = plotMin.x + width * float(i) / float(n);
        float x1 = plotMin.x + width * float(i + 1) / float(n);
        if (h > 0.0f)
            draw->AddRectFilled(ImVec2(x0, plotMax.y - h), ImVec2(std::max(x1 - 1.0f, x0 + 1.0f), plotMax.y),
                                kDisplayColor);
    }
}

}  // namespace

void HistogramView::draw(const std::optional<post::HistogramSnapshot>& snapshot, std::uint64_t currentFrame)
{
    const TextFitPanel scope("Histogram");
    if (!snapshot || snapshot->bins.empty()) {
        TextDisabledWrapped("waiting for the first histogram readback...");
        return;
    }
    const post::HistogramSnapshot& s = *snapshot;
    const std::string range = formatAxisRange(s.logMin, s.logMax);
    char late[64];
    std::snprintf(late, sizeof late, "(frame %llu, %llu late)", (unsigned long long)s.frame,
                  (unsigned long long)(currentFrame >= s.frame ? currentFrame - s.frame : 0));
    // One line whatever the width (the plot's height counts on it): the numbers, the readback's lag and
    // the check box where they fit; in a narrow pane shorter numbers and the lag on hover.
    const ImGuiStyle& style = ImGui::GetStyle();
    const float checkboxWidth = ImGui::GetFrameHeight() + style.ItemInnerSpacing.x +
                                ImGui::CalcTextSize("log counts").x + style.ItemSpacing.x +
                                ImGui::CalcTextSize("(?)").x;
    const std::string full = std::to_string(s.binCount) + " bins, log2 L " + range + " EV";
    const float room = ImGui::GetContentRegionAvail().x - checkboxWidth - style.ItemSpacing.x;
    const float lateWidth = style.ItemSpacing.x + ImGui::CalcTextSize(late).x;
    std::string shown = full;
    for (const std::string& shorter :
         {full, std::to_string(s.binCount) + " bins, " + range + " EV", std::to_string(s.binCount) + " bins"}) {
        shown = shorter;
        if (ImGui::CalcTextSize(shorter.c_str()).x <= room)
            break;
    }
    const bool lateFits = ImGui::CalcTextSize(shown.c_str()).x + lateWidth <= room;
    textUnformatted(shown);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s %s", full.c_str(), late);
    if (lateFits) {
        ImGui::SameLine();
        textDisabled("%s", late);
    }
    ImGui::SameLine();
    ImGui::Checkbox("log counts", &mLogCounts);
    checkItemFits("log counts");
    helpMarker(
        "Red: pixel counts per log2-luminance bin (EV: log2 of cd/m^2). Green: the tone curve (display luminance "
        "0..1 on the same axis). Yellow: the operator's markers; a marker whose label has no room above the plot "
        "is listed below it. With a local operator (clahe, ward-local), the tile under the mouse (or the first "
        "--probe point): its histogram in blue outlines (scaled to its own peak) and its curve in cyan. The data "
        "are read back asynchronously, a few frames late.");

    // As tall as the region leaves after the counters' line below, at least a few lines.
    const ImVec2 available = ImGui::GetContentRegionAvail();
    // The displayed image's histogram narrows with the pane, and gives way to the main plot below
    // a useful width.
    float displayWidth = std::clamp(0.28f * available.x, scaled(70.0f), scaled(120.0f));
    const float gap = 3.0f * ImGui::GetStyle().ItemSpacing.x;
    if (available.x - displayWidth - gap < scaled(160.0f))
        displayWidth = 0.0f;
    const float mainWidth = std::max(scaled(100.0f), available.x - (displayWidth > 0.0f ? displayWidth + gap : 0.0f));
    const MarkerLayout markers = layOutMarkers(s, ImGui::GetCursorScreenPos().x, mainWidth);
    bool legend = false;
    for (const ui::PlacedLabel& label : markers.placed)
        legend |= label.row < 0;
    // The counters' line and the legend's are always reserved (the legend's empty when every label has
    // a row), so the plot's height depends on the region only; a local operator's tile adds a line.
    const float lines = 2.0f + (s.tile ? 1.0f : 0.0f);
    const float plotHeight =
        std::max(float(4 + kMarkerRows) * ImGui::GetTextLineHeight(),
                 available.y - lines * ImGui::GetTextLineHeightWithSpacing() - ImGui::GetStyle().ItemSpacing.y);
    drawMainPlot(s, markers, mLogCounts, ImVec2(mainWidth, plotHeight));
    recordInView("Histogram plot");  // its marker rows and axis numbers are inside the item
    if (displayWidth > 0.0f) {
        ImGui::SameLine(0.0f, gap);
        drawDisplayHistogram(s, ImVec2(displayWidth, plotHeight), float(kMarkerRows) * ImGui::GetTextLineHeight());
    }

    if (s.tile) {
        const post::TileSnapshot& t = *s.tile;
        std::string text = util::format("tile ({},{}) of {}x{}: ", t.tile[0], t.tile[1], t.tiles[0], t.tiles[1]);
        text += t.bins.empty() ? "curve (cyan)" : "histogram (blue outlines, own scale), curve (cyan)";
        TextColouredWrapped(ImGui::ColorConvertU32ToFloat4(kTileCurveColor), text);
    }
    if (s.countersValid) {
        const auto& c = s.counters;
        char counters[160];
        std::snprintf(counters, sizeof counters, "not in a bin: NaN %u, Inf %u, <=0 %u, below %u, above %u",
                      c[hd::kCounterNaN], c[hd::kCounterInf], c[hd::kCounterNonPositive], c[hd::kCounterBelow],
                      c[hd::kCounterAbove]);
        textElided(counters);  // one line: the plot's height counts on it
    } else {
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
        textElided("this method does not count NaN, Inf, non-positive or out-of-range pixels");
        ImGui::PopStyleColor();
    }
    recordInView("Histogram counters");
    if (legend) {
        // The markers whose labels had no row above the plot, with their position.
        std::string text = "also marked (EV):";
        for (std::size_t i = 0; i < markers.visible.size(); ++i)
            if (markers.placed[i].row < 0) {
                char at[32];
                std::snprintf(at, sizeof at, " %.1f", double(markers.visible[i].ev));
                text += (text.back() == ':' ? " " : ", ") + markers.visible[i].name + at;
            }
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(kMarkerColor));
        textElided(text);
        ImGui::PopStyleColor();
    }
}

}  // namespace ui
