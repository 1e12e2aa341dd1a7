#include "ui/FramePanel.h"

#include "ui/Widgets.h"

#include <imgui.h>

namespace ui {

FramePanelActions drawFramePanel(const FrameInfo& info, bool& vsync)
{
    FramePanelActions actions;
    ImGui::SetNextWindowPos(ImVec2(8, 8), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(340, 0), ImGuiCond_FirstUseEver);
    if (!ImGui::Begin("Frame")) {
        ImGui::End();
        return actions;
    }
    ImGui::TextWrapped("%s", info.gl.renderer.c_str());
    HelpMarker(("Vendor: " + info.gl.vendor + "\nGL: " + info.gl.version + "\nGLSL: " + info.gl.glslVersion).c_str());
    ImGui::TextDisabled("%s | %s", info.gl.vendor.c_str(), info.gl.platform.c_str());
    ImGui::TextDisabled("GL %s", info.gl.version.c_str());
    if (info.gl.isSoftwareRenderer())
        ImGui::TextColored(kWarningColor, "software renderer: GPU times are CPU fallbacks");
    ImGui::Separator();
    double meanMs = info.frameTimeMs.mean;
    ImGui::Text("%d x %d", info.resolution.x, info.resolution.y);
    ImGui::SameLine();
    if (info.frameTimeMs.count > 0)
        ImGui::Text("| %.1f fps | %.2f ms (min %.2f, max %.2f)", meanMs > 0 ? 1000.0 / meanMs : 0.0, meanMs,
                    info.frameTimeMs.min, info.frameTimeMs.max);
    else
        ImGui::TextDisabled("| measuring...");
    if (info.isWindow) {
        actions.vsyncChanged = ImGui::Checkbox("vsync", &vsync);
        HelpMarker("Wait for the display's refresh. Off shows the real frame cost; on keeps the GPU cool.");
    }
    ImGui::Text("%s: %s", info.sourceKind.c_str(), info.sceneName.c_str());
    if (info.canFit) {
        ImGui::SameLine();
        actions.fitRequested = ImGui::SmallButton("Fit");
    }
    if (!info.cameraHint.empty())
        ImGui::TextDisabled("%s", info.cameraHint.c_str());
    if (!info.controlsHelp.empty())
        HelpMarker(info.controlsHelp.c_str());
    if (!info.sourceStatus.empty())
        ImGui::TextColored(kWarningColor, "%s", info.sourceStatus.c_str());
    ImGui::End();
    return actions;
}

}  // namespace ui
