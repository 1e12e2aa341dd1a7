#include "ui/InView.h"

#include <imgui_internal.h>  // the current window's clip rectangle and scroll

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace ui {
namespace {

/// ImGui's sizes are fractional, its clipping on whole pixels.
constexpr float kTolerance = 0.5f;

struct Records
{
    std::vector<InViewItem> items;
    std::map<std::string, int, std::less<>> folded;
};

Records& records()
{
    static Records r;
    return r;
}

std::string span(float from, float to)
{
    return std::to_string(int(std::floor(from))) + ".." + std::to_string(int(std::ceil(to)));
}

}  // namespace

const std::vector<std::string_view> kExpectedItems = {"Timings header",          "Timings row",
                                                      "Histogram plot",          "Histogram counters",
                                                      "Exposure key value plot", "Exposure frame-time plot"};

bool InViewItem::inViewWithoutScrolling() const
{
    const float left = rect.x + scrollX;  // where the item is with the window at its top-left
    const float top = rect.y + scrollY;
    return left >= visible.x - kTolerance && left + rect.width <= visible.right() + kTolerance &&
           top >= visible.y - kTolerance && top + rect.height <= visible.bottom() + kTolerance;
}

void clearInView()
{
    records() = {};
}

void recordInView(std::string name)
{
    recordInView(std::move(name), ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
}

void recordInView(std::string name, ImVec2 min, ImVec2 max)
{
    const ImGuiWindow* window = ImGui::GetCurrentWindow();
    InViewItem item;
    item.name = std::move(name);
    item.rect = {min.x, min.y, max.x - min.x, max.y - min.y};
    const ImRect& clip = window->InnerClipRect;
    item.visible = {clip.Min.x, clip.Min.y, clip.GetWidth(), clip.GetHeight()};
    item.scrollX = window->Scroll.x;
    item.scrollY = window->Scroll.y;
    records().items.push_back(std::move(item));
}

void recordFoldedRows(std::string_view table, int count)
{
    if (count > 0)
        records().folded[std::string(table)] += count;
}

const std::vector<InViewItem>& inViewItems()
{
    return records().items;
}

std::string describeMeasurementsInView()
{
    const Records& r = records();
    std::string missing;
    auto add = [&missing](const std::string& text) { missing += (missing.empty() ? "" : ", ") + text; };
    for (std::string_view expected : kExpectedItems) {
        const bool drawn = std::any_of(r.items.begin(), r.items.end(), [expected](const InViewItem& item) {
            return std::string_view(item.name).substr(0, expected.size()) == expected;
        });
        if (!drawn)
            add(std::string(expected) + " (not drawn)");
    }
    int rows = 0;
    for (const InViewItem& item : r.items) {
        rows += item.name.rfind("Timings row", 0) == 0;
        if (item.inViewWithoutScrolling())
            continue;
        const float top = item.rect.y + item.scrollY;
        const float left = item.rect.x + item.scrollX;
        add(item.name + " (at x " + span(left, left + item.rect.width) + ", y " + span(top, top + item.rect.height) +
            "; its region shows x " + span(item.visible.x, item.visible.right()) + ", y " +
            span(item.visible.y, item.visible.bottom()) + ")");
    }
    if (!missing.empty())
        return "measurements not in view: " + missing;
    std::string text = "measurements in view (Timings: header, " + std::to_string(rows) + " rows";
    for (const auto& [table, count] : r.folded)
        if (table == "Timings")
            text += ", " + std::to_string(count) + " folded";
    return text + "; Histogram: plot with axis numbers, counters; Exposure: key value and frame-time plots)";
}

}  // namespace ui
