// TimingsPanel.h: the "Timings" panel: the passes that still run as a tree in the order they ran (child
// rows under their parent, labelled with their leaf name; a parent's arrow folds its children, and the
// scene's sub-passes start folded so the pipeline's passes stay in view), with the mean, min and max
// time of each over the profiler's rolling window (last and std dev behind a toggle, and in the name's
// tooltip), in ms or µs as the one-line header says (the unit changes with a margin: TimingRows.h
// tableUnit), and each row's time source (G GPU timer, C CUDA event, cpu CPU fallback); a pass that
// reused an earlier result says "cached", one still warming up shows its last time greyed. The header
// and rows come first (the strip shows them without scrolling: ui/InView.h records them); the title,
// the toggle and the legend follow, then a frame-time graph and the capture controls: "Capture N
// frames", "Record" / "Stop and write", and the size of the recording ring ("keep last N frames"),
// with what the ring holds and has dropped. It reads the Profiler and never times anything; what the
// table holds is profiling/TimingRows (no ImGui there).
#pragma once

#include "profiling/Profiler.h"
#include "profiling/TimingRows.h"

#include <cstddef>
#include <map>
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

    /// The narrowest content width (pixels at the current UI scale, window padding and a vertical
    /// scrollbar included) at which the pass table, its legend and the capture controls need no
    /// sideways scrolling, as of the last draw(); before the first draw, an estimate for the built-in
    /// passes at UI scale 1. The layout sizes the panel's pane with it.
    float minimumWidth() const { return mMinimumWidth; }

private:
    void drawPassTable(const profiling::Profiler& profiler);
    void drawRow(const profiling::TimingRow& row,
                 const profiling::TimingCells& cell,
                 bool hasChildren,
                 profiling::TimeUnit unit,
                 float tableLeft);
    /// Whether the row of pass `name` hides its children: as the user left it, else folded for the
    /// scene (its many sub-passes would push the pipeline's passes out of view).
    bool folded(const std::string& name) const;
    void drawCaptureControls(const profiling::Profiler& profiler, CaptureMode mode, TimingsPanelActions& actions);
    int mCaptureFrames = 120;
    bool mShowLastAndStd = false;
    profiling::TimeUnit mUnit = profiling::TimeUnit::Milliseconds;
    std::map<std::string, bool> mFolded;  ///< by pass name: the user's fold or unfold
    float mMinimumWidth = 400.0f;
};

}  // namespace ui
