#include "ui/FramePanel.h"

#include "ui/PanelColumns.h"
#include "ui/Widgets.h"

#include <imgui.h>

namespace ui {

FramePanelActions drawFramePanel(const FrameInfo& info, bool& vsync)
{
    FramePanelActions actions;
    ImGui::TextWrapped("%s", info.gl.renderer.c_str());
    HelpMarker(("Vendor: " + info.gl.vendor + "\nGL: " + info.gl.version + "\nGLSL: " + info.gl.glslVersion).c_str());
    ImGui::TextDisabled("%s | %s", info.gl.vendor.c_str(), info.gl.platform.c_str());
    ImGui::TextDisabled("GL %s", info.gl.version.c_str());
    if (info.gl.isSoftwareRenderer())
        ImGui::TextColored(kWarningColor, "software renderer: GPU times are CPU fallbacks");
    ImGui::Separator();
    double meanMs = info.frameTimeMs.mean;
    ImGui::Text("frame %d x %d", info.resolution.x, info.resolution.y);
    if (info.canvas != info.resolution) {
        ImGui::SameLine();
        ImGui::TextDisabled("in a %d x %d %s", info.canvas.x, info.canvas.y, info.isWindow ? "window" : "image");
    }
    if (info.frameTimeMs.count > 0)
        ImGui::Text("%.1f fps | %.2f ms (min %.2f, max %.2f)", meanMs > 0 ? 1000.0 / meanMs : 0.0, meanMs,
                    info.frameTimeMs.min, info.frameTimeMs.max);
    else
        ImGui::TextDisabled("measuring the frame time...");
    if (info.isWindow) {
        actions.vsyncChanged = ImGui::Checkbox("vsync", &vsync);
        HelpMarker("Wait for the display's refresh. Off shows the real frame cost; on keeps the GPU cool.");
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
        HelpMarker(
            "The scene files in the data folder's scenes/ (docs/SCENE_FORMAT.md). Choosing one loads it "
            "between frames; a file that does not load leaves the current scene and says why.");
    } else {
        ImGui::Text("%s: %s", info.sourceKind.c_str(), info.sceneName.c_str());
    }
    if (!info.description.empty()) {
        // One line, clipped at the panel's edge; the whole text on hover.
        ImGui::TextUnformatted(info.description.c_str());
        if (ImGui::IsItemHovered()) {
            ImGui::BeginTooltip();
            ImGui::PushTextWrapPos(ImGui::GetFontSize() * 35.0f);
            ImGui::TextUnformatted(info.description.c_str());
            ImGui::PopTextWrapPos();
            ImGui::EndTooltip();
        }
    }
    if (info.lighting) {
        int current = *info.lighting == scene::LightingPath::Forward ? 0 : 1;
        checkNamesFit(kLightingPathLabels);
        if (ImGui::Combo("lighting", &current, kLightingPathLabels.data(), int(kLightingPathLabels.size())))
            actions.lightingRequested = current == 0 ? scene::LightingPath::Forward : scene::LightingPath::Deferred;
        HelpMarker(
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
        HelpMarker(
            "How the scene frame is stored. rgba16f: half floats holding the scene times 2^k, k chosen from "
            "the frames read back so that the brightest part stays below 65504 (the sun and a dark interior "
            "fit where they can); every pass undoes 2^-k exactly, and pixels that clip are counted here. "
            "rgba32f: 32-bit floats as they are, twice the bytes. auto: RGBA32F while the scene's sun or an "
            "emitter exceeds half-float range, else RGBA16F without pre-exposure.");
        if (info.clipping)
            ImGui::PushStyleColor(ImGuiCol_Text, kWarningColor);
        ImGui::TextWrapped("%s", info.frameStore.c_str());
        if (info.clipping)
            ImGui::PopStyleColor();
    }
    if (info.canFit) {
        ImGui::SameLine();
        actions.fitRequested = ImGui::SmallButton("Fit");
    }
    if (!info.cameraHint.empty())
        TextDisabledWrapped(info.cameraHint);
    if (!info.controlsHelp.empty())
        HelpMarker(info.controlsHelp.c_str());
    if (!info.sourceStatus.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, kWarningColor);
        ImGui::TextWrapped("%s", info.sourceStatus.c_str());
        ImGui::PopStyleColor();
    }
    return actions;
}

}  // namespace ui
