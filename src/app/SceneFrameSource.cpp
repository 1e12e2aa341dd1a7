#include "app/SceneFrameSource.h"

#include "profiling/Profiler.h"
#include "scene/PixelInjection.h"

#include <algorithm>
#include <optional>
#include <utility>

namespace app {

SceneFrameSource::SceneFrameSource(gl::ShaderLibrary& shaders,
                                   scene::Scene scene,
                                   gl::SharedAllocator* allocator,
                                   glm::ivec2 size)
    : mShaders(shaders), mAllocator(allocator), mScene(std::move(scene))
{
    mCamera = mScene.cameraAt(0.0);
    mRenderer = std::make_unique<scene::SceneRenderer>(shaders, mScene);
    mRenderer->setTargetAllocator(allocator);
    mRenderer->resize(size);
}

SceneFrameSource::ReplaceResult SceneFrameSource::replaceWith(const std::filesystem::path& path)
{
    ReplaceResult result;
    try {
        scene::Scene next = scene::loadSceneFile(path);
        auto renderer = std::make_unique<scene::SceneRenderer>(mShaders, next);
        renderer->setTargetAllocator(mAllocator);
        renderer->resize(size());
        // Only now, with everything built, does the old scene go (its GL objects with its renderer).
        mRenderer = std::move(renderer);
        mScene = std::move(next);
        mCamera = mScene.cameraAt(0.0);
        result.replaced = true;
        result.message = "showing " + mScene.sourceName;
    } catch (const std::exception& error) {
        result.message = std::string(error.what()) + "; still showing " + mScene.sourceName;
    }
    return result;
}

void SceneFrameSource::update(const FrameSourceInput& input)
{
    if (input.window)
        mController.update(input.window, input.dt, !input.mouseFree, !input.keyboardFree, mCamera);
    else
        mCamera = mScene.cameraAt(input.pathSeconds);
}

scene::FusedHistogramOutputs fusedHistogramOutputs(post::FusedHistogramTarget& target,
                                                   const scene::PixelInjection& inject)
{
    target.produced = false;
    return scene::FusedHistogramOutputs{target.params,     target.histogram, target.fovealSums, target.fovealGrid,
                                        target.fovealSpan, inject,           &target.produced};
}

void SceneFrameSource::setFusedHistogram(post::FusedHistogramTarget* target)
{
    mFused = target;
}

void SceneFrameSource::render(profiling::Profiler& profiler)
{
    auto scope = profiler.scope("scene");
    scene::RenderOptions options = mRenderOptions;
    std::optional<scene::FusedHistogramOutputs> fused;
    if (post::FusedHistogramTarget* target = std::exchange(mFused, nullptr);
        target && target->histogram && target->frameSize == size()) {
        fused = fusedHistogramOutputs(*target, mScene.inject);
        options.fusedHistogram = &*fused;
    }
    mRenderer->render(mCamera, options, &profiler);
    // The fused lighting pass wrote the injected texels itself (and binned them).
    if (mScene.inject.total() > 0 && !(fused && *fused->written)) {
        auto inject = profiler.scope("scene/inject");
        scene::injectPixels(mRenderer->hdrTarget(), mScene.inject);
    }
}

std::string SceneFrameSource::hint(bool isWindow, double pathSeconds) const
{
    if (isWindow)
        return "WASD/QE move, right mouse look, Shift fast, F1 or Tab hides the panels";
    return "camera path t = " + std::to_string(int(pathSeconds * 100.0) / 100.0).substr(0, 5) + " s";
}

BlitRects SceneFrameSource::placement(glm::ivec2 viewportSize) const
{
    const glm::ivec2 image = size();
    const glm::ivec2 area = viewportSize;
    double scale = std::min(double(area.x) / image.x, double(area.y) / image.y);
    glm::ivec2 fitted = glm::max(glm::ivec2(glm::dvec2(image) * scale), glm::ivec2(1));
    if (image.x <= area.x && image.y <= area.y && image.x * 2 > area.x && image.y * 2 > area.y)
        fitted = image;  // close enough: keep 1:1 pixels
    glm::ivec2 offset = (area - fitted) / 2;
    return {{0, 0, image.x, image.y}, {offset.x, offset.y, offset.x + fitted.x, offset.y + fitted.y}};
}

}  // namespace app
