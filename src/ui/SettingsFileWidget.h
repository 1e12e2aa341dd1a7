// SettingsFileWidget.h: the Pipeline panel's "Settings file" row: a path, Save and Load. Save writes
// every key's current value (post/SettingsFile.h, the file --settings reads) and, where the widget
// has the panel layout (setLayout), the layout's keys; Load applies a file to the running pipeline
// and the layout. The outcome, or the one-line reason it failed, is shown under the buttons;
// nothing is thrown out of the frame.
#pragma once

#include "post/PostPipeline.h"
#include "profiling/Profiler.h"
#include "ui/PanelLayout.h"

#include <array>
#include <string>

namespace ui {

class SettingsFileWidget
{
public:
    SettingsFileWidget();

    void draw(post::PostPipeline& pipeline, profiling::Profiler& profiler);

    /// The path shown (tests; the box starts at kDefaultPath).
    std::string path() const { return mPath.data(); }
    void setPath(const std::string& path);
    /// The panel layout saved and loaded with the pipeline's keys (nullptr: none, as for Pipeline B).
    void setLayout(PanelLayoutState* layout) { mLayout = layout; }
    /// Save and Load without the buttons (the buttons call these); return false with status() saying why.
    bool save(post::PostPipeline& pipeline);
    bool load(post::PostPipeline& pipeline);
    const std::string& status() const { return mStatus; }

    static constexpr const char* kDefaultPath = "hdrlab-settings.json";

private:
    std::array<char, 1024> mPath{};
    std::string mStatus;
    bool mFailed = false;
    PanelLayoutState* mLayout = nullptr;
};

}  // namespace ui
