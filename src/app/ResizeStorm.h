// ResizeStorm.h: --resize-storm STEPS (a robustness test of the window path, run by the test suite
// under Xvfb). One step per loop iteration drives the real GLFW window through a deterministic storm:
// extreme sizes (1x1, 4000x1, 1x4000), small and ordinary random sizes, iconify and restore, while
// switching the histogram method, scan, tone operator, bin count, downsampling and range mode. The
// sizes go through glfwSetWindowSize and glfwIconifyWindow/glfwRestoreWindow, so the app sees them
// exactly as user resizes: through the framebuffer size it polls every frame, which resizes the
// render targets and every method's scratch. The app fails the run on the first GL error (KHR_debug
// callback or glGetError) and names the step. After the storm the window returns to its start size
// and settings and renders kSettleFrames ordinary frames (for --window-screenshot).
//
// Limits: under Xvfb without a window manager nobody acts on an iconify request (X11 iconifies
// through the window manager), so the minimised path is exercised there only as "requested"; the
// rule that a zero-size or minimised framebuffer skips rendering is tested separately
// (windowCanRender). Methods that cannot run here are not switched to.
#pragma once

#include "post/PostPipeline.h"

#include <glm/vec2.hpp>

#include <cstddef>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

struct GLFWwindow;

namespace app {

/// What one storm step does before its frame. Unset optionals leave the current choice.
struct StormStep
{
    enum class Window { Keep, Iconify, Restore };
    glm::ivec2 windowSize{1, 1};
    Window window = Window::Keep;
    std::optional<std::string> histogramMethod;
    std::optional<std::string> scanMethod;
    std::optional<std::string> toneOperator;
    std::optional<unsigned> bins;
    std::optional<int> downsample;
    std::optional<bool> autoRange;
};

/// The ids the storm switches between (only those that can run here).
struct StormMethods
{
    std::vector<std::string> histogram;
    std::vector<std::string> scan;
    std::vector<std::string> tone;
};

/// The storm: `steps` steps (extreme sizes first, then seeded random ones), then one final step back
/// to `homeSize`, restored, with `home`'s methods and settings.
std::vector<StormStep> planResizeStorm(int steps,
                                       glm::ivec2 homeSize,
                                       const StormMethods& methods,
                                       const post::PipelineSettings& home);

/// The methods of each registry that are available with `caps`.
StormMethods availableStormMethods(const post::GpuCaps& caps);

class ResizeStorm
{
public:
    static constexpr int kSettleFrames = 3;  ///< ordinary frames at the start size after the storm

    ResizeStorm(int steps, glm::ivec2 homeSize, const post::GpuCaps& caps, const post::PipelineSettings& home);

    /// Frames the run needs: every step plus the settle frames.
    int frameCount() const { return int(mPlan.size()) - 1 + kSettleFrames; }

    /// Applies step `iteration` (nothing once the plan is done) to the window and the pipeline.
    /// Returns true when the pipeline settings changed (the caller resets the timing statistics).
    /// Throws std::runtime_error when the pipeline refuses a method the storm asked for.
    bool apply(std::size_t iteration, GLFWwindow* window, post::PostPipeline& pipeline);
    /// Counts a loop iteration that rendered nothing (minimised or zero-size framebuffer).
    void noteSkippedFrame() { ++mSkippedFrames; }
    /// Records the framebuffer size a frame was rendered at: the sizes the app really saw, which a
    /// window system may have clamped, unlike the requested ones.
    void noteRenderedFrame(glm::ivec2 framebufferSize);

    /// "step 12/400: window 4000x1, compute-replicated, compute-scan, ward, 256 bins, downsample 2"
    std::string describe(std::size_t iteration, const post::PipelineSettings& current) const;
    /// One line: steps, distinct requested and rendered sizes, iconify requests, switches, skipped frames.
    std::string summary() const;

private:
    std::vector<StormStep> mPlan;
    std::size_t mApplied = 0;
    int mIconifies = 0;
    int mSwitches = 0;
    int mSkippedFrames = 0;
    std::set<std::pair<int, int>> mRenderedSizes;
};

}  // namespace app
