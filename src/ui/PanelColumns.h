// PanelColumns.h: the ImGui side of the panel layout (ui/PanelLayout.h): one fixed window per region
// (the settings column and the strip's Histogram, Timings and Exposure sections: no title bar, no
// move, no resize: the layout places them every frame), the panels inside as sections under headers
// coloured like ImGui's title bars, and the splitter bars between the regions and the viewport. Dear
// ImGui 1.86 has no docking, so the regions are made here: a drag on a bar resizes its region, a click
// on the column's or the strip's arrow collapses it to the bar or opens it again.
// Inside the column, a labelled field is as wide as the column less its label's room (at most 40 % of
// the width: PanelMetrics::fieldLabelRoom); a combo that shows names may fill the row
// (ImGui::SetNextItemWidth(-FLT_MIN)), and beginNameCombo shows a long name on as many lines as it
// needs instead of cutting it short.
#pragma once

#include "scene/ScenePresets.h"
#include "ui/PanelLayout.h"

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace ui {

class PanelColumns
{
public:
    explicit PanelColumns(PanelNames names);

    /// Measures the metrics when the font size changed and lays the regions out for this frame in
    /// the ImGui display (call after ImGuiLayer::newFrame, before the frame renders: the viewport
    /// is where it goes). `scale` is the UI scale the font and style were made for. Starts this
    /// frame's record of combo placements (comboPlacements()).
    const PanelRects& arrange(float scale, bool panelsShown);
    const PanelRects& rects() const { return mRects; }
    const PanelMetrics& metrics() const { return mMetrics; }
    PanelLayoutState& state() { return mState; }
    const PanelLayoutState& state() const { return mState; }
    /// The viewport the panels leave in a window of `display` units, shown or not: hidden panels keep
    /// its aspect for the frame (ui/PanelLayout.h, "Framing"). Before the first arrange(), with the
    /// default lengths at `scale`.
    LayoutRect referenceViewport(glm::vec2 display, float scale) const;
    /// Whether the metrics were measured with the font of UI scale `scale` (by arrange()).
    bool measuredAt(float scale) const { return mMeasuredFontSize > 0.0f && mMetrics.scale == scale; }

    /// Begins the region's window; false when it is collapsed or hidden (draw nothing then). Call
    /// endRegion() after a true return. For the settings column, `fixedTop` draws lines that stay at
    /// its top (the status line): the sections then scroll in a child under them.
    bool beginRegion(PanelRegion region, const std::function<void()>& fixedTop = {});
    void endRegion();
    /// A collapsible section of the settings column (a panel header; its open state is the layout's,
    /// saved with it). `visible` adds a close button (false once clicked). Call endPanel() after a
    /// true return.
    bool beginSection(SettingsSection section, const char* title, bool* visible = nullptr);
    /// The splitter bars (after the regions): drag to resize, click the arrow to collapse or open.
    void drawSplitters();

private:
    void drawSplitter(PanelBar which, const LayoutRect& bar);

    PanelNames mNames;
    PanelLayoutState mState;
    PanelMetrics mMetrics;
    PanelRects mRects;
    float mMeasuredFontSize = 0.0f;
    glm::vec2 mDisplay{0.0f};
    std::optional<PanelBar> mDragging;  ///< the bar held by the mouse
    bool mDragMoved = false;            ///< the held bar moved: its release is no click
    float mDragOffset = 0.0f;           ///< the mouse's distance from the bar's start when it was grabbed
    bool mScrollChild = false;          ///< the region begun scrolls in a child (endRegion ends it)
};

class PipelinePanel;

/// Every name the panels' combos can show: the Pipeline panel's methods, scans and operators (as wide
/// as the column), and the scene presets, engine presets, view modes, split modes and lighting paths.
PanelNames collectPanelNames(const PipelinePanel& pipelinePanel, const std::vector<scene::ScenePreset>& presets);

/// The check behind "no name cut short": a combo that shows names calls this just before its
/// BeginCombo (after any SetNextItemWidth) with every name it can show; a name wider than the
/// combo (comboWidthFor) is remembered until takeNamesCutShort(). The app reports them after a
/// screenshot; the layout tests expect none. It also records where the combo is (comboPlacements()).
void checkNamesFit(std::span<const std::string> names);
void checkNamesFit(std::span<const char* const> names);
/// The names found cut short since the last call, sorted, each once.
std::vector<std::string> takeNamesCutShort();

/// A combo as wide as the next item (SetNextItemWidth) whose preview shows `preview` whole, wrapped
/// onto more lines where it is wider than the combo (ImGui 1.86's BeginCombo cuts it at the arrow), as
/// tall as the longest of `names` needs (what follows does not move with the choice);
/// its list is as wide as its longest name. Records the placement and checks nothing can be cut short
/// (the names wrap). Returns true while the list is open: draw the entries, then ImGui::EndCombo().
bool beginNameCombo(const char* id, const std::string& preview, std::span<const std::string> names);

/// Where a combo that shows names was drawn in the last arranged frame, screen units, for the
/// layout's "visible without scrolling" check: the combo's frame, the window's visible rectangle and
/// how far that window was scrolled.
struct ComboPlacement
{
    std::vector<std::string> names;
    LayoutRect frame;
    LayoutRect visible;
    float scrollY = 0.0f;

    /// The frame lies inside the visible rectangle with the window scrolled to its top.
    bool visibleWithoutScrolling() const;
};
const std::vector<ComboPlacement>& comboPlacements();
/// The placement of the combo that can show `name` (the first drawn), if one was drawn this frame.
const ComboPlacement* findComboShowing(const std::string& name);

/// "combos visible without scrolling: method, scan, operator", then "; combos not visible without
/// scrolling: ..." with where each is, or "(not drawn)": each entry is a combo's role and the name it
/// shows (found with findComboShowing; an empty name is skipped); then "; combo tops (y): method 142,
/// scan 201, operator 260", each frame's top with its window scrolled to the top (the layout tests
/// check a choice moves none of them).
std::string describeCombosInSight(const std::vector<std::pair<std::string, std::string>>& roleAndName);

/// Begins a panel in the current region: a header like a window's title bar, collapsible (open at
/// first) and the panel's ID scope (two panels' widgets may share labels). `visible` adds a close
/// button (false once clicked). Call endPanel() after a true return.
bool beginPanel(const char* title, bool* visible = nullptr);
/// A panel that is the whole region (a strip section): its header cannot collapse it.
bool beginFixedPanel(const char* title);
void endPanel();

}  // namespace ui
