#include "ui/PanelLayout.h"

#include <imgui.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>

namespace ui {
namespace {

/// The longest label of a field that should read whole beside it (the percentile operator's limits).
constexpr const char* kReferenceFieldLabel = "Exposure limits (EV)";

float widest(const std::vector<std::string>& names)
{
    float width = 0.0f;
    for (const std::string& name : names)
        width = std::max(width, comboWidthFor(name));
    return width;
}

/// Splits the strip's inner width `room` (less its two bars) into Histogram, Timings and Exposure.
/// Exposure gives way first, then Timings (down to their minimum), so the Histogram keeps its own;
/// below the three minimums the sections share the room in proportion to them.
std::array<float, 3> splitStrip(float room, const PanelLayoutState& state, const PanelMetrics& m)
{
    const float sectionMin = std::round(m.sectionMinWidth);
    float timings = state.timingsWidth > 0.0f ? state.timingsWidth * m.scale : m.timingsWidth;
    float exposure = state.exposureWidth > 0.0f
                         ? state.exposureWidth * m.scale
                         : std::clamp(std::round(room * m.exposureFraction), sectionMin, m.exposureWidth);
    timings = std::max(std::round(timings), sectionMin);
    exposure = std::max(std::round(exposure), sectionMin);
    const float histogramMin = std::round(m.histogramMinWidth);
    if (room < histogramMin + 2.0f * sectionMin) {
        const float total = histogramMin + 2.0f * sectionMin;
        timings = std::floor(room * sectionMin / total);
        exposure = timings;
        return {room - timings - exposure, timings, exposure};
    }
    float excess = std::max(0.0f, timings + exposure + histogramMin - room);
    const float exposureGives = std::min(excess, exposure - sectionMin);
    exposure -= exposureGives;
    excess -= exposureGives;
    timings -= std::min(excess, timings - sectionMin);
    return {room - timings - exposure, timings, exposure};
}

std::string boolText(bool value)
{
    return value ? "true" : "false";
}

std::string numberText(float value)
{
    char text[32];
    auto [end, ec] = std::to_chars(text, text + sizeof text, value);
    return ec == std::errc() ? std::string(text, end) : std::string("0");
}

/// The settings-file key of each section's open state, in SettingsSection order.
constexpr std::array kSectionKeys{"pipeline_open", "frame_open", "view_open", "split_open", "pipeline_b_open"};
static_assert(kSectionKeys.size() == std::size_t(SettingsSection::Count), "one layout key per settings section");

}  // namespace

PanelMetrics PanelMetrics::atScale(float scale)
{
    PanelMetrics m;
    m.scale = scale;
    for (float* length :
         {&m.settingsMinWidth, &m.settingsMaxWidth, &m.stripMinHeight, &m.stripMaxHeight, &m.timingsWidth,
          &m.exposureWidth, &m.sectionMinWidth, &m.histogramMinWidth, &m.splitter, &m.viewportMin, &m.fieldLabelRoom})
        *length = std::round(*length * scale);
    return m;
}

const LayoutRect& PanelRects::region(PanelRegion which) const
{
    switch (which) {
        case PanelRegion::Settings:
            return settings;
        case PanelRegion::Histogram:
            return histogram;
        case PanelRegion::Timings:
            return timings;
        case PanelRegion::Exposure:
            return exposure;
    }
    return settings;
}

const LayoutRect& PanelRects::bar(PanelBar which) const
{
    switch (which) {
        case PanelBar::Settings:
            return settingsBar;
        case PanelBar::Strip:
            return stripBar;
        case PanelBar::HistogramTimings:
            return histogramBar;
        case PanelBar::TimingsExposure:
            return timingsBar;
    }
    return settingsBar;
}

float preferredSettingsWidth(glm::vec2 display, const PanelLayoutState& state, const PanelMetrics& metrics)
{
    if (state.settingsWidth > 0.0f)
        return std::max(state.settingsWidth * metrics.scale, metrics.settingsMinWidth);
    return std::clamp(std::round(display.x * metrics.settingsFraction), metrics.settingsMinWidth,
                      std::max(metrics.settingsMinWidth, metrics.settingsMaxWidth));
}

float preferredStripHeight(glm::vec2 display, const PanelLayoutState& state, const PanelMetrics& metrics)
{
    if (state.stripHeight > 0.0f)
        return std::max(state.stripHeight * metrics.scale, metrics.stripMinHeight);
    return std::clamp(std::round(display.y * metrics.stripFraction), metrics.stripMinHeight,
                      std::max(metrics.stripMinHeight, metrics.stripMaxHeight));
}

PanelRects layOutPanels(glm::vec2 display, const PanelLayoutState& state, const PanelMetrics& metrics, bool panelsShown)
{
    PanelRects rects;
    const float width = std::max(0.0f, std::floor(display.x));
    const float height = std::max(0.0f, std::floor(display.y));
    rects.viewport = {0.0f, 0.0f, width, height};
    if (!panelsShown)
        return rects;

    // Down: [settings][bar] viewport over [bar] and the strip, as wide as the window. Without room for
    // the bars and a minimal viewport, the picture gets the whole window.
    const float bar = std::round(metrics.splitter);
    if (width < metrics.viewportMin + bar || height < metrics.viewportMin + bar)
        return rects;
    float strip = state.stripOpen ? std::round(preferredStripHeight(display, state, metrics)) : 0.0f;
    strip = std::min(strip, height - metrics.viewportMin - bar);
    const float top = height - strip - bar;  // the height of the column and the viewport
    rects.stripBar = {0.0f, top, width, bar};

    // Across the top: [settings][bar] viewport.
    float left = state.settingsOpen ? std::round(preferredSettingsWidth(display, state, metrics)) : 0.0f;
    left = std::min(left, width - metrics.viewportMin - bar);
    if (left > 0.0f)
        rects.settings = {0.0f, 0.0f, left, top};
    rects.settingsBar = {left, 0.0f, bar, top};
    const float x0 = left + bar;
    rects.viewport = {x0, 0.0f, width - x0, top};
    if (strip <= 0.0f)
        return rects;
    rects.strip = {0.0f, height - strip, width, strip};

    // The strip: [Histogram][bar][Timings][bar][Exposure].
    const float room = rects.strip.width - 2.0f * bar;
    if (room <= 0.0f) {
        rects.histogram = rects.strip;
        return rects;
    }
    const auto [histogram, timings, exposure] = splitStrip(room, state, metrics);
    const float y = rects.strip.y;
    rects.histogram = {0.0f, y, histogram, strip};
    rects.histogramBar = {histogram, y, bar, strip};
    rects.timings = {rects.histogramBar.right(), y, timings, strip};
    rects.timingsBar = {rects.timings.right(), y, bar, strip};
    rects.exposure = {rects.timingsBar.right(), y, width - rects.timingsBar.right(), strip};
    for (LayoutRect* section : {&rects.histogram, &rects.timings, &rects.exposure})
        if (section->empty())
            *section = {};
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

glm::ivec2 fitAspect(glm::ivec2 area, glm::ivec2 aspect)
{
    area = glm::max(area, glm::ivec2(1));
    if (aspect.x <= 0 || aspect.y <= 0)
        return area;
    // Whichever side limits: the other follows the aspect, rounded, within the area.
    if (double(area.x) * aspect.y <= double(area.y) * aspect.x)
        return {area.x, std::clamp(int(std::lround(double(area.x) * aspect.y / aspect.x)), 1, area.y)};
    return {std::clamp(int(std::lround(double(area.y) * aspect.x / aspect.y)), 1, area.x), area.y};
}

std::vector<std::pair<std::string, std::string>> layoutKeys(const PanelLayoutState& state)
{
    std::vector<std::pair<std::string, std::string>> keys = {
        {"layout.settings_width", numberText(state.settingsWidth)},
        {"layout.strip_height", numberText(state.stripHeight)},
        {"layout.timings_width", numberText(state.timingsWidth)},
        {"layout.exposure_width", numberText(state.exposureWidth)},
        {"layout.settings_open", boolText(state.settingsOpen)},
        {"layout.strip_open", boolText(state.stripOpen)},
    };
    for (int i = 0; i < int(SettingsSection::Count); ++i)
        keys.emplace_back(std::string("layout.") + kSectionKeys[i], boolText(state.sectionOpen[i]));
    return keys;
}

std::vector<std::string> applyLayoutKeys(const std::map<std::string, std::string>& values, PanelLayoutState& state)
{
    std::map<std::string, float*> lengths = {{"layout.settings_width", &state.settingsWidth},
                                             {"layout.strip_height", &state.stripHeight},
                                             {"layout.timings_width", &state.timingsWidth},
                                             {"layout.exposure_width", &state.exposureWidth}};
    std::map<std::string, bool*> flags = {{"layout.settings_open", &state.settingsOpen},
                                          {"layout.strip_open", &state.stripOpen}};
    for (int i = 0; i < int(SettingsSection::Count); ++i)
        flags[std::string("layout.") + kSectionKeys[i]] = &state.sectionOpen[i];
    std::vector<std::string> warnings;
    for (const auto& [key, text] : values) {
        if (key.rfind("layout.", 0) != 0)
            continue;
        if (auto length = lengths.find(key); length != lengths.end()) {
            float value = 0.0f;
            auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
            if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value) || value < 0.0f ||
                value > 100000.0f)
                warnings.push_back(key + ": '" + text + "' is not a length in units (0: the default); kept");
            else
                *length->second = value;
        } else if (auto flag = flags.find(key); flag != flags.end()) {
            if (text == "true" || text == "false")
                *flag->second = text == "true";
            else
                warnings.push_back(key + ": '" + text + "' is not true or false; kept");
        } else {
            warnings.push_back(key + ": not a layout key (ignored)");
        }
    }
    return warnings;
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
    PanelMetrics m = PanelMetrics::atScale(scale);
    const float helpMarker = style.ItemSpacing.x + ImGui::CalcTextSize("(?)").x;
    m.fieldLabelRoom =
        std::ceil(style.ItemInnerSpacing.x + ImGui::CalcTextSize(kReferenceFieldLabel).x + helpMarker + 1.0f);
    // The column's minimum: its window's padding and scroll bar (always there: a constant inner
    // width), and the widest labelled combo with a label beside it of at most 40 % of the width.
    const float frame = 2.0f * style.WindowPadding.x + style.ScrollbarSize;
    m.settingsMinWidth = std::max(m.settingsMinWidth, std::ceil(frame + widest(names.labelled) / 0.6f));
    m.settingsMaxWidth = std::max(m.settingsMaxWidth, m.settingsMinWidth);
    const float line = ImGui::GetTextLineHeightWithSpacing();
    // A strip section: its header (a panel header is taller than a frame), a line of numbers, a plot of
    // five lines and a line under it.
    m.stripMinHeight =
        std::max(m.stripMinHeight, std::ceil(2.0f * style.WindowPadding.y + ImGui::GetFrameHeightWithSpacing() +
                                             2.0f * style.FramePadding.y + 7.0f * line));
    m.stripMaxHeight = std::max(m.stripMaxHeight, m.stripMinHeight);
    return m;
}

}  // namespace ui
