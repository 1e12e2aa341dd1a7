// Panel.h: the interface through which the live app's layout composes its panels. A panel names
// itself (title), says where it goes (place: a region of ui/PanelLayout.h and, in the settings
// column, its section) and draws its widgets (draw) inside the frame the layout gives it: the
// header, the ID scope and the region's window are the layout's (ui/PanelSet.h), as Falcor's render
// graph frames each pass's renderUI. A panel reads the frame through PanelContext and changes what
// lies below ui/ (the pipeline, the profiler, the frame source) itself; what only the app owns (the
// split view, the captures, the scene switch) it asks of PanelHost, which acts at once, so a change
// shows in the same frame as before the panels were split out.
// The panels are listed once, in drawing order, in createPanels (ui/PanelSet.cpp).
#pragma once

#include "compare/CompareMethods.h"
#include "frames/FrameSource.h"
#include "frames/SceneFrameSource.h"
#include "frames/SequenceSource.h"
#include "frames/StillImageSource.h"
#include "platform/GlContext.h"
#include "post/ExposureHistory.h"
#include "post/PostPipeline.h"
#include "profiling/Profiler.h"
#include "scene/ScenePresets.h"
#include "ui/PanelLayout.h"
#include "ui/SplitPanel.h"
#include "ui/StatusLine.h"
#include "ui/TimingsPanel.h"

#include <optional>
#include <string>
#include <vector>

namespace gl {
class ShaderLibrary;
}

namespace ui {

/// What only the app can do for a panel; each call acts at once.
class PanelHost
{
public:
    virtual ~PanelHost() = default;
    /// The split view's pipeline B, or null while the split view is off.
    virtual post::PostPipeline* pipelineB() = 0;
    /// The Split view panel's changes, applied to the split view.
    virtual void applySplit(const SplitPanelActions& actions) = 0;
    /// The Timings panel's capture buttons and ring size.
    virtual void applyCapture(const TimingsPanelActions& actions) = 0;
    /// The scene combo's choice (an index into PanelContext::presets), loaded before the next frame.
    virtual void requestScenePreset(int index) = 0;
    /// The open row's path (ui/OpenFileRow.h), opened before the next frame as a dropped file is; the
    /// outcome goes to the status line. A host that opens no files ignores it.
    virtual void requestOpenFile(const std::string& /*path*/) {}
};

/// This frame, as the panels see it (the app fills it before drawing them: app/AppPanels.cpp).
struct PanelContext
{
    PanelHost& host;
    post::PostPipeline& pipeline;  ///< pipeline A
    profiling::Profiler& profiler;
    platform::GlContext& glContext;
    gl::ShaderLibrary& shaders;
    const post::GpuCaps& caps;
    bool isWindow = false;

    // The frame's source: one of scene, still, sequence is set, as `source` is.
    app::FrameSource& source;
    app::SceneFrameSource* scene = nullptr;
    app::StillImageSource* still = nullptr;
    app::SequenceSource* sequence = nullptr;
    post::ImageInput frame;  ///< what the pipeline reads (the compare runs on it)
    const std::vector<scene::ScenePreset>& presets;
    int currentPreset = -1;    ///< index into presets; -1: a scene file not listed
    std::string sourceStatus;  ///< the last dropped file's or scene switch's outcome
    glm::ivec2 canvas{0};      ///< the window's framebuffer, or headless --ui's screenshot
    double pathSeconds = 0.0;  ///< the camera path's time (headless)
    bool& vsync;               ///< the Frame panel's check box (a window applies it)

    // Measurements read back: the histogram (markers are added for the Histogram panel) and probes.
    std::optional<post::HistogramSnapshot>& snapshot;
    const std::optional<post::ProbeSnapshot>& probe;
    const std::vector<std::string>& probeNames;  ///< "mouse" (window), "1", ... in the probes' order
    post::ExposureHistory& exposurePlot;         ///< the Exposure panel's last seconds

    SplitPanelInput split;  ///< the split view as the Split view panel shows it
    CaptureMode captureMode = CaptureMode::Idle;
    const std::string& captureStatus;  ///< one line about the last or running capture
    StatusLineInfo status;             ///< the lines at the top of the settings column (ui/StatusLine.h)
    /// The Frame panel's "keep the picture while using the panels" (a window's; null: not offered).
    bool* keepPictureWhileInteracting = nullptr;
};

/// How a panel is framed in its region.
enum class PanelFrame {
    Section,   ///< a collapsible section of the settings column, its open state kept by the layout
    Fixed,     ///< a strip section's panel: a header that does not collapse
    Closable,  ///< collapsible with a close button (close() is called when it is clicked)
};

struct PanelPlace
{
    PanelRegion region = PanelRegion::Settings;
    PanelFrame frame = PanelFrame::Section;
    /// The section whose open state the layout keeps (frame Section only).
    SettingsSection section = SettingsSection::Count;
};

class Panel
{
public:
    virtual ~Panel() = default;
    /// The header's text, also the panel's ID scope ("Pipeline", "Timings").
    virtual const char* title() const = 0;
    virtual PanelPlace place() const = 0;
    /// Whether it is drawn this frame (Pipeline B only while the split view is on).
    virtual bool shown(const PanelContext&) const { return true; }
    /// Draws the panel's widgets in the frame the layout made (never a window of its own).
    virtual void draw(const PanelContext& context) = 0;
    /// A Closable panel's close button was clicked.
    virtual void close() {}
};

}  // namespace ui
