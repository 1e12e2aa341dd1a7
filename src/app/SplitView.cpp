#include "app/SplitView.h"

#include "post/PipelineParameters.h"
#include "post/SettingsFile.h"
#include "profiling/Profiler.h"
#include "util/Log.h"

#include <algorithm>

namespace app {

SplitView::SplitView(gl::ShaderLibrary& shaders,
                     profiling::Profiler& profiler,
                     const post::GpuCaps& caps,
                     gl::SharedAllocator* allocator)
    : mShaders(shaders), mProfiler(profiler), mCaps(caps), mAllocator(allocator)
{
}

SplitView::~SplitView() = default;

void SplitView::setMode(post::SplitMode mode, post::PostPipeline& a)
{
    if (mode != post::SplitMode::Off && !mPipelineB)
        copySettingsFrom(a);
    if (mode != mMode)
        mDifference.reset();
    mMode = mode;
}

void SplitView::setPosition(float position)
{
    mPosition = std::clamp(position, 0.0f, 1.0f);
}

void SplitView::setGain(float gain)
{
    mGain = std::clamp(gain, 0.0f, post::kMaxSplitGain);
}

void SplitView::copySettingsFrom(post::PostPipeline& a)
{
    if (!mPipelineB) {
        mPipelineB = std::make_unique<post::PostPipeline>(mShaders, mProfiler, mCaps);
        mPipelineB->setSharedAllocator(mAllocator);
    }
    std::vector<post::SettingAssignment> assignments;
    for (auto& [key, value] : post::PipelineParameters(a).values()) {
        // The lighting pass bins for pipeline A only: B keeps a histogram method that reads the frame.
        if (key == "histogram.method" && a.histogramMethod().needsFusedProducer())
            continue;
        assignments.push_back({key, value, "pipeline A"});
    }
    post::PipelineParameters(*mPipelineB).apply(assignments);
    mDifference.reset();
}

const gl::Texture& SplitView::run(post::PostPipeline& a,
                                  const gl::Texture& displayA,
                                  const post::ImageInput& hdr,
                                  double dtSeconds,
                                  float fovYDegrees,
                                  const gl::Texture* sceneDepth)
{
    if (!active() || !mPipelineB)
        throw std::logic_error("SplitView::run while the split view is off");
    if (mPipelineB->viewMode() != a.viewMode())
        mPipelineB->setViewMode(a.viewMode(), mLegendStrip);
    const gl::Texture* displayB = nullptr;
    {
        auto prefix = mProfiler.prefixNames("B/");
        mPipelineB->setSceneDepth(sceneDepth);
        mPipelineB->setPictureInfo(a.pictureInfo());
        mPipelineB->setInputRadiance(a.inputRadiance());  // the same input: the same units rule
        displayB = &mPipelineB->run(hdr, dtSeconds, fovYDegrees);
    }
    auto scope = mProfiler.scope("view/split");
    if (!mOutput || mOutput.size() != hdr.size)
        mOutput = gl::Texture("post.split", GL_RGBA8, hdr.size);
    post::PassContext ctx{mShaders, mProfiler, mCaps, mProfiler.frameIndex()};
    mCompose.run(ctx, displayA, *displayB, mOutput, mMode, mPosition, mGain);
    updateHistogramDifference(a);
    return mOutput;
}

void SplitView::updateHistogramDifference(post::PostPipeline& pipelineA)
{
    const std::optional<post::HistogramSnapshot> a = pipelineA.latestSnapshot();
    const std::optional<post::HistogramSnapshot> b = mPipelineB->latestSnapshot();
    if (!a || !b)
        return;
    // Readbacks a frame apart: keep the last result of one frame rather than flicker; a frame
    // already compared is not compared again.
    if (mDifference && (a->frame != b->frame || (mDifference->comparable && mDifference->frame == a->frame)))
        return;
    mDifference = post::histogramDifference(*a, *b);
}

std::string SplitView::sideLabel(post::PostPipeline& a, bool sideB) const
{
    post::PostPipeline& pipeline = sideB && mPipelineB ? *mPipelineB : a;
    const post::PipelineSettings& mine = pipeline.settings();
    const post::PipelineSettings& other = (sideB || !mPipelineB ? a : *mPipelineB).settings();
    std::string label = std::string(sideB ? "B: " : "A: ") + mine.toneOperator;
    if (mine.histogramMethod != other.histogramMethod)
        label += ", " + mine.histogramMethod;
    return label;
}

void applyRequestedSettingsB(post::PostPipeline& b, const AppOptions& options)
{
    post::PipelineParameters parameters(b);
    if (options.settingsFileB)
        for (const std::string& warning : post::loadSettingsFile(*options.settingsFileB, parameters))
            util::logWarning("pipeline B: {}", warning);
    std::vector<post::SettingAssignment> assignments;
    for (const std::string& text : options.settingAssignmentsB)
        assignments.push_back(post::parseAssignment(text, "--set-b"));
    for (const std::string& warning : parameters.apply(assignments))
        util::logWarning("pipeline B: {}", warning);
}

double dividerWindowX(float position, const BlitRects& rects, int frameWidth)
{
    const glm::ivec4 from = rects.source, to = rects.destination;
    if (from.z <= from.x)
        return to.x;
    const double frameX = double(position) * frameWidth;
    return to.x + (frameX - from.x) * double(to.z - to.x) / double(from.z - from.x);
}

std::optional<float> dividerPositionAt(double windowX, const BlitRects& rects, int frameWidth)
{
    const glm::ivec4 from = rects.source, to = rects.destination;
    if (to.z <= to.x || from.z <= from.x || frameWidth <= 0)
        return std::nullopt;
    const double frameX = from.x + (windowX - to.x) * double(from.z - from.x) / double(to.z - to.x);
    return float(std::clamp(frameX / frameWidth, 0.0, 1.0));
}

}  // namespace app
