#include "ui/PanelSet.h"

#include "ui/PipelinePanel.h"

#include <functional>
#include <optional>
#include <string>
#include <utility>

namespace ui {

std::vector<std::unique_ptr<Panel>> createPanels(PanelSetup setup)
{
    auto pipelineB = std::make_unique<PipelinePanel>(setup.caps);
    pipelineB->settingsFile().setPath("hdrlab-settings-b.json");  // Save on B must not overwrite A's file
    CompareSweep& sweep = setup.compareSweep;
    std::vector<std::unique_ptr<Panel>> panels;
    panels.push_back(std::make_unique<PipelineSection>(std::move(setup.pipelineA), PipelineSection::Side::A, sweep));
    panels.push_back(std::make_unique<FrameSection>());
    panels.push_back(std::make_unique<ViewSection>());
    panels.push_back(std::make_unique<SplitSection>());
    panels.push_back(std::make_unique<PipelineSection>(std::move(pipelineB), PipelineSection::Side::B, sweep));
    panels.push_back(std::make_unique<HistogramSection>());
    panels.push_back(std::make_unique<TimingsSection>());
    panels.push_back(std::make_unique<ExposureSection>());
    panels.push_back(std::make_unique<CompareSection>(sweep));
    return panels;
}

PanelSet::PanelSet(const post::GpuCaps& caps, const std::vector<scene::ScenePreset>& presets)
{
    auto pipelineA = std::make_unique<PipelinePanel>(caps);
    mColumns = std::make_unique<PanelColumns>(collectPanelNames(*pipelineA, presets));
    pipelineA->settingsFile().setLayout(&mColumns->state());  // Save and Load keep the layout too
    mPanels = createPanels({caps, std::move(pipelineA), mCompareSweep});
}

PanelSet::~PanelSet() = default;

void PanelSet::focusOpenRow()
{
    mColumns->state().settingsOpen = true;
    mOpenRow.focusNextFrame();
}

void PanelSet::draw(const PanelContext& context)
{
    for (PanelRegion region :
         {PanelRegion::Settings, PanelRegion::Histogram, PanelRegion::Timings, PanelRegion::Exposure})
        drawRegion(region, context);
    mColumns->drawSplitters();
}

void PanelSet::drawRegion(PanelRegion region, const PanelContext& context)
{
    // The settings column's top lines stay in view: the status line (ui/StatusLine.h) and the open
    // row (ui/OpenFileRow.h).
    const std::function<void()> status = [this, &context] {
        drawStatusLine(context.status);
        if (std::optional<std::string> path = mOpenRow.draw(mRecentFiles))
            context.host.requestOpenFile(*path);
    };
    if (!mColumns->beginRegion(region, region == PanelRegion::Settings ? status : std::function<void()>()))
        return;
    for (const std::unique_ptr<Panel>& panel : mPanels) {
        const PanelPlace place = panel->place();
        if (place.region != region || !panel->shown(context))
            continue;
        switch (place.frame) {
            case PanelFrame::Section:
                if (mColumns->beginSection(place.section, panel->title())) {
                    panel->draw(context);
                    endPanel();
                }
                break;
            case PanelFrame::Fixed:
                if (beginFixedPanel(panel->title())) {
                    panel->draw(context);
                    endPanel();
                }
                break;
            case PanelFrame::Closable: {
                bool open = true;
                if (beginPanel(panel->title(), &open)) {
                    panel->draw(context);
                    endPanel();
                }
                if (!open)
                    panel->close();
                break;
            }
        }
    }
    mColumns->endRegion();
}

}  // namespace ui
