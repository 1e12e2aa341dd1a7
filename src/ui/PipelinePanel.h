// PipelinePanel.h: the "Pipeline" panel. The host frames each stage the way Falcor's render-graph UI
// does: a collapsing header, a combo over the stage's registry (methods that cannot run here are
// greyed out with the reason as tooltip), a HelpMarker with the method's description, an ID scope,
// then the method's own ui(). Any change goes through PostPipeline::applySettings and restarts the
// timing statistics. Also the histogram input settings (bins, range, out-of-range policy,
// downsampling), the pipeline's notice, the Verify / Compare all buttons (run by the host), and the
// settings file's Save / Load (ui/SettingsFileWidget.h).
#pragma once

#include "post/PostPipeline.h"
#include "profiling/Profiler.h"
#include "ui/SettingsFileWidget.h"

#include <optional>
#include <string>
#include <vector>

namespace ui {

struct PipelinePanelActions
{
    bool verifyRequested = false;
    bool compareRequested = false;
};

class PipelinePanel
{
public:
    /// Where a panel first opens: its top-left corner, the room it leaves below it, and whether it
    /// starts collapsed (the split view's "Pipeline B" starts as a title bar over the image).
    struct Placement
    {
        float x = 8.0f;
        float y = 190.0f;  ///< below the Frame panel
        float roomBelow = -12.0f;
        bool collapsed = false;
    };
    /// Lists every registered method once, with its availability under `caps`. `title` names the
    /// window ("Pipeline B": the split view's second pipeline).
    PipelinePanel(const post::GpuCaps& caps, std::string title, Placement placement);
    /// The app's own "Pipeline" panel, below the Frame panel.
    explicit PipelinePanel(const post::GpuCaps& caps);

    PipelinePanelActions draw(post::PostPipeline& pipeline, profiling::Profiler& profiler);
    /// Shown under the Verify button until the next verification.
    void setVerifyReport(post::VerifyReport report) { mVerify = std::move(report); }
    /// The "Settings file" row (Save / Load of every key).
    SettingsFileWidget& settingsFile() { return mSettingsFile; }

    struct Entry
    {
        std::string id;
        std::string label;
        std::string description;
        bool available = true;
        std::string reason;
    };

private:
    std::string mTitle;
    Placement mPlacement;
    std::vector<Entry> mHistogramMethods;
    std::vector<Entry> mScanMethods;
    std::vector<Entry> mToneOperators;
    std::optional<post::VerifyReport> mVerify;
    SettingsFileWidget mSettingsFile;
};

}  // namespace ui
