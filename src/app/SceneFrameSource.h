// SceneFrameSource.h: the default live mode's frame source: the scene renderer (RGBA16F/32F, at the
// window's size), driven by the free-fly controller in a window and by the scene's deterministic
// camera path headless. Its render pass is timed as "scene" (with the renderer's sub-passes).
#pragma once

#include "app/FrameSource.h"
#include "scene/Camera.h"
#include "scene/FreeFlyController.h"
#include "scene/Scene.h"
#include "scene/SceneRenderer.h"

#include <memory>

namespace gl {
class ShaderLibrary;
class SharedAllocator;
}  // namespace gl

namespace app {

class SceneFrameSource final : public FrameSource
{
public:
    /// `allocator` (nullable) creates the colour target in memory CUDA shares (post/CudaInterop.h).
    SceneFrameSource(gl::ShaderLibrary& shaders, scene::Scene scene, gl::SharedAllocator* allocator, glm::ivec2 size);

    const char* kind() const override { return "Scene"; }
    std::string name() const override { return mScene.sourceName; }
    glm::ivec2 size() const override { return mRenderer->size(); }
    bool followsWindowSize() const override { return true; }
    void resize(glm::ivec2 size) override { mRenderer->resize(size); }
    void update(const FrameSourceInput& input) override;
    void render(profiling::Profiler& profiler) override;
    const gl::Texture& hdr() const override { return mRenderer->hdrTarget(); }
    float verticalFovDegrees() const override { return mCamera.verticalFovDegrees; }
    std::string hint(bool isWindow, double pathSeconds) const override;
    /// As large as fits, aspect kept, centred; 1:1 when the frame nearly fills the window.
    BlitRects placement(glm::ivec2 windowSize) const override;

private:
    scene::Scene mScene;
    std::unique_ptr<scene::SceneRenderer> mRenderer;
    scene::Camera mCamera;
    scene::FreeFlyController mController;
};

}  // namespace app
