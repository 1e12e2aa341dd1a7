// LivePanels.h: the live app's panels as ui::Panel (ui/Panel.h), in the layout's order: Pipeline,
// Frame, View, Split view and Pipeline B in the settings column; Histogram, Timings, Exposure and
// Compare all in the strip. Each adapts a drawing file pair (ui/PipelinePanel.h, ui/FramePanel.h,
// ui/ViewPanel.h, ui/SplitPanel.h, ui/HistogramView.h, ui/TimingsPanel.h, ui/ExposurePanel.h,
// ui/CompareView.h) to the interface: it reads the frame from the context and applies what was
// asked, to the objects below ui/ itself and to the app's through PanelHost. A new panel needs no
// adapter: it implements ui::Panel in its own file pair.
#pragma once

#include "compare/CompareMethods.h"
#include "ui/ExposurePanel.h"
#include "ui/HistogramView.h"
#include "ui/Panel.h"
#include "ui/PipelinePanel.h"
#include "ui/TimingsPanel.h"

#include <memory>
#include <vector>

namespace ui {

/// "compare all" results, one per bin count, latest last: the Pipeline panel adds, Compare all shows.
using CompareSweep = std::vector<app::CompareReport>;

/// "Pipeline" (A) and "Pipeline B" (the split view's second pipeline, shown while it is on).
class PipelineSection final : public Panel
{
public:
    enum class Side { A, B };
    /// `sweep`: where Compare all's results go (side A only).
    PipelineSection(std::unique_ptr<PipelinePanel> panel, Side side, CompareSweep& sweep);
    const char* title() const override { return mSide == Side::A ? "Pipeline" : "Pipeline B"; }
    PanelPlace place() const override;
    bool shown(const PanelContext& context) const override;
    void draw(const PanelContext& context) override;

private:
    std::unique_ptr<PipelinePanel> mPanel;
    Side mSide;
    CompareSweep& mSweep;
};

class FrameSection final : public Panel
{
public:
    const char* title() const override { return "Frame"; }
    PanelPlace place() const override { return {PanelRegion::Settings, PanelFrame::Section, SettingsSection::Frame}; }
    void draw(const PanelContext& context) override;
};

class ViewSection final : public Panel
{
public:
    const char* title() const override { return "View"; }
    PanelPlace place() const override { return {PanelRegion::Settings, PanelFrame::Section, SettingsSection::View}; }
    void draw(const PanelContext& context) override;
};

class SplitSection final : public Panel
{
public:
    const char* title() const override { return "Split view"; }
    PanelPlace place() const override { return {PanelRegion::Settings, PanelFrame::Section, SettingsSection::Split}; }
    void draw(const PanelContext& context) override;
};

class HistogramSection final : public Panel
{
public:
    const char* title() const override { return "Histogram"; }
    PanelPlace place() const override { return {PanelRegion::Histogram, PanelFrame::Fixed}; }
    void draw(const PanelContext& context) override;

private:
    HistogramView mView;
};

class TimingsSection final : public Panel
{
public:
    const char* title() const override { return "Timings"; }
    PanelPlace place() const override { return {PanelRegion::Timings, PanelFrame::Fixed}; }
    void draw(const PanelContext& context) override;

private:
    TimingsPanel mPanel;
};

class ExposureSection final : public Panel
{
public:
    const char* title() const override { return "Exposure"; }
    PanelPlace place() const override { return {PanelRegion::Exposure, PanelFrame::Fixed}; }
    void draw(const PanelContext& context) override;

private:
    ExposurePanel mPanel;
};

/// "Compare all": the Pipeline panel's comparison results, until closed.
class CompareSection final : public Panel
{
public:
    explicit CompareSection(CompareSweep& sweep) : mSweep(sweep) {}
    const char* title() const override { return "Compare all"; }
    PanelPlace place() const override { return {PanelRegion::Exposure, PanelFrame::Closable}; }
    bool shown(const PanelContext&) const override { return !mSweep.empty(); }
    void draw(const PanelContext& context) override;
    void close() override { mSweep.clear(); }

private:
    CompareSweep& mSweep;
};

}  // namespace ui
