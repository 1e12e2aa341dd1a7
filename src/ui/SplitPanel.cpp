#include "ui/SplitPanel.h"

#include "ui/PanelColumns.h"
#include "ui/Widgets.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <vector>

namespace ui {

SplitPanelActions drawSplitPanel(const SplitPanelInput& input)
{
    SplitPanelActions actions;
    const TextFitPanel scope("Split view");
    const post::SplitMode modes[] = {post::SplitMode::Off, post::SplitMode::SideBySide, post::SplitMode::Difference};
    static_assert(std::size(modes) == kSplitModeLabels.size());
    int current = int(std::find(std::begin(modes), std::end(modes), input.mode) - std::begin(modes));
    checkNamesFit(kSplitModeLabels);
    if (ImGui::Combo("mode", &current, kSplitModeLabels.data(), int(kSplitModeLabels.size())) &&
        modes[current] != input.mode)
        actions.mode = modes[current];
    checkItemFits("mode");
    helpMarker(
        "A second pipeline (B) on the same HDR frame, with its own settings (panel \"Pipeline B\"; B starts as a "
        "copy of A). Side by side: A left of the divider, B right (drag the divider on the image). Difference: "
        "|A-B| of the 8-bit display values times the gain. Each side is timed apart: B's passes are \"B/...\" in "
        "the Timings panel. The probe, the exposure plot and the Histogram window stay on A.");
    if (input.mode == post::SplitMode::Off)
        return actions;
    textWrapped(input.labelA + " | " + input.labelB);
    char value[32];
    float position = input.position;
    if (input.mode == post::SplitMode::SideBySide) {
        if (ImGui::SliderFloat("divider", &position, 0.0f, 1.0f, "%.3f"))
            actions.position = position;
        std::snprintf(value, sizeof value, "%.3f", double(position));
        checkFieldFits("divider", value);
    }
    float gain = input.gain;
    if (input.mode == post::SplitMode::Difference) {
        if (ImGui::SliderFloat("gain", &gain, 1.0f, post::kMaxSplitGain, "%.1f", ImGuiSliderFlags_Logarithmic))
            actions.gain = gain;
        std::snprintf(value, sizeof value, "%.1f", double(post::kMaxSplitGain));
        checkFieldFits("gain", value);
    }
    if (ImGui::Button("B = A"))
        actions.copyAToB = true;
    checkItemFits("B = A");
    showTooltipOnHover("Copies every setting of A to B.");

    ImGui::Separator();
    TextDisabledWrapped("histograms, A - B");
    if (!input.difference || !*input.difference) {
        TextDisabledWrapped("pending (read back a few frames late)");
    } else {
        const post::HistogramDifference& difference = **input.difference;
        textWrapped(post::describeHistogramDifference(difference));
        if (difference.comparable && !difference.diff.empty()) {
            std::vector<float> values(difference.diff.begin(), difference.diff.end());
            const float scale = std::max(1.0f, float(difference.maxAbs));
            ImGui::PlotHistogram("##a-minus-b", values.data(), int(values.size()), 0, nullptr, -scale, scale,
                                 ImVec2(ImGui::CalcItemWidth(), 4.0f * ImGui::GetFrameHeight()));
            helpMarker(
                "A's bin count minus B's, per bin, on one frame (both read back asynchronously; "
                "only snapshots of the same frame, bins and range are compared).");
        }
    }
    return actions;
}

void drawSplitLabels(const SplitPanelInput& input, float dividerX, float left, float right, float top)
{
    if (input.mode == post::SplitMode::Off)
        return;
    ImDrawList* draw = ImGui::GetForegroundDrawList();
    const ImU32 background = IM_COL32(0, 0, 0, 160);
    const ImU32 text = IM_COL32(255, 255, 255, 255);
    auto label = [&](float x, const std::string& s) {
        const ImVec2 size = ImGui::CalcTextSize(s.c_str());
        const ImVec2 at(std::clamp(x, left, std::max(left, right - size.x - 8.0f)), top + 4.0f);
        draw->AddRectFilled(at, ImVec2(at.x + size.x + 8.0f, at.y + size.y + 4.0f), background, 3.0f);
        draw->AddText(ImVec2(at.x + 4.0f, at.y + 2.0f), text, s.c_str());
    };
    if (input.mode == post::SplitMode::Difference) {
        char gain[32];
        std::snprintf(gain, sizeof gain, "%.1f", double(input.gain));
        label(left + 4.0f, "|" + input.labelA + "  -  " + input.labelB + "| x " + gain);
        return;
    }
    const std::string& a = input.labelA;
    label(dividerX - ImGui::CalcTextSize(a.c_str()).x - 16.0f, a);
    label(dividerX + 8.0f, input.labelB);
}

}  // namespace ui
