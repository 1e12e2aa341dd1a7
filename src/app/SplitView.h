// SplitView.h: the split view: a second post pipeline (B) on the same HDR frame as the app's own (A),
// run right after A with the same dt and field of view, and the composite of the two display images
// (post/SplitCompose: side by side with a divider, or the amplified difference). B starts as a copy
// of A's settings (every key of post/PipelineParameters) and then takes its own (--settings-b,
// --set-b, the "Pipeline B" panel). B's passes are timed under the profiler prefix "B/"
// ("B/histogram/<id>", "B/tonemap/<op>/apply"...), so each side has its own timings; A keeps its
// names. The probe, the exposure history, --verify and the histogram window stay on A; B follows
// A's view mode (false colour too). The divider's window position maps to frame pixels through the
// frame source's placement (the same mapping as the probe's).
#pragma once

#include "app/AppOptions.h"
#include "frames/PanZoom.h"
#include "post/HistogramDifference.h"
#include "post/PostPipeline.h"
#include "post/SplitCompose.h"

#include <memory>
#include <optional>
#include <string>

namespace gl {
class SharedAllocator;
}

namespace app {

class SplitView
{
public:
    SplitView(gl::ShaderLibrary& shaders,
              profiling::Profiler& profiler,
              const post::GpuCaps& caps,
              gl::SharedAllocator* allocator);
    ~SplitView();

    /// Turns the split on or off; the first time on, B is created as a copy of A's settings.
    void setMode(post::SplitMode mode, post::PostPipeline& a);
    post::SplitMode mode() const { return mMode; }
    bool active() const { return mMode != post::SplitMode::Off; }
    /// The divider, 0 (left edge) .. 1 (right edge) of the frame.
    void setPosition(float position);
    float position() const { return mPosition; }
    /// The difference view's gain, 0..post::kMaxSplitGain.
    void setGain(float gain);
    float gain() const { return mGain; }
    /// Headless: B's false-colour view draws its legend strip into the image, as A's does.
    void setLegendStrip(bool legendStrip) { mLegendStrip = legendStrip; }

    /// Pipeline B; null until the split was first turned on.
    post::PostPipeline* pipelineB() { return mPipelineB.get(); }
    /// Makes B's settings a copy of A's (every key); creates B when needed.
    void copySettingsFrom(post::PostPipeline& a);

    /// Runs B on `hdr` under the profiler prefix "B/" and composes A's display image with B's
    /// (scope "view/split"); returns the composite. Only while active(). `sceneDepth` is what A got
    /// (PostPipeline::setSceneDepth: sky exclusion), null for an image.
    const gl::Texture& run(post::PostPipeline& a,
                           const gl::Texture& displayA,
                           const post::ImageInput& hdr,
                           double dtSeconds,
                           float fovYDegrees,
                           const gl::Texture* sceneDepth);
    /// The composite of the last run (GL_RGBA8, sRGB-encoded).
    const gl::Texture& outputTexture() const { return mOutput; }

    /// A's and B's histograms of one frame, updated by run(); it keeps the last result of one frame
    /// while the two asynchronous readbacks are a frame apart.
    const std::optional<post::HistogramDifference>& histogramDifference() const { return mDifference; }

    /// "A: ward" / "B: equalize" (the operator; the histogram method where only it differs).
    std::string sideLabel(post::PostPipeline& a, bool sideB) const;

private:
    void updateHistogramDifference(post::PostPipeline& a);

    gl::ShaderLibrary& mShaders;
    profiling::Profiler& mProfiler;
    const post::GpuCaps& mCaps;
    gl::SharedAllocator* mAllocator = nullptr;
    std::unique_ptr<post::PostPipeline> mPipelineB;
    post::SplitCompose mCompose;
    gl::Texture mOutput;
    post::SplitMode mMode = post::SplitMode::Off;
    float mPosition = post::kDefaultSplitPosition;
    float mGain = post::kDefaultSplitGain;
    bool mLegendStrip = false;
    std::optional<post::HistogramDifference> mDifference;
};

/// Applies the command line's B settings to `b`: --settings-b FILE, then each --set-b in order.
/// Throws std::runtime_error with one line naming the file or flag and the key.
void applyRequestedSettingsB(post::PostPipeline& b, const AppOptions& options);

/// The divider's x in window pixels for `position`, through the placement of the frame
/// (`rects.source` frame pixels shown at `rects.destination`).
double dividerWindowX(float position, const BlitRects& rects, int frameWidth);
/// The divider position (0..1 of the frame) under window x `windowX`; nullopt when nothing is shown.
std::optional<float> dividerPositionAt(double windowX, const BlitRects& rects, int frameWidth);

}  // namespace app
