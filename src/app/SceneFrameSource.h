// SceneFrameSource.h: the default live mode's frame source: the scene renderer (RGBA16F/32F, at the
// viewport's size), driven by the free-fly controller in a window and by the scene's deterministic
// camera path headless. Its render pass is timed as "scene" (with the renderer's sub-passes); a
// stress preset's injected NaN/Inf/negative texels are written after it (scene/PixelInjection.h).
// replaceWith switches scenes live (the Frame panel's scene combo) between frames.
// The fused histogram's seam (post's "fused-lighting" method): setFusedHistogram hands the pipeline's
// target (post::FusedHistogramTarget) to the deferred lighting pass as scene::FusedHistogramOutputs for
// the next render; that pass then also writes the preset's injected texels, so the histogram sees them.
#pragma once

#include "app/FrameSource.h"
#include "scene/Camera.h"
#include "scene/FreeFlyController.h"
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
    SceneFrameSource(gl::ShaderLibrary& shaders, scene::Scene scene, gl::SharedAllocator* allocator, glm::ivec2 size);

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
    /// Forward or deferred lighting from the next frame on (the Frame panel's "lighting" combo).
    void setLightingPath(scene::LightingPath path) { mRenderOptions.lighting = path; }
    scene::LightingPath lightingPath() const { return mRenderOptions.lighting; }
    /// Whether the next render can bin the frame for a fused histogram (the deferred lighting path).
    bool canFuseHistogram() const { return lightingPath() == scene::LightingPath::Deferred; }
    /// The fused histogram target the next render fills (nullptr: none); used for that render only.
    /// The lighting pass sets `target->produced`.
    void setFusedHistogram(post::FusedHistogramTarget* target);

    const char* kind() const override { return "Scene"; }
    std::string name() const override { return mScene.sourceName; }
    std::string description() const override { return mScene.description; }
    glm::ivec2 size() const override { return mRenderer->size(); }
    bool followsWindowSize() const override { return true; }
    void resize(glm::ivec2 size) override { mRenderer->resize(size); }
    void update(const FrameSourceInput& input) override;
    void render(profiling::Profiler& profiler) override;
    const gl::Texture& hdr() const override { return mRenderer->hdrTarget(); }
    const gl::Texture* depth() const override { return &mRenderer->depthTarget(); }
    float verticalFovDegrees() const override { return mCamera.verticalFovDegrees; }
    std::string hint(bool isWindow, double pathSeconds) const override;
    /// As large as fits, aspect kept, centred; 1:1 when the frame nearly fills the viewport (it
    /// fills it exactly once it follows the viewport's size).
    BlitRects placement(glm::ivec2 viewportSize) const override;

private:
    gl::ShaderLibrary& mShaders;
    gl::SharedAllocator* mAllocator;
    scene::Scene mScene;
    std::unique_ptr<scene::SceneRenderer> mRenderer;
    scene::Camera mCamera;
    scene::RenderOptions mRenderOptions;
    scene::FreeFlyController mController;
    post::FusedHistogramTarget* mFused = nullptr;
};

}  // namespace app
