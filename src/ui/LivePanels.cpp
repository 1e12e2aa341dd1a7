#include "ui/LivePanels.h"

#include "frames/FrameStoreStatus.h"
#include "ui/CompareView.h"
#include "ui/FramePanel.h"
#include "ui/ViewPanel.h"
#include "verify/PipelineVerify.h"

#include <functional>
#include <utility>

namespace ui {

PipelineSection::PipelineSection(std::unique_ptr<PipelinePanel> panel, Side side, CompareSweep& sweep)
    : mPanel(std::move(panel)), mSide(side), mSweep(sweep)
{
}

PanelPlace PipelineSection::place() const
{
    return {PanelRegion::Settings, PanelFrame::Section,
            mSide == Side::A ? SettingsSection::Pipeline : SettingsSection::PipelineB};
}

bool PipelineSection::shown(const PanelContext& context) const
{
    return mSide == Side::A || context.host.pipelineB() != nullptr;
}

void PipelineSection::draw(const PanelContext& context)
{
    if (mSide == Side::B) {
        post::PostPipeline& b = *context.host.pipelineB();
        if (mPanel->draw(b, context.profiler).verifyRequested)
            mPanel->setVerifyReport(verify::verifyPipeline(b));
        return;
    }
    const PipelinePanelActions actions = mPanel->draw(context.pipeline, context.profiler);
    if (actions.verifyRequested)
        mPanel->setVerifyReport(verify::verifyPipeline(context.pipeline));
    if (actions.compareRequested) {
        // A fused method bins this frame rendered again by the scene's deferred lighting pass.
        std::function<void(post::FusedHistogramTarget&)> renderFused;
        if (app::SceneFrameSource* scene = context.scene; scene && scene->canFuseHistogram())
            renderFused = [scene, &caps = context.caps](post::FusedHistogramTarget& target) {
                profiling::Profiler untimed(caps.glTimersUseful);
                scene->choosePreExposure(scene->preExposure());  // the frame compared
                scene->setFusedHistogram(&target);
                scene->render(untimed);
            };
        app::addToSweep(mSweep, app::compareMethods(context.shaders, context.caps, context.frame,
                                                    context.pipeline.settings(), 5, std::move(renderFused)));
    }
}

void FrameSection::draw(const PanelContext& context)
{
    app::FrameSource& source = context.source;
    FrameInfo info{context.glContext.info(),
                   source.name(),
                   source.size(),
                   context.canvas,
                   context.profiler.frameTimeMs(),
                   context.isWindow,
                   {}};
    info.cameraHint = source.hint(context.isWindow, context.pathSeconds);
    info.sourceKind = source.kind();
    info.controlsHelp = source.controlsHelp();
    info.sourceStatus = context.sourceStatus;
    info.canFit = context.still != nullptr || context.sequence != nullptr;
    info.keepPicture = context.keepPictureWhileInteracting;
    if (context.sequence && context.sourceStatus.empty())
        info.sourceStatus = context.sequence->lastProblem();
    info.description = source.description();
    info.pictures = source.pictureChoices();
    info.chosenPicture = source.chosenPicture();
    if (app::SceneFrameSource* scene = context.scene) {
        info.presets = &context.presets;
        info.currentPreset = context.currentPreset;
        info.lighting = scene->lightingPath();
        const app::FrameStoreStatus& store = scene->storeStatus();
        info.frameFormat = store.format;
        info.frameStore = app::describeFrameStore(store);
        info.clipping = store.last && store.last->clippedPixels > 0;
    }
    const FramePanelActions actions = drawFramePanel(info, context.vsync);
    if (actions.presetRequested >= 0)
        context.host.requestScenePreset(actions.presetRequested);
    if (actions.pictureRequested >= 0) {
        source.choosePicture(actions.pictureRequested);
        context.profiler.resetStats();
    }
    if (actions.lightingRequested && context.scene) {
        context.scene->setLightingPath(*actions.lightingRequested);
        context.profiler.resetStats();
    }
    if (actions.frameFormatRequested && context.scene) {
        context.scene->setFrameFormat(*actions.frameFormatRequested);
        context.profiler.resetStats();
    }
    if (actions.vsyncChanged)
        context.glContext.setVsync(context.vsync);
    if (actions.fitRequested && context.still)
        context.still->fit();
    if (actions.fitRequested && context.sequence)
        context.sequence->fit();
}

void ViewSection::draw(const PanelContext& context)
{
    post::PostPipeline& pipeline = context.pipeline;
    if (auto mode = drawViewPanel({pipeline.viewMode(), &context.snapshot, &context.probe, context.probeNames,
                                   pipeline.luminanceUnits().describe(), pipeline.hdrOutputTexture() != nullptr}))
        pipeline.setViewMode(*mode, !context.isWindow);  // headless: the legend in the image
}

void SplitSection::draw(const PanelContext& context)
{
    context.host.applySplit(drawSplitPanel(context.split));
}

void HistogramSection::draw(const PanelContext& context)
{
    std::optional<post::HistogramSnapshot>& snapshot = context.snapshot;
    if (snapshot && snapshot->markers.empty())
        snapshot->markers = context.pipeline.toneOperator().markers();
    if (snapshot && context.probe)
        addProbeMarkers(*snapshot, *context.probe, context.probeNames);
    mView.draw(snapshot, context.profiler.frameIndex());
}

void TimingsSection::draw(const PanelContext& context)
{
    context.host.applyCapture(mPanel.draw(context.profiler, context.captureStatus, context.captureMode));
}

void ExposureSection::draw(const PanelContext& context)
{
    const post::ToneOperator& op = context.pipeline.toneOperator();
    const post::ToneState* state = op.state();
    mPanel.draw(context.exposurePlot, op.id(), op.keyValueName(), state ? state->compensationCurve() : std::nullopt);
}

void CompareSection::draw(const PanelContext&)
{
    drawCompareResults(mSweep);
}

}  // namespace ui
