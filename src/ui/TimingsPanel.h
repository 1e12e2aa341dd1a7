// TimingsPanel.h: the "Timings" panel: per pass last/mean/min/max/std dev of the GPU time over the
// profiler's rolling window and its time source, a frame-time graph, and the "Capture N frames"
// button. It reads the Profiler and never times anything itself.
#pragma once

#include "profiling/Profiler.h"

#include <string>

namespace ui {

struct TimingsPanelActions
{
    bool captureRequested = false;
    int captureFrames = 0;
};

class TimingsPanel
{
public:
    /// `captureStatus` is one line about the last or running capture (empty when none).
    TimingsPanelActions draw(const profiling::Profiler& profiler, const std::string& captureStatus, bool capturing);

private:
    int mCaptureFrames = 120;
};

} // namespace ui
