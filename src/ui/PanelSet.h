// PanelSet.h: the live app's panels and their composition. createPanels lists every panel once, in
// drawing order (the one line a new panel adds); PanelSet owns them with the layout (ui/PanelColumns.h)
// and draws each frame: region by region (the settings column, under its status line and open row,
// then the strip's Histogram, Timings and Exposure sections), each panel of the region framed as its place() says (a
// column section, a strip header, a closable panel) around its draw(), then the splitter bars.
#pragma once

#include "post/PostPipeline.h"
#include "scene/ScenePresets.h"
#include "ui/LivePanels.h"
#include "ui/OpenFileRow.h"
#include "ui/Panel.h"
#include "ui/PanelColumns.h"

#include <memory>
#include <utility>
#include <vector>

namespace ui {

class PipelinePanel;

/// What the panels are made from.
struct PanelSetup
{
    const post::GpuCaps& caps;
    /// Pipeline A's panel, made first: its lists size the column (with the scene presets) and its
    /// settings file keeps the layout.
    std::unique_ptr<PipelinePanel> pipelineA;
    CompareSweep& compareSweep;  ///< the Pipeline panel adds to it, Compare all shows it
};

/// Every panel of the live app, in drawing order within each region.
std::vector<std::unique_ptr<Panel>> createPanels(PanelSetup setup);

class PanelSet
{
public:
    PanelSet(const post::GpuCaps& caps, const std::vector<scene::ScenePreset>& presets);
    ~PanelSet();
    PanelSet(const PanelSet&) = delete;
    PanelSet& operator=(const PanelSet&) = delete;

    /// Where the panels go and what they leave to the picture.
    PanelColumns& columns() { return *mColumns; }
    const PanelColumns& columns() const { return *mColumns; }
    /// Appends a panel after those createPanels lists (a test's own panel: the app's are createPanels'
    /// lines).
    void add(std::unique_ptr<Panel> panel) { mPanels.push_back(std::move(panel)); }
    /// Draws every shown panel in the regions arranged this frame, then the splitter bars.
    void draw(const PanelContext& context);
    /// The files opened this session (the app adds each that opened), listed by the open row.
    RecentFiles& recentFiles() { return mRecentFiles; }
    /// Ctrl+O: opens the settings column and gives the open row's field the keyboard next frame.
    void focusOpenRow();
    /// Whether the open row's field has the keyboard; an Enter press then opens its path (submitOpenRow).
    bool openRowHasKeyboard() const { return mOpenRow.fieldActive(); }
    void submitOpenRow() { mOpenRow.submitNextFrame(); }

private:
    void drawRegion(PanelRegion region, const PanelContext& context);

    CompareSweep mCompareSweep;
    RecentFiles mRecentFiles;
    OpenFileRow mOpenRow;
    std::unique_ptr<PanelColumns> mColumns;
    std::vector<std::unique_ptr<Panel>> mPanels;
};

}  // namespace ui
