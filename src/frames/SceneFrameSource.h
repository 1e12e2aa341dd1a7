// SceneFrameSource.h: the default live mode's frame source: the scene renderer (RGBA16F/32F, at the
// viewport's size), driven by the free-fly controller in a window and by the scene's deterministic
// camera path headless. Its render pass is timed as "scene" (with the renderer's sub-passes); a
// stress preset's injected NaN/Inf/negative texels are written after it (scene/PixelInjection.h).
// replaceWith switches scenes live (the Frame panel's scene combo) between frames.
// The frame format (--frame-format, the Frame panel's combo: scene/PreExposure.h) and, for the
// pre-exposed half-float frame, the choice of k: each frame's statistics (clipped pixels, peak) come
// back through an asynchronous readback a few frames late and drive scene::PreExposureControl; the
// clip counts are kept for the Frame panel, the headless summary and capture metadata.
//
// The fused histogram's seam (post's "fused-lighting" method): setFusedHistogram hands the pipeline's
// target (post::FusedHistogramTarget) to the deferred lighting pass as scene::FusedHistogramOutputs for
// the next render; that pass then also writes the preset's injected texels, so the histogram sees them.
#pragma once

#include "frames/FrameSource.h"
#include "frames/FrameStoreStatus.h"
#include "post/AsyncReadback.h"
#include "scene/Camera.h"
#include "scene/FreeFlyController.h"
#include "scene/PreExposure.h"
#include "scene/Scene.h"
#include "scene/SceneRenderer.h"

#include <filesystem>
#include <memory>
#include <string>

namespace gl {
class ShaderLibrary;
class SharedAllocator;
}  // namespace gl

namespace app {

/// The seam between post's fused histogram target and the scene's deferred lighting pass: the same
/// buffers, the texels the pass must inject, and the target's `produced` flag as the pass's `written`.
scene::FusedHistogramOutputs fusedHistogramOutputs(post::FusedHistogramTarget& target,
                                                   const scene::PixelInjection& inject);

class SceneFrameSource final : public FrameSource
{
public:
    /// `allocator` (nullable) creates the colour target in memory CUDA shares (post/CudaInterop.h).
    SceneFrameSource(gl::ShaderLibrary& shaders,
                     scene::Scene scene,
                     gl::SharedAllocator* allocator,
                     glm::ivec2 size,
                     scene::FrameFormat format = scene::kDefaultFrameFormat);

    struct ReplaceResult
    {
        bool replaced = false;
        std::string message;  ///< one line: the scene now shown, or why the file was refused
    };
    /// Loads the scene file `path` and builds its renderer at the current size in place of the
    /// current scene; on any failure the current scene stays and the message says why (naming the
    /// file). The camera restarts at the new scene's start pose. Never throws for a bad file.
    ReplaceResult replaceWith(const std::filesystem::path& path);
    const scene::Scene& scene() const { return mScene; }
    /// The camera back at the scene's start pose (the R key).
    void resetCamera() { mCamera = mScene.cameraAt(0.0); }
    /// Forward or deferred lighting from the next frame on (the Frame panel's "lighting" combo).
    void setLightingPath(scene::LightingPath path) { mRenderOptions.lighting = path; }
    scene::LightingPath lightingPath() const { return mRenderOptions.lighting; }
    /// Whether the next render can bin the frame for a fused histogram (the deferred lighting path).
    bool canFuseHistogram() const { return lightingPath() == scene::LightingPath::Deferred; }
    /// The fused histogram target the next render fills (nullptr: none); used for that render only.
    /// The lighting pass sets `target->produced`.
    void setFusedHistogram(post::FusedHistogramTarget* target);
    /// The pre-exposure k the next render stores with (0 unless the frame is pre-exposed), decided now
    /// from the statistics read back so far and kept for that render, so the fused histogram's params
    /// can carry its 2^-k; `fixed` sets it instead (the compare panel's second render of a frame: a k
    /// read from this source, so in range). k's owner and its path through a frame:
    /// scene::PreExposureControl (scene/PreExposure.h).
    int choosePreExposure(std::optional<int> fixed = std::nullopt);
    /// How frames are stored from the next frame on (the Frame panel's "frame" combo); k and the clip
    /// counts start over.
    void setFrameFormat(scene::FrameFormat format);
    scene::FrameFormat frameFormat() const { return mRenderer->frameFormat(); }
    /// The statistics of the frames read back so far (takes those that have arrived; never waits:
    /// after the run's final glFinish, every frame's).
    const FrameStoreStatus& storeStatus();

    const char* kind() const override { return "Scene"; }
    std::string name() const override { return mScene.sourceName; }
    std::string description() const override { return mScene.description; }
    glm::ivec2 size() const override { return mRenderer->size(); }
    bool followsWindowSize() const override { return true; }
    void resize(glm::ivec2 size) override { mRenderer->resize(size); }
    void update(const FrameSourceInput& input) override;
    void render(profiling::Profiler& profiler) override;
    const gl::Texture& hdr() const override { return mRenderer->hdrTarget(); }
    int preExposure() const override { return mRenderer->preExposure(); }
    bool preExposed() const override { return mRenderer->preExposed(); }
    const gl::Texture* depth() const override { return &mRenderer->depthTarget(); }
    float verticalFovDegrees() const override { return mCamera.verticalFovDegrees; }
    std::string hint(bool isWindow, double pathSeconds) const override;
    /// As large as fits, aspect kept, centred; 1:1 when the frame nearly fills the viewport (it
    /// fills it exactly once it follows the viewport's size, or one side of it, letterboxed, with the
    /// panels hidden).
    BlitRects placement(glm::ivec2 viewportSize) const override;

private:
    /// k and the clip counts start over (new scene or format).
    void restartStore();
    void takeFrameStats();

    gl::ShaderLibrary& mShaders;
    gl::SharedAllocator* mAllocator;
    scene::Scene mScene;
    std::unique_ptr<scene::SceneRenderer> mRenderer;
    scene::PreExposureControl mControl;
    post::AsyncReadback mStatsReadback{"scene.frameStats.readback", hd::kFrameStatsWords};
    std::uint32_t mStoreGeneration = 0;  ///< tags readbacks, so a new scene or format ignores older frames
    FrameStoreStatus mStatus;
    scene::Camera mCamera;
    scene::RenderOptions mRenderOptions;
    scene::FreeFlyController mController;
    post::FusedHistogramTarget* mFused = nullptr;
    bool mPreExposureChosen = false;  ///< choosePreExposure ran for the next render
};

}  // namespace app
