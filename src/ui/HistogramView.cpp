#include "ui/HistogramView.h"

#include "ui/Widgets.h"

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

void drawMainPlot(const post::HistogramSnapshot& s, bool logCounts, ImVec2 size)
{
    ImDrawList* draw = ImGui::GetWindowDrawList();
    ImVec2 origin = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("##histogram", size);
    bool hovered = ImGui::IsItemHovered();
    const float labelHeight = ImGui::GetTextLineHeight();
    ImVec2 plotMin(origin.x, origin.y + labelHeight);
    ImVec2 plotMax(origin.x + size.x, origin.y + size.y - labelHeight);
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

    // Axis ticks every 1, 2, 5 or 10 EV, whichever gives at most ~12 ticks.
    float span = axisMax - axisMin;
    float step = span <= 12 ? 1.0f : span <= 24 ? 2.0f : span <= 60 ? 5.0f : 10.0f;
    for (float tick = std::ceil(axisMin / step) * step; tick <= axisMax; tick += step) {
        float x = toX(tick);
        draw->AddLine(ImVec2(x, plotMax.y), ImVec2(x, plotMax.y + 3), kAxisColor);
        char label[16];
        std::snprintf(label, sizeof label, "%g", tick);
        draw->AddText(ImVec2(x - ImGui::CalcTextSize(label).x * 0.5f, plotMax.y + 1), kAxisColor, label);
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

    // Operator markers, left to right; each label takes the first text row (above the plot, then down
    // its top) where it does not overlap a label already drawn, so close markers stay legible.
    std::vector<std::pair<float, const std::string*>> visibleMarkers;
    for (const auto& [name, position] : s.markers)
        if (std::isfinite(position) && position >= axisMin && position <= axisMax)
            visibleMarkers.emplace_back(toX(position), &name);
    std::sort(visibleMarkers.begin(), visibleMarkers.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    constexpr int kLabelRows = 4;
    std::array<float, kLabelRows> rowEnd;
    rowEnd.fill(-std::numeric_limits<float>::infinity());
    const float lineHeight = ImGui::GetTextLineHeight();
    for (const auto& [x, name] : visibleMarkers) {
        draw->AddLine(ImVec2(x, plotMin.y), ImVec2(x, plotMax.y), kMarkerColor, 1.0f);
        const float textWidth = ImGui::CalcTextSize(name->c_str()).x;
        const float labelX = std::min(x + 2, plotMax.x - textWidth);
        int row = 0;
        while (row + 1 < kLabelRows && rowEnd[std::size_t(row)] > labelX)
            ++row;
        rowEnd[std::size_t(row)] = labelX + textWidth + 4.0f;
        const float labelY = row == 0 ? origin.y : plotMin.y + 1.0f + float(row - 1) * lineHeight;
        draw->AddText(ImVec2(labelX, labelY), kMarkerColor, name->c_str());
    }

    if (hovered) {
        float logL = axisMin + (ImGui::GetIO().MousePos.x - plotMin.x) / width * span;
        std::size_t bin =
            std::min(binCount - 1, std::size_t(std::max(0.0f, (logL - axisMin) / span * float(binCount))));
        ImGui::BeginTooltip();
        ImGui::Text("log2 L = %.2f (L = %.4g)", logL, std::exp2(logL));
        if (binCount)
            ImGui::Text("bin %zu: %u pixels", bin, s.bins[bin]);
        if (!s.curve.empty())
            ImGui::Text("display %.3f", evaluateCurve(s, logL));
        ImGui::EndTooltip();
    }
}

void drawDisplayHistogram(const post::HistogramSnapshot& s, ImVec2 size)
{
    ImDrawList* draw = ImGui::GetWindowDrawList();
    ImVec2 origin = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("##display", size);
    const float labelHeight = ImGui::GetTextLineHeight();
    ImVec2 plotMin(origin.x, origin.y + labelHeight);
    ImVec2 plotMax(origin.x + size.x, origin.y + size.y - labelHeight);
    draw->AddRectFilled(plotMin, plotMax, kBackgroundColor);
    draw->AddRect(plotMin, plotMax, kAxisColor);
    draw->AddText(origin, kAxisColor, "displayed");
    draw->AddText(ImVec2(plotMin.x, plotMax.y + 1), kAxisColor, "0");
    draw->AddText(ImVec2(plotMax.x - ImGui::CalcTextSize("1").x, plotMax.y + 1), kAxisColor, "1");
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
    if (!snapshot || snapshot->bins.empty()) {
        ImGui::TextDisabled("waiting for the first histogram readback...");
        return;
    }
    const post::HistogramSnapshot& s = *snapshot;
    ImGui::Text("%u bins, log2 L %.2f .. %.2f", s.binCount, s.logMin, s.logMax);
    ImGui::SameLine();
    ImGui::TextDisabled("(frame %llu, %llu late)", (unsigned long long)s.frame,
                        (unsigned long long)(currentFrame >= s.frame ? currentFrame - s.frame : 0));
    // On this line where it fits, else on the next.
    const ImGuiStyle& style = ImGui::GetStyle();
    const float checkboxWidth = ImGui::GetFrameHeight() + style.ItemInnerSpacing.x +
                                ImGui::CalcTextSize("log counts (?)").x + 2.0f * style.ItemSpacing.x;
    const float rightEdge = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    if (rightEdge - ImGui::GetItemRectMax().x > checkboxWidth)
        ImGui::SameLine();
    ImGui::Checkbox("log counts", &mLogCounts);
    HelpMarker(
        "Red: pixel counts per log2-luminance bin. Green: the tone curve (display luminance 0..1 on the same "
        "axis). Yellow: the operator's markers. The data are read back asynchronously, a few frames late.");

    // As tall as the region leaves after the counters' line below, at least a few lines.
    const ImVec2 available = ImGui::GetContentRegionAvail();
    const float plotHeight =
        std::max(5.0f * ImGui::GetTextLineHeight(),
                 available.y - ImGui::GetTextLineHeightWithSpacing() - ImGui::GetStyle().ItemSpacing.y);
    const float displayWidth = scaled(120.0f);
    const float gap = 3.0f * ImGui::GetStyle().ItemSpacing.x;
    ImVec2 mainSize(std::max(scaled(100.0f), available.x - displayWidth - gap), plotHeight);
    drawMainPlot(s, mLogCounts, mainSize);
    ImGui::SameLine(0.0f, gap);
    drawDisplayHistogram(s, ImVec2(displayWidth, plotHeight));

    if (s.countersValid) {
        const auto& c = s.counters;
        ImGui::Text("not in a bin: NaN %u  Inf %u  <=0 %u  below %u  above %u", c[hd::kCounterNaN], c[hd::kCounterInf],
                    c[hd::kCounterNonPositive], c[hd::kCounterBelow], c[hd::kCounterAbove]);
    } else {
        ImGui::TextDisabled("this method does not count NaN/Inf/non-positive/out-of-range pixels");
    }
}

}  // namespace ui
