// PanelColumns.h: the ImGui side of the panel layout (ui/PanelLayout.h): one fixed window per region
// (no title bar, no move, no resize: the layout places it every frame), the panels inside it as
// sections under headers coloured like ImGui's title bars, and the splitter bars between the regions
// and the viewport. Dear ImGui 1.86 has no docking, so the columns are made here: a drag on a bar
// resizes its region, a click on the bar's arrow collapses the region to the bar or opens it again.
// Inside a region, fields are as wide as the column less PanelMetrics::fieldLabelRoom (their label
// goes at their right); a combo that shows names may fill the row (ImGui::SetNextItemWidth(-FLT_MIN)).
#pragma once

#include "scene/ScenePresets.h"
#include "ui/PanelLayout.h"

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace ui {

class PanelColumns
{
public:
    explicit PanelColumns(PanelNames names);

    /// Measures the metrics when the font size changed and lays the regions out for this frame in
    /// the ImGui display (call after ImGuiLayer::newFrame, before the frame renders: the viewport
    /// is where it goes). `scale` is the UI scale the font and style were made for.
    const PanelRects& arrange(float scale, bool panelsShown);
    const PanelRects& rects() const { return mRects; }
    const PanelMetrics& metrics() const { return mMetrics; }
    PanelLayoutState& state() { return mState; }

    /// Begins the region's window; false when it is collapsed or hidden (draw nothing then). Call
    /// endRegion() after a true return.
    bool beginRegion(PanelRegion region);
    void endRegion();
    /// The splitter bars (after the regions): drag to resize, click the arrow to collapse or open.
    void drawSplitters();

private:
    void drawSplitter(PanelRegion region, const LayoutRect& bar);

    PanelNames mNames;
    PanelLayoutState mState;
    PanelMetrics mMetrics;
    PanelRects mRects;
    float mMeasuredFontSize = 0.0f;
    glm::vec2 mDisplay{0.0f};
    std::optional<PanelRegion> mDragging;  ///< the bar held by the mouse
    bool mDragMoved = false;               ///< the held bar moved: its release is no click
};

class PipelinePanel;

/// Every name the panels' combos can show: the Pipeline panel's methods, scans and operators (as wide
/// as the column), and the scene presets, engine presets, view modes, split modes and lighting paths.
PanelNames collectPanelNames(const PipelinePanel& pipelinePanel, const std::vector<scene::ScenePreset>& presets);

/// The check behind "no name cut short": a combo that shows names calls this just before its
/// BeginCombo (after any SetNextItemWidth) with every name it can show; a name wider than the
/// combo (comboWidthFor) is remembered until takeNamesCutShort(). The app reports them after a
/// screenshot; the layout tests expect none.
void checkNamesFit(std::span<const std::string> names);
void checkNamesFit(std::span<const char* const> names);
/// The names found cut short since the last call, sorted, each once.
std::vector<std::string> takeNamesCutShort();

/// Begins a panel in the current region: a header like a window's title bar, collapsible (open at
/// first) and the panel's ID scope (two panels' widgets may share labels). `visible` adds a close
/// button (false once clicked). Call endPanel() after a true return.
bool beginPanel(const char* title, bool* visible = nullptr);
/// A panel that is the whole region (the bottom strip's Histogram): its header cannot collapse it.
bool beginFixedPanel(const char* title);
void endPanel();

}  // namespace ui
