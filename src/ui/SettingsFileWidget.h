// SettingsFileWidget.h: the Pipeline panel's "Settings file" row: a path, Save and Load. Save writes
// every key's current value (post/SettingsFile.h, the file --settings reads); Load applies a file to
// the running pipeline. The outcome, or the one-line reason it failed, is shown under the buttons;
// nothing is thrown out of the frame.
#pragma once

#include "post/PostPipeline.h"
#include "profiling/Profiler.h"

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
    /// Save and Load without the buttons (the buttons call these); return false with status() saying why.
    bool save(post::PostPipeline& pipeline);
    bool load(post::PostPipeline& pipeline);
    const std::string& status() const { return mStatus; }

    static constexpr const char* kDefaultPath = "hdrlab-settings.json";

private:
    std::array<char, 1024> mPath{};
    std::string mStatus;
    bool mFailed = false;
};

}  // namespace ui
