// TimingsPanel.h: the "Timings" panel: per pass mean/last/min/max/std dev of the GPU time over the
// profiler's rolling window and its time source, a frame-time graph, and the capture controls:
// "Capture N frames", "Record" / "Stop and write", and the size of the recording ring ("keep last N
// frames"), with what the ring holds and has dropped. It reads the Profiler and never times anything.
#pragma once

#include "profiling/Profiler.h"

#include <cstddef>
#include <string>

namespace ui {

struct TimingsPanelActions
{
    bool captureRequested = false;  ///< "Capture": record the next captureFrames frames, then write
    int captureFrames = 0;
    bool recordRequested = false;  ///< "Record": record until "Stop and write"
    bool stopRequested = false;    ///< "Stop and write"
    std::size_t ringFrames = 0;    ///< > 0: the "keep last N frames" value changed to this
};

/// What the recording is doing, as the app sees it.
enum class CaptureMode {
    Idle,
    CapturingFrames,        ///< "Capture N frames" runs
    RecordingUntilStopped,  ///< "Record" runs
    RecordingForOutputs     ///< --capture/--capture-csv record the whole run; the buttons wait
};

class TimingsPanel
{
public:
    /// Draws the panel into the current window. `captureStatus` is one line about the last or running
    /// capture (empty when none).
    TimingsPanelActions draw(const profiling::Profiler& profiler, const std::string& captureStatus, CaptureMode mode);

private:
    void drawCaptureControls(const profiling::Profiler& profiler, CaptureMode mode, TimingsPanelActions& actions);
    int mCaptureFrames = 120;
};

}  // namespace ui
