#include "ui/ExposurePanel.h"

#include "ui/Widgets.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace ui {

void ExposurePanel::draw(post::ExposureHistory& history, std::string_view operatorId, std::string_view keyValueName)
{
    ImGui::SetNextItemWidth(scaled(160.0f));
    if (ImGui::SliderFloat("last seconds", &mWindowSeconds, 1.0f, 60.0f, "%.0f s"))
        history.setWindowSeconds(mWindowSeconds);
    HelpMarker(
        "Flicker: the RMS over consecutive frames of the key value's change per second, (EV[i+1] - EV[i]) / dt, "
        "in EV/s. A steady drift of r EV/s reads r at any frame rate; a constant key value reads 0.");

    // ImGui 1.86's PlotLines takes a width <= 0 literally (no "fill the row" as other widgets): pass it.
    const float width = ImGui::GetContentRegionAvail().x;
    std::vector<float> keyEv;
    std::vector<float> frameMs;
    for (const post::ExposureHistory::Frame& frame : history.frames()) {
        frameMs.push_back(float(frame.frameMs));
        if (frame.keyEv)
            keyEv.push_back(*frame.keyEv);
    }
    if (keyValueName.empty()) {
        TextDisabledWrapped(std::string(operatorId) + " has no key value (no adaptive state)");
    } else {
        char overlay[160];
        if (const auto flicker = history.flickerEvPerSecond())
            std::snprintf(overlay, sizeof overlay, "%.*s %.*s: %+.2f EV, flicker %.3f EV/s", int(operatorId.size()),
                          operatorId.data(), int(keyValueName.size()), keyValueName.data(),
                          keyEv.empty() ? 0.0 : double(keyEv.back()), *flicker);
        else
            std::snprintf(overlay, sizeof overlay, "%.*s %.*s: waiting for key values", int(operatorId.size()),
                          operatorId.data(), int(keyValueName.size()), keyValueName.data());
        float low = 0.0f;
        float high = 1.0f;
        if (!keyEv.empty()) {
            const auto [lo, hi] = std::minmax_element(keyEv.begin(), keyEv.end());
            low = *lo - 0.5f;  // half an EV of margin: a flat line stays visible
            high = *hi + 0.5f;
        }
        // The line above the plot (a centred overlay would be cut short in a narrow column).
        ImGui::TextWrapped("%s", overlay);
        ImGui::PlotLines("##keyev", keyEv.data(), int(keyEv.size()), 0, nullptr, low, high,
                         ImVec2(width, 5.0f * ImGui::GetFrameHeight()));
    }
    float maxMs = 1.0f;
    for (float ms : frameMs)
        maxMs = std::max(maxMs, ms);
    ImGui::PlotLines("##framems", frameMs.data(), int(frameMs.size()), 0, "frame time (ms)", 0.0f, maxMs * 1.2f,
                     ImVec2(width, 3.0f * ImGui::GetFrameHeight()));
}

}  // namespace ui
