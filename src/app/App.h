// App.h: the live/headless application. It owns the GL context, the frame source (the scene
// renderer, or a still image for `hdrlab view`: frames/FrameSource.h), the post pipeline, the profiler
// and the UI, and runs the frame loop:
//
//   poll -> profiler.beginFrame -> ImGui NewFrame -> "scene" -> pipeline.run (histogram/<id>,
//   scan/<id>, tonemap/<op>) -> present the display image -> panels -> "ui" (ImGui render) -> swap
//   -> profiler.endFrame
//
// In a window the free-fly controller drives the camera; headless runs follow the scene's
// deterministic camera path at t = frame / 60 s with a fixed dt, so captures are reproducible.
// An image is shown with pan and zoom in a window and is the whole headless frame; a sequence
// plays one frame per run frame headless, with dt = 1/fps.
#pragma once

#include "app/AppOptions.h"
#include "frames/FrameStoreStatus.h"

#include <functional>
#include <memory>
#include <optional>

namespace gl {
class ShaderLibrary;
struct GlInfo;
}  // namespace gl
namespace post {
struct GpuCaps;
class PostPipeline;
}  // namespace post
namespace profiling {
class Profiler;
}

namespace app {

class App
{
public:
    /// Creates the context and everything on it; throws std::runtime_error with a one-line reason.
    explicit App(const AppOptions& options);
    ~App();
    App(const App&) = delete;
    App& operator=(const App&) = delete;

    /// Runs until the window closes or the frame count is reached, then writes the requested files.
    /// Returns the exit code (1 when --verify finds a mismatch).
    int run();

    // Tools that measure the app's own frame (`hdrlab bench pipeline`) drive the same frame loop
    // from outside: headless only, no output files, no automatic recording.
    /// Renders `count` frames, continuing the camera path.
    void renderFrames(int count);
    /// Renders until the frame source has no next frame (a sequence played once) and returns how
    /// many; throws std::runtime_error with the reason when the source stopped at a bad frame.
    int renderToEnd();
    /// The next frame is the camera path's first (t = 0), so every configuration renders the same frames.
    void rewindCameraPath();
    /// Headless: resizes the scene targets (the pipeline follows on the next frame).
    void resizeFrame(glm::ivec2 size);
    /// Called after each rendered frame with its number (a sequence's frame number, else the frame
    /// count): a measurement tool's hook (`bench flicker`'s local exposure readback), empty by default.
    using FrameObserver = std::function<void(long long frameNumber)>;
    void setFrameObserver(FrameObserver observer);
    /// Waits for the GPU once (glFinish) and harvests the timings of every frame rendered so far.
    void waitForTimings();
    /// The flicker figure (post/ExposureHistory.h) of the frames rendered since the app started or the
    /// tone operator last changed, and how many of them have a key value; call after waitForTimings()
    /// so that every frame's key value has arrived. No figure for an operator without a key value.
    struct Flicker
    {
        std::optional<double> evPerSecond;  ///< within shots (post/ExposureHistory.h)
        std::size_t framesWithKeyValue = 0;
        std::size_t cuts = 0;              ///< cuts the tone operator found (percentile.cut_threshold_ev) or was given
        std::vector<long long> cutFrames;  ///< their frame numbers (a sequence's)
        std::optional<double> lastKeyEv;   ///< the key value of the newest frame that has one
    };
    Flicker flicker();
    post::PostPipeline& pipeline();
    profiling::Profiler& profiler();
    const post::GpuCaps& caps() const;
    const gl::ShaderLibrary& shaders() const;
    const gl::GlInfo& glInfo() const;
    /// The camera's vertical field of view (Ward's foveal grid depends on it).
    float cameraFovYDegrees() const;
    /// The internal format of the frame the pipeline reads (GL_RGBA16F for the default pre-exposed
    /// scene frame, GL_RGBA32F under --frame-format rgba32f or auto's choice, or for an image).
    unsigned frameFormat() const;
    /// A scene's frame storage so far (pre-exposure, clip counts: frames/SceneFrameSource.h); nothing
    /// for an image or a sequence.
    std::optional<FrameStoreStatus> frameStore();

private:
    struct Impl;
    std::unique_ptr<Impl> mImpl;
};

/// `hdrlab --list`: prints every method and whether it can run here (headless context). Returns 0.
int listMethods(const AppOptions& options);

}  // namespace app
