// PipelinePanel.h: the "Pipeline" panel. The host frames each stage the way Falcor's render-graph UI
// does: a combo over each stage's registry (methods that cannot run here are greyed out with the
// reason as tooltip) with a help marker with the method's description, the three combos first and one
// under the other (each as tall as its longest name, so choosing a method or operator moves none of
// them), then a collapsing header per stage with an ID scope and the method's own ui(). Any change goes through
// PostPipeline::applySettings and restarts the timing statistics. Also the histogram input settings (bins, range,
// out-of-range policy, downsampling), the pipeline's notice, the Verify / Compare all buttons (run by the host), and
// the settings file's Save / Load (ui/SettingsFileWidget.h).
#pragma once

#include "post/PostPipeline.h"
#include "profiling/Profiler.h"
#include "ui/SettingsFileWidget.h"
#include "verify/PipelineVerify.h"

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
    /// Lists every registered method once, with its availability under `caps`.
    explicit PipelinePanel(const post::GpuCaps& caps);

    /// Draws the panel into the current window (the host titles it: "Pipeline", "Pipeline B").
    PipelinePanelActions draw(post::PostPipeline& pipeline, profiling::Profiler& profiler);
    /// Every name the method, scan and operator combos can show (as wide as the column:
    /// ui/PanelLayout.h sizes the column for the longest).
    std::vector<std::string> comboNames() const;
    /// Shown under the Verify button until the next verification.
    void setVerifyReport(verify::VerifyReport report) { mVerify = std::move(report); }
    /// The "Settings file" row (Save / Load of every key).
    SettingsFileWidget& settingsFile() { return mSettingsFile; }

    struct Entry
    {
        std::string id;
        std::string label;
        std::string description;
        bool available = true;
        std::string reason;
        bool needsFusedProducer = false;  ///< a histogram method the frame's producer must bin for
    };

private:
    /// The histogram method, scan and tone operator combos, one under the other (each as tall as its
    /// longest name); true when one was changed in `wanted`.
    bool drawMethodCombos(post::PostPipeline& pipeline, post::PipelineSettings& wanted) const;

    std::vector<Entry> mHistogramMethods;
    std::vector<Entry> mScanMethods;
    std::vector<Entry> mToneOperators;
    std::optional<verify::VerifyReport> mVerify;
    SettingsFileWidget mSettingsFile;
};

}  // namespace ui
