#include "ui/ExposurePanel.h"

#include "ui/InView.h"
#include "ui/PlotLabels.h"
#include "ui/TextFit.h"
#include "ui/Widgets.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

namespace ui {
namespace {

constexpr ImU32 kBackgroundColor = IM_COL32(20, 20, 24, 255);
constexpr ImU32 kAxisColor = IM_COL32(140, 140, 140, 255);
constexpr ImU32 kGridColor = IM_COL32(50, 50, 56, 255);
constexpr ImU32 kLineColor = IM_COL32(230, 230, 230, 255);
constexpr ImU32 kMarkerColor = IM_COL32(255, 170, 60, 255);
constexpr ImU32 kCutColor = IM_COL32(220, 90, 90, 255);
constexpr float kGap = 4.0f;  ///< pixels between a number and the plot or the next number

std::string formatValue(const char* format, double value)
{
    char text[48];
    std::snprintf(text, sizeof text, format, value);
    return text;
}

/// The y numbers left of the plot and their grid lines.
template <typename ToY>
void drawYAxis(ImDrawList* draw,
               const std::vector<double>& ticks,
               double step,
               ToY toY,
               ImVec2 plotMin,
               ImVec2 plotMax,
               ImVec2 origin,
               ImVec2 itemMax)
{
    const float line = ImGui::GetTextLineHeight();
    for (double tick : ticks) {
        const float y = toY(float(tick));
        draw->AddLine(ImVec2(plotMin.x, y), ImVec2(plotMax.x, y), kGridColor);
        const std::string label = formatTick(tick, step);
        const float labelWidth = ImGui::CalcTextSize(label.c_str()).x;
        const float top = std::clamp(y - 0.5f * line, origin.y, itemMax.y - line);
        drawTextIn(draw, ImVec2(plotMin.x - kGap - labelWidth, top), kAxisColor, label, origin, itemMax);
    }
}

/// The x numbers under the plot over [low, high] (each followed by `suffix`), as many as fit with two
/// digits' room between two ("-10 s  -8 s", never "-10 s-8 s"), their grid lines, and the plot's frame.
template <typename ToX>
void drawXAxis(ImDrawList* draw,
               float low,
               float high,
               const char* suffix,
               ToX toX,
               ImVec2 plotMin,
               ImVec2 plotMax,
               ImVec2 origin,
               ImVec2 itemMax)
{
    const float xGap = ImGui::CalcTextSize("00").x;
    const int xCount =
        ticksThatFit(plotMax.x - plotMin.x, ImGui::CalcTextSize((std::string("-00") + suffix).c_str()).x, xGap);
    const double xStep = niceStep(high - low, xCount);
    float lastRight = -std::numeric_limits<float>::infinity();
    for (double tick : niceTicks(low, high, xCount)) {
        const float x = toX(float(tick));
        draw->AddLine(ImVec2(x, plotMin.y), ImVec2(x, plotMax.y), kGridColor);
        const std::string label = formatTick(tick, xStep) + suffix;
        const float labelWidth = ImGui::CalcTextSize(label.c_str()).x;
        // Right of the y numbers' margin, so that no x number meets the lowest y number.
        const float left = std::clamp(x - 0.5f * labelWidth, plotMin.x, itemMax.x - labelWidth);
        if (left < lastRight + xGap)
            continue;
        drawTextIn(draw, ImVec2(left, plotMax.y + 2.0f), kAxisColor, label, origin, itemMax);
        lastRight = left + labelWidth;
    }
    draw->AddRect(plotMin, plotMax, kAxisColor);
}

/// A plot's frame in an item from `origin` to `itemMax`: the y ticks over [low, high] (as many as the
/// height has room for, never fewer than two: a scale needs two numbers), the left margin their
/// numbers take, and the plot rectangle above the x numbers' line.
struct PlotFrame
{
    std::vector<double> yTicks;
    double yStep = 0.0;
    ImVec2 min;
    ImVec2 max;
    bool usable = false;  ///< room for a plot (at least 4 x 4 pixels)
};

PlotFrame plotFrame(ImVec2 origin, ImVec2 itemMax, double low, double high, float minMargin = 0.0f)
{
    const float line = ImGui::GetTextLineHeight();
    const float plotTop = origin.y + 0.5f * line;  // room for half the top number above the plot
    const float plotBottom = itemMax.y - line - 2.0f;
    PlotFrame frame;
    int yCount = std::max(2, int((plotBottom - plotTop) / (1.5f * line)));
    frame.yTicks = niceTicks(low, high, yCount);
    while (frame.yTicks.size() < 2 && yCount < 8)
        frame.yTicks = niceTicks(low, high, ++yCount);
    frame.yStep = niceStep(high - low, yCount);
    float margin = minMargin;
    for (double tick : frame.yTicks)
        margin = std::max(margin, ImGui::CalcTextSize(formatTick(tick, frame.yStep).c_str()).x);
    frame.min = ImVec2(origin.x + margin + kGap, plotTop);
    frame.max = ImVec2(itemMax.x - 1.0f, plotBottom);
    frame.usable = frame.max.x - frame.min.x >= 4.0f && frame.max.y - frame.min.y >= 4.0f;
    return frame;
}

}  // namespace

void drawTimePlot(const char* id,
                  std::span<const TimeSample> samples,
                  float windowSeconds,
                  float low,
                  float high,
                  float height,
                  const char* unit,
                  std::span<const float> cutsSecondsAgo,
                  float minLeftMargin)
{
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 size(std::max(ImGui::GetContentRegionAvail().x, 1.0f), height);
    ImGui::InvisibleButton(id, size);
    const bool hovered = ImGui::IsItemHovered();
    const ImVec2 itemMax(origin.x + size.x, origin.y + size.y);
    if (!(high > low) || !(windowSeconds > 0.0f))
        return;

    // The y numbers take the left margin, the x numbers the bottom line.
    const PlotFrame frame = plotFrame(origin, itemMax, low, high, minLeftMargin);
    if (!frame.usable)
        return;
    const ImVec2 plotMin = frame.min;
    const ImVec2 plotMax = frame.max;
    auto toY = [&](float value) { return plotMax.y - (value - low) / (high - low) * (plotMax.y - plotMin.y); };
    auto toX = [&](float secondsAgo) { return plotMax.x + secondsAgo / windowSeconds * (plotMax.x - plotMin.x); };

    draw->AddRectFilled(plotMin, plotMax, kBackgroundColor);
    drawYAxis(draw, frame.yTicks, frame.yStep, toY, plotMin, plotMax, origin, itemMax);
    // The x axis: seconds before the newest frame.
    drawXAxis(draw, -windowSeconds, 0.0f, " s", toX, plotMin, plotMax, origin, itemMax);

    std::vector<ImVec2> points;
    points.reserve(samples.size());
    for (const TimeSample& sample : samples)
        if (sample.secondsAgo >= -windowSeconds && std::isfinite(sample.value))
            points.emplace_back(toX(sample.secondsAgo), std::clamp(toY(sample.value), plotMin.y, plotMax.y));
    draw->PushClipRect(plotMin, plotMax, true);
    for (float cut : cutsSecondsAgo)
        if (cut >= -windowSeconds)
            draw->AddLine(ImVec2(toX(cut), plotMin.y), ImVec2(toX(cut), plotMax.y), kCutColor, 1.5f);
    if (points.size() > 1)
        draw->AddPolyline(points.data(), int(points.size()), kLineColor, 0, 1.5f);
    else if (points.size() == 1)
        draw->AddCircleFilled(points.front(), 2.0f, kLineColor);
    draw->PopClipRect();

    if (hovered && !samples.empty()) {
        const float mouse = ImGui::GetIO().MousePos.x;
        const TimeSample* nearest = &samples.front();
        for (const TimeSample& sample : samples)
            if (std::abs(toX(sample.secondsAgo) - mouse) < std::abs(toX(nearest->secondsAgo) - mouse))
                nearest = &sample;
        ImGui::SetTooltip("%.2f s: %.3f %s", nearest->secondsAgo, nearest->value, unit);
    }
}

void drawCompensationCurve(const char* id, const post::CompensationCurveView& view, float height)
{
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 size(std::max(ImGui::GetContentRegionAvail().x, 1.0f), height);
    ImGui::InvisibleButton(id, size);
    const bool hovered = ImGui::IsItemHovered();
    const ImVec2 itemMax(origin.x + size.x, origin.y + size.y);
    const std::vector<post::CompensationPoint>& points = view.curve.points;

    // x: the points and the metered value with 2 EV around; y: the compensations and 0, 1 EV around.
    float xLow = -8.0f, xHigh = 8.0f, yLow = -1.0f, yHigh = 1.0f;
    if (!points.empty()) {
        xLow = std::min(xLow, points.front().meteredEv - 2.0f);
        xHigh = std::max(xHigh, points.back().meteredEv + 2.0f);
    }
    if (view.meteredEv && std::isfinite(*view.meteredEv)) {
        xLow = std::min(xLow, *view.meteredEv - 2.0f);
        xHigh = std::max(xHigh, *view.meteredEv + 2.0f);
    }
    for (const post::CompensationPoint& p : points) {
        yLow = std::min(yLow, p.compensationEv - 1.0f);
        yHigh = std::max(yHigh, p.compensationEv + 1.0f);
    }

    const PlotFrame frame = plotFrame(origin, itemMax, yLow, yHigh);
    if (!frame.usable)
        return;
    const ImVec2 plotMin = frame.min;
    const ImVec2 plotMax = frame.max;
    auto toX = [&](float ev) { return plotMin.x + (ev - xLow) / (xHigh - xLow) * (plotMax.x - plotMin.x); };
    auto toY = [&](float ev) { return plotMax.y - (ev - yLow) / (yHigh - yLow) * (plotMax.y - plotMin.y); };

    draw->AddRectFilled(plotMin, plotMax, kBackgroundColor);
    drawYAxis(draw, frame.yTicks, frame.yStep, toY, plotMin, plotMax, origin, itemMax);
    drawXAxis(draw, xLow, xHigh, "", toX, plotMin, plotMax, origin, itemMax);

    // The curve: flat from the left edge to the first point, through the points, flat to the right edge.
    std::vector<ImVec2> polyline;
    const float first = points.empty() ? 0.0f : points.front().compensationEv;
    const float last = points.empty() ? 0.0f : points.back().compensationEv;
    polyline.emplace_back(toX(xLow), toY(first));
    for (const post::CompensationPoint& p : points)
        polyline.emplace_back(toX(p.meteredEv), toY(p.compensationEv));
    polyline.emplace_back(toX(xHigh), toY(last));
    draw->PushClipRect(plotMin, plotMax, true);
    draw->AddPolyline(polyline.data(), int(polyline.size()), kLineColor, 0, 1.5f);
    for (const post::CompensationPoint& p : points)
        draw->AddCircleFilled(ImVec2(toX(p.meteredEv), toY(p.compensationEv)), 2.5f, kLineColor);
    if (view.meteredEv && std::isfinite(*view.meteredEv)) {
        const ImVec2 at(toX(*view.meteredEv), toY(view.compensationEv));
        draw->AddLine(ImVec2(at.x, plotMin.y), ImVec2(at.x, plotMax.y), kMarkerColor);
        draw->AddCircleFilled(at, 4.0f, kMarkerColor);
    }
    draw->PopClipRect();
    if (hovered) {
        const float metered = xLow + (ImGui::GetIO().MousePos.x - plotMin.x) / (plotMax.x - plotMin.x) * (xHigh - xLow);
        ImGui::SetTooltip("metered %+.2f: compensation %+.2f EV", metered, post::compensationAt(view.curve, metered));
    }
}

void ExposurePanel::draw(post::ExposureHistory& history,
                         std::string_view operatorId,
                         std::string_view keyValueName,
                         const std::optional<post::CompensationCurveView>& compensation)
{
    const TextFitPanel scope("Exposure");
    std::vector<TimeSample> keyEv;
    std::vector<TimeSample> frameMs;
    std::vector<float> cuts;
    const double newest = history.frames().empty() ? 0.0 : history.frames().back().timeSeconds;
    for (const post::ExposureHistory::Frame& frame : history.frames()) {
        const float ago = float(frame.timeSeconds - newest);
        frameMs.push_back({ago, float(frame.frameMs)});
        if (frame.keyEv)
            keyEv.push_back({ago, *frame.keyEv});
        if (frame.cut)
            cuts.push_back(ago);
    }

    // The two plots first, one caption line each, sharing what the region leaves: their height depends
    // on the region alone (not on the captions' text), and their y numbers take the same margin, so the
    // time axes line up. The rest (cuts, the window, the compensation curve) follows under them.
    const ImGuiStyle& style = ImGui::GetStyle();
    const float captions = 2.0f * ImGui::GetTextLineHeightWithSpacing() + 2.0f * style.ItemSpacing.y;
    const float plotHeight =
        std::max(3.5f * ImGui::GetTextLineHeight(), std::floor(0.5f * (ImGui::GetContentRegionAvail().y - captions)));
    const float yMargin = ImGui::CalcTextSize("-000").x;
    const std::string keyCaption = std::string(operatorId) + " " + std::string(keyValueName) + ", EV";
    if (keyValueName.empty()) {
        textElided(std::string(operatorId) + " has no key value (no adaptive state)");
        recordInView("Exposure key value plot (none: the operator has no key value)");
        ImGui::Dummy(ImVec2(1.0f, plotHeight));
    } else {
        // The numbers first (they are what is read); the key value's name in the tooltip.
        const auto flicker = history.flickerEvPerSecond();
        if (flicker && !keyEv.empty())
            textElided("key " + formatValue("%+.2f", double(keyEv.back().value)) + " EV, flicker " +
                       formatValue("%.3f", *flicker) + " EV/s");
        else
            textElided("key value: waiting for readbacks");
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("%s", keyCaption.c_str());
        float low = -1.0f;
        float high = 1.0f;
        if (!keyEv.empty()) {
            const auto [lo, hi] = std::minmax_element(keyEv.begin(), keyEv.end(),
                                                      [](const auto& a, const auto& b) { return a.value < b.value; });
            low = lo->value - 0.5f;  // half an EV of margin: a flat line stays visible
            high = hi->value + 0.5f;
        }
        drawTimePlot("##keyev", keyEv, float(history.windowSeconds()), low, high, plotHeight, "EV", cuts, yMargin);
        recordInView("Exposure key value plot");
    }
    float maxMs = 1.0f;
    for (const TimeSample& sample : frameMs)
        maxMs = std::max(maxMs, sample.value);
    textElided("frame time, ms" +
               (frameMs.empty() ? std::string() : ": now " + formatValue("%.1f", frameMs.back().value)));
    drawTimePlot("##framems", frameMs, float(history.windowSeconds()), 0.0f, maxMs * 1.2f, plotHeight, "ms", {},
                 yMargin);
    recordInView("Exposure frame-time plot");

    if (!cuts.empty())
        textWrapped(std::to_string(cuts.size()) + (cuts.size() == 1 ? " cut" : " cuts") +
                    " (red): flicker within shots");
    if (ImGui::SliderFloat("window", &mWindowSeconds, 1.0f, 60.0f, "%.0f s"))
        history.setWindowSeconds(mWindowSeconds);
    checkFieldFits("window", "60 s");
    helpMarker(
        "The plots show the last N seconds. Flicker: the RMS over consecutive frames of the key value's change per "
        "second, (EV[i+1] - EV[i]) / dt, "
        "in EV/s. A steady drift of r EV/s reads r at any frame rate; a constant key value reads 0. The plots' "
        "x axis is the time before the newest frame.");
    if (compensation) {
        // The caption names the axes; the metered point's numbers go on their own line.
        textWrapped("compensation curve, EV");
        if (compensation->curve.points.empty())
            TextDisabledWrapped("no points: flat 0 EV");
        else if (compensation->meteredEv)
            textWrapped("metered " + formatValue("%+.2f", *compensation->meteredEv) + ": " +
                        formatValue("%+.2f", compensation->compensationEv) + " EV");
        drawCompensationCurve("##compensation", *compensation, 4.0f * ImGui::GetFrameHeight());
    }
}

}  // namespace ui
