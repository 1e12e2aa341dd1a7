#include "frames/SceneFrameSource.h"

#include "gl/Gl.h"
#include "profiling/Profiler.h"
#include "scene/PixelInjection.h"
#include "util/Log.h"

#include <algorithm>
#include <bit>
#include <optional>
#include <utility>

namespace app {

SceneFrameSource::SceneFrameSource(gl::ShaderLibrary& shaders,
                                   scene::Scene scene,
                                   gl::SharedAllocator* allocator,
                                   glm::ivec2 size,
                                   scene::FrameFormat format)
    : mShaders(shaders), mAllocator(allocator), mScene(std::move(scene))
{
    mCamera = mScene.cameraAt(0.0);
    mRenderer = std::make_unique<scene::SceneRenderer>(shaders, mScene, format);
    mRenderer->setTargetAllocator(allocator);
    mRenderer->resize(size);
    restartStore();
}

void SceneFrameSource::restartStore()
{
    ++mStoreGeneration;
    mControl = scene::PreExposureControl(scene::initialPreExposure(mRenderer->scene()));
    mStatus = FrameStoreStatus{};
    mStatus.format = mRenderer->frameFormat();
    mStatus.preExposed = mRenderer->preExposed();
    mStatus.statsActive = mRenderer->frameStatsActive();
    mStatus.glFormat = mRenderer->hdrTarget().valid() ? mRenderer->hdrTarget().format() : 0u;
    mStatus.k = mRenderer->preExposed() ? mControl.k() : 0;
}

void SceneFrameSource::setFrameFormat(scene::FrameFormat format)
{
    if (format == mRenderer->frameFormat())
        return;
    mRenderer->setFrameFormat(format);
    restartStore();
}

void SceneFrameSource::takeFrameStats()
{
    for (const post::AsyncReadback::Result& result : mStatsReadback.pollAll()) {
        if (result.tag[1] != mStoreGeneration)
            continue;  // a frame of the previous scene or format
        const scene::FrameStats stats = scene::decodeFrameStats(result.words, std::bit_cast<int>(result.tag[0]));
        mControl.observe(stats);
        util::logDebug("frame {}: stored with k = {}, peak {} cd/m^2, {} clipped -> k = {}", result.frame,
                       stats.preExposure, stats.peak, stats.clippedPixels, mControl.k());
        ++mStatus.framesRead;
        if (stats.clippedPixels > 0) {
            ++mStatus.framesClipped;
            mStatus.clippedPixels += stats.clippedPixels;
            mStatus.mostClipped = std::max(mStatus.mostClipped, stats.clippedPixels);
        }
        if (!mStatus.last || result.frame >= mStatus.lastFrame) {
            mStatus.last = stats;
            mStatus.lastFrame = result.frame;
        }
    }
    mStatus.kChanges = mControl.changes();
}

const FrameStoreStatus& SceneFrameSource::storeStatus()
{
    takeFrameStats();
    return mStatus;
}

SceneFrameSource::ReplaceResult SceneFrameSource::replaceWith(const std::filesystem::path& path)
{
    ReplaceResult result;
    try {
        scene::Scene next = scene::loadSceneFile(path);
        auto renderer = std::make_unique<scene::SceneRenderer>(mShaders, next, mRenderer->frameFormat());
        renderer->setTargetAllocator(mAllocator);
        renderer->resize(size());
        // Only now, with everything built, does the old scene go (its GL objects with its renderer).
        mRenderer = std::move(renderer);
        mScene = std::move(next);
        mCamera = mScene.cameraAt(0.0);
        restartStore();
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

int SceneFrameSource::choosePreExposure(std::optional<int> fixed)
{
    if (fixed) {
        mRenderOptions.preExposure = *fixed;
        mPreExposureChosen = true;
    } else if (!mPreExposureChosen) {
        takeFrameStats();  // the frames read back so far decide this frame's k
        mRenderOptions.preExposure = mControl.k();
        mPreExposureChosen = true;
    }
    return mRenderer->preExposed() ? *mRenderOptions.preExposure : 0;
}

void SceneFrameSource::render(profiling::Profiler& profiler)
{
    choosePreExposure();
    mPreExposureChosen = false;
    auto scope = profiler.scope("scene");
    scene::RenderOptions options = mRenderOptions;
    std::optional<scene::FusedHistogramOutputs> fused;
    if (post::FusedHistogramTarget* target = std::exchange(mFused, nullptr);
        target && target->histogram && target->frameSize == size()) {
        fused = fusedHistogramOutputs(*target, mScene.inject);
        options.fusedHistogram = &*fused;
    }
    mRenderer->render(mCamera, options, &profiler);
    mStatus.k = mRenderer->preExposure();
    mStatus.glFormat = mRenderer->hdrTarget().format();
    if (mRenderer->frameStatsActive())
        mStatsReadback.enqueue(mRenderer->frameStats(), hd::kFrameStatsWords, profiler.frameIndex(),
                               {std::bit_cast<std::uint32_t>(mRenderer->preExposure()), mStoreGeneration, 0u, 0u});
    // The fused lighting pass wrote the injected texels itself (and binned them).
    if (mScene.inject.total() > 0 && !(fused && *fused->written)) {
        auto inject = profiler.scope("scene/inject");
        scene::injectPixels(mRenderer->hdrTarget(), mScene.inject);
    }
}

std::string SceneFrameSource::hint(bool isWindow, double pathSeconds) const
{
    if (isWindow)
        return "WASD/QE move, right mouse look, Shift fast, Tab hides the panels, F1 lists the keys";
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
