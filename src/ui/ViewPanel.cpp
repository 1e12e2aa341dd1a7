#include "ui/ViewPanel.h"

#include "ui/PanelColumns.h"
#include "ui/Widgets.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ui {

namespace {

ImU32 toImColor(std::uint32_t rgb)
{
    return IM_COL32((rgb >> 16) & 0xFF, (rgb >> 8) & 0xFF, rgb & 0xFF, 255);
}

void drawLegend(float logMin, float logMax)
{
    const std::vector<post::FalseColourBand> bands = post::falseColourBands(logMin, logMax);
    if (bands.empty())
        return;
    const float width = std::max(ImGui::CalcItemWidth(), ImGui::GetFontSize() * 12.0f);
    const float height = ImGui::GetFrameHeight();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("##false-colour-legend", ImVec2(width, height));
    const bool hovered = ImGui::IsItemHovered();
    const float bandWidth = width / float(bands.size());
    for (std::size_t i = 0; i < bands.size(); ++i) {
        const float x0 = origin.x + bandWidth * float(i);
        draw->AddRectFilled(ImVec2(x0, origin.y), ImVec2(x0 + bandWidth, origin.y + height), toImColor(bands[i].rgb));
    }
    if (hovered) {
        const std::size_t band =
            std::min(bands.size() - 1, std::size_t(std::max(0.0f, (ImGui::GetIO().MousePos.x - origin.x) / bandWidth)));
        ImGui::BeginTooltip();
        ImGui::Text("band %zu: EV %d..%d", band, bands[band].evLow, bands[band].evHigh);
        ImGui::Text("L %.4g..%.4g cd/m^2", std::exp2(double(bands[band].evLow)), std::exp2(double(bands[band].evHigh)));
        ImGui::EndTooltip();
    }
    // Labels at the ends and the middle: EV, and cd/m^2 below.
    const std::size_t middle = bands.size() / 2;
    const float digit = ImGui::CalcTextSize("0").x;
    textDisabled("EV %d", bands.front().evLow);
    ImGui::SameLine(std::max(width * 0.5f - 1.5f * digit, 9.0f * digit));
    textDisabled("%d", bands[middle].evLow);
    ImGui::SameLine(std::max(width - 3.0f * digit, 14.0f * digit));
    textDisabled("%d", bands.back().evHigh);
    textDisabledWrappedFormat("L %.3g..%.3g cd/m^2, %d EV per band", std::exp2(double(bands.front().evLow)),
                              std::exp2(double(bands.back().evHigh)), bands.front().evHigh - bands.front().evLow);
    const struct
    {
        std::uint32_t rgb;
        const char* label;
    } specials[] = {{hd::kFalseColourInvalid, "NaN / Inf / negative"},
                    {hd::kFalseColourUnder, "zero / under range"},
                    {hd::kFalseColourOver, "over range"}};
    for (const auto& special : specials) {
        const ImVec2 at = ImGui::GetCursorScreenPos();
        const float side = ImGui::GetTextLineHeight();
        ImGui::GetWindowDrawList()->AddRectFilled(at, ImVec2(at.x + side, at.y + side), toImColor(special.rgb));
        ImGui::GetWindowDrawList()->AddRect(at, ImVec2(at.x + side, at.y + side), IM_COL32(128, 128, 128, 255));
        ImGui::Dummy(ImVec2(side, side));
        ImGui::SameLine();
        textUnformatted(special.label);
    }
}

void drawProbeReadout(const ViewPanelInput& input)
{
    if (!input.units.empty())
        textDisabledWrappedFormat("units: %s", input.units.c_str());
    if (input.probeNames.empty()) {
        TextDisabledWrapped("probe: hover the image (or --probe X,Y)");
        return;
    }
    if (!input.probe || !*input.probe) {
        TextDisabledWrapped("probe: pending (read back a few frames late)");
        return;
    }
    const post::ProbeSnapshot& probe = **input.probe;
    for (std::size_t i = 0; i < probe.samples.size() && i < input.probeNames.size(); ++i) {
        const post::ProbeSample& s = probe.samples[i];
        const glm::ivec2 at = s.topLeft();
        textWrappedFormat("probe %s at %d, %d", input.probeNames[i].c_str(), at.x, at.y);
        ImGui::Indent();
        if (!s.inside) {
            TextDisabledWrapped("outside the frame");
            ImGui::Unindent();
            continue;
        }
        textWrappedFormat("rgb %.4g %.4g %.4g", s.rgb.x, s.rgb.y, s.rgb.z);
        if (s.logValid)
            textWrappedFormat("L %.4g cd/m^2, EV %.2f (EV100 %.2f)", s.luminance, s.log2Luminance,
                              s.log2Luminance + hd::kEv100Offset);
        else
            textWrappedFormat("L %.4g cd/m^2, no EV", s.luminance);
        textWrapped(post::describeBin(s.bin, s.binCount));
        textWrappedFormat("display %.4f, shown sRGB %d %d %d", s.displayLuminance, int(s.shown[0]), int(s.shown[1]),
                          int(s.shown[2]));
        ImGui::Unindent();
    }
    textDisabled("frame %llu", static_cast<unsigned long long>(probe.frame));
}

}  // namespace

std::optional<post::ViewMode> drawViewPanel(const ViewPanelInput& input)
{
    std::optional<post::ViewMode> chosen;
    const TextFitPanel scope("View");
    int current = int(input.mode);
    checkNamesFit(kViewModeLabels);
    if (ImGui::Combo("view", &current, kViewModeLabels.data(), int(kViewModeLabels.size())))
        chosen = post::ViewMode(current);
    checkItemFits("view");
    helpMarker(
        "False colour: each pixel's luminance coloured by its whole-EV band over the histogram's range. EV = log2 "
        "of luminance in cd/m^2 (the histogram's axis); EV100 (ISO 100, K = 12.5) = EV + 3. The probe reads the "
        "pixel under the mouse: its values, its histogram bin and its value through the tone curve (yellow "
        "'probe' marker on the histogram). Metering weights: the percentile operator's metering mask on the "
        "picture, darker where a pixel counts less, blue where it does not count. Local gain: a local histogram "
        "operator's (clahe, ward-local) log2 of its tiled display value over its global curve's, mid-grey 0, "
        "white +2 EV, black -2 EV. Tile grid: the local operator's picture with its tile grid's edges in yellow. "
        "Local exposure (Unreal's bilateral, local_exposure.*): its base and blurred log2 L over the histogram's "
        "range, its detail (log2 L - base) and its exposure around mid-grey over +-4 EV.");
    if (input.mode == post::ViewMode::FalseColour && input.hdr10) {
        // HDR10: the bands are of the display light (BT.2020 luminance of the HDR10 output), fixed range.
        textDisabledWrappedFormat("HDR10 output: display luminance, cd/m^2");
        drawLegend(post::kHdrViewLogMin, post::kHdrViewLogMax);
    } else if (input.mode == post::ViewMode::FalseColour && input.histogram && *input.histogram) {
        drawLegend((*input.histogram)->logMin, (*input.histogram)->logMax);
    }
    drawProbeReadout(input);
    return chosen;
}

void addProbeMarkers(post::HistogramSnapshot& snapshot,
                     const post::ProbeSnapshot& probe,
                     const std::vector<std::string>& probeNames)
{
    for (std::size_t i = 0; i < probe.samples.size() && i < probeNames.size(); ++i)
        if (probe.samples[i].inside && probe.samples[i].logValid)
            snapshot.markers.emplace_back("probe " + probeNames[i], probe.samples[i].log2Luminance);
}

}  // namespace ui
