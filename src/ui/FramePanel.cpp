#include "ui/FramePanel.h"

#include "ui/PanelColumns.h"
#include "ui/Widgets.h"

#include "util/Log.h"

#include <imgui.h>

#include <cstdio>

namespace ui {
namespace {

/// A time or a rate with three significant digits at most ("16.7", "851", "0.42"): fits a narrow column.
std::string formatMs(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.*f", value >= 100.0 ? 0 : value >= 10.0 ? 1 : 2, value);
    return text;
}

}  // namespace

FramePanelActions drawFramePanel(const FrameInfo& info, bool& vsync)
{
    FramePanelActions actions;
    const TextFitPanel scope("Frame");
    textWrapped(info.gl.renderer);
    helpMarker(("Vendor: " + info.gl.vendor + "\nGL: " + info.gl.version + "\nGLSL: " + info.gl.glslVersion).c_str());
    TextDisabledWrapped(info.gl.vendor + " | " + info.gl.platform);
    TextDisabledWrapped("GL " + info.gl.version);
    if (info.gl.isSoftwareRenderer())
        TextColouredWrapped(kWarningColor, "software renderer: GPU times are CPU fallbacks");
    ImGui::Separator();
    const double meanMs = info.frameTimeMs.mean;
    std::string size = util::format("frame {} x {}", info.resolution.x, info.resolution.y);
    if (info.canvas != info.resolution)
        size += util::format(" in a {} x {} {}", info.canvas.x, info.canvas.y, info.isWindow ? "window" : "image");
    textWrapped(size);
    if (info.frameTimeMs.count > 0)
        textWrapped(util::format("{} ms a frame ({} fps), min {}, max {}", formatMs(meanMs),
                                 formatMs(meanMs > 0 ? 1000.0 / meanMs : 0.0), formatMs(info.frameTimeMs.min),
                                 formatMs(info.frameTimeMs.max)));
    else
        TextDisabledWrapped("measuring the frame time...");
    if (info.isWindow) {
        actions.vsyncChanged = ImGui::Checkbox("vsync", &vsync);
        checkItemFits("vsync");
        helpMarker("Wait for the display's refresh. Off shows the real frame cost; on keeps the GPU cool.");
        if (info.keepPicture) {
            ImGui::Checkbox("keep picture while in panels", info.keepPicture);
            checkItemFits("keep picture while in panels");
            helpMarker(
                "While a panel is in use (a drag, an open list, the mouse moving over the panels, and half a "
                "second after), the window shows the last picture again instead of rendering a new frame, so "
                "the panels answer at once on a slow GPU (a software renderer takes a second a frame). Nothing "
                "is timed meanwhile; the next frame renders with the new settings.");
        }
    }
    if (info.presets && !info.presets->empty()) {
        // The combo names the scene (its path in the tooltip) in place of the "Scene:" line.
        const std::vector<scene::ScenePreset>& presets = *info.presets;
        const bool listed = info.currentPreset >= 0 && info.currentPreset < int(presets.size());
        const std::string preview = listed ? presets[std::size_t(info.currentPreset)].name : info.sceneName;
        std::vector<std::string> names;
        for (const scene::ScenePreset& preset : presets)
            names.push_back(preset.name);
        checkNamesFit(names);
        if (ImGui::BeginCombo("scene", preview.c_str())) {
            for (std::size_t i = 0; i < presets.size(); ++i) {
                const scene::ScenePreset& preset = presets[i];
                ImGui::BeginDisabled(!preset.valid);
                if (ImGui::Selectable(preset.name.c_str(), int(i) == info.currentPreset))
                    actions.presetRequested = int(i);
                ImGui::EndDisabled();
                if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled) && !preset.description.empty())
                    ImGui::SetTooltip("%s", preset.description.c_str());
            }
            ImGui::EndCombo();
        } else if (ImGui::IsItemHovered()) {
            ImGui::SetTooltip("%s", info.sceneName.c_str());
        }
        checkItemFits("scene");
        helpMarker(
            "The scene files in the data folder's scenes/ (docs/SCENE_FORMAT.md). Choosing one loads it "
            "between frames; a file that does not load leaves the current scene and says why.");
    } else if (!info.pictures.empty()) {
        const bool listed = info.chosenPicture >= 0 && info.chosenPicture < int(info.pictures.size());
        checkNamesFit(info.pictures);
        if (ImGui::BeginCombo("image", listed ? info.pictures[std::size_t(info.chosenPicture)].c_str() : "")) {
            for (std::size_t i = 0; i < info.pictures.size(); ++i)
                if (ImGui::Selectable(info.pictures[i].c_str(), int(i) == info.chosenPicture))
                    actions.pictureRequested = int(i);
            ImGui::EndCombo();
        }
        checkItemFits("image");
        helpMarker(
            "The images tev clients sent (CreateImage, OpenImage); a client's grab-focus or a new image "
            "switches to it.");
    } else {
        textUnformatted(info.sourceKind + ":");
        textElided(info.sceneName);
    }
    if (!info.description.empty()) {
        // Wrapped at words, three lines at most (ending in "..." at a word); the whole text on hover.
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
        textWrappedAtMost(info.description, 3);
        ImGui::PopStyleColor();
    }
    if (info.lighting) {
        int current = *info.lighting == scene::LightingPath::Forward ? 0 : 1;
        checkNamesFit(kLightingPathLabels);
        if (ImGui::Combo("lighting", &current, kLightingPathLabels.data(), int(kLightingPathLabels.size())))
            actions.lightingRequested = current == 0 ? scene::LightingPath::Forward : scene::LightingPath::Deferred;
        checkItemFits("lighting");
        helpMarker(
            "forward: each fragment is shaded as it is drawn. deferred: the rasteriser only writes a thin "
            "G-buffer and a compute pass shades every pixel, which suits GPUs with few graphics units "
            "(the H200's fragment shading runs on two TPCs). Same picture within one sRGB step; the "
            "Timings panel shows scene/opaque+sky or scene/gbuffer+lighting.");
    }
    if (info.frameFormat) {
        int current = int(*info.frameFormat);
        checkNamesFit(kFrameFormatLabels);
        if (ImGui::Combo("frame", &current, kFrameFormatLabels.data(), int(kFrameFormatLabels.size())))
            actions.frameFormatRequested = scene::FrameFormat(current);
        checkItemFits("frame");
        helpMarker(
            "How the scene frame is stored. rgba16f: half floats holding the scene times 2^k, k chosen from "
            "the frames read back so that the brightest part stays below 65504 (the sun and a dark interior "
            "fit where they can); every pass undoes 2^-k exactly, and pixels that clip are counted here. "
            "rgba32f: 32-bit floats as they are, twice the bytes. auto: RGBA32F while the scene's sun or an "
            "emitter exceeds half-float range, else RGBA16F without pre-exposure.");
        if (info.clipping)
            TextColouredWrapped(kWarningColor, info.frameStore);
        else
            textWrapped(info.frameStore);
    }
    if (info.canFit) {
        ImGui::SameLine();
        actions.fitRequested = ImGui::SmallButton("Fit");
        checkItemFits("Fit");
    }
    if (!info.cameraHint.empty())
        TextDisabledWrapped(info.cameraHint);
    if (!info.controlsHelp.empty())
        helpMarker(info.controlsHelp.c_str());
    if (!info.sourceStatus.empty())
        TextColouredWrapped(kWarningColor, info.sourceStatus);
    return actions;
}

}  // namespace ui
