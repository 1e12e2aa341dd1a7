// AppPanels.cpp: the live app's side of its panels (app/AppImpl.h): this frame's ui::PanelContext,
// what only the app does for them (ui::PanelHost: the split view, the captures, the scene switch),
// the split view's labels over the picture, and the layout's description after a --ui screenshot.
#include "app/AppImpl.h"

#include "ui/InView.h"
#include "ui/KeyHelp.h"
#include "ui/PanelColumns.h"
#include "ui/TextFit.h"
#include "util/Log.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <cctype>
#include <cstdio>

namespace app {

void App::Impl::drawPanels(double pathSeconds)
{
    std::optional<post::HistogramSnapshot> snapshot = pipeline->latestSnapshot();
    const std::optional<post::ProbeSnapshot> probe = pipeline->latestProbe();
    const ui::CaptureMode mode = captureMode();
    ui::PanelContext panelContext{.host = *this,
                                  .pipeline = *pipeline,
                                  .profiler = *profiler,
                                  .glContext = *context,
                                  .shaders = *shaders,
                                  .caps = caps,
                                  .isWindow = isWindow,
                                  .source = *source,
                                  .scene = sceneSource,
                                  .still = stillImage,
                                  .sequence = sequence,
                                  .frame = frameInput(),
                                  .presets = presets,
                                  .currentPreset = currentPreset,
                                  .sourceStatus = shaderStatus.empty()   ? sourceStatus
                                                  : sourceStatus.empty() ? shaderStatus
                                                                         : shaderStatus + "\n" + sourceStatus,
                                  .canvas = canvas,
                                  .pathSeconds = pathSeconds,
                                  .vsync = vsync,
                                  .snapshot = snapshot,
                                  .probe = probe,
                                  .probeNames = probeNames,
                                  .exposurePlot = exposurePlot,
                                  .split = splitPanelInput(),
                                  .captureMode = mode,
                                  .captureStatus = captureStatus,
                                  .status = {}};
    ui::StatusLineInfo& status = panelContext.status;
    const util::Summary frameTime = profiler->frameTimeMs();
    status.frameMs = frameTime.count > 0 ? frameTime.mean : 0.0;
    status.gpu = context->info().renderer;
    status.shown = describeShown();
    status.message = lastMessage;
    if (isWindow)
        panelContext.keepPictureWhileInteracting = &keepPictureWhileInteracting;
    panels->draw(panelContext);
    drawSplitLabels();
    if (showKeyHelp)
        ui::drawKeyHelp(panels->columns().rects().viewport, showKeyHelp);
}

ui::CaptureMode App::Impl::captureMode()
{
    // While --capture records the whole run, the buttons would cut that recording short.
    ui::CaptureMode mode = ui::CaptureMode::Idle;
    if (uiCaptureFrames > 0)
        mode = ui::CaptureMode::CapturingFrames;
    else if (uiRecording)
        mode = ui::CaptureMode::RecordingUntilStopped;
    else if (profiler->recording())
        mode = ui::CaptureMode::RecordingForOutputs;
    if (mode == ui::CaptureMode::RecordingForOutputs && captureStatus.empty())
        captureStatus = "recording the whole run (summary, --capture)";
    return mode;
}

post::PostPipeline* App::Impl::pipelineB()
{
    return split->active() ? split->pipelineB() : nullptr;
}

void App::Impl::applySplit(const ui::SplitPanelActions& actions)
{
    if (actions.mode) {
        split->setMode(*actions.mode, *pipeline);
        profiler->resetStats();
    }
    if (actions.position)
        split->setPosition(*actions.position);
    if (actions.gain)
        split->setGain(*actions.gain);
    if (actions.copyAToB) {
        split->copySettingsFrom(*pipeline);
        profiler->resetStats();
    }
}

void App::Impl::applyCapture(const ui::TimingsPanelActions& timing)
{
    if (timing.ringFrames > 0)
        profiler->setRecordingCapacity(timing.ringFrames);
    if (timing.captureRequested) {
        uiCaptureFrames = timing.captureFrames;
        profiler->startRecording();
        captureStatus = util::format("capturing {} frames...", uiCaptureFrames);
    }
    if (timing.captureRequested)
        say(ui::MessageKind::Info, captureStatus);
    if (timing.recordRequested) {
        uiRecording = true;
        profiler->startRecording();
        captureStatus = "recording until stopped...";
    }
    if (timing.stopRequested)
        writeUiCapture();
}

void App::Impl::requestScenePreset(int index)
{
    requestedPreset = index;
}

void App::Impl::requestOpenFile(const std::string& path)
{
    requestedOpens.emplace_back(path);
}

void App::Impl::say(ui::MessageKind kind, std::string text)
{
    lastMessage = {std::move(text), kind};
}

std::string App::Impl::describeShown() const
{
    if (!source)
        return {};
    std::string kind = source->kind();
    for (char& c : kind)
        c = char(std::tolower((unsigned char)c));
    return kind + " " + source->name();
}

void App::Impl::updateWindowTitle()
{
    if (!isWindow)
        return;
    std::string title = ui::windowTitle(describeShown());
    if (title != shownTitle) {
        glfwSetWindowTitle(context->window(), title.c_str());
        shownTitle = std::move(title);
    }
}

std::string App::Impl::describeLayout() const
{
    std::string text = util::format("viewport {},{} {}x{} of {}x{} (pixels from the top-left)", viewport.x,
                                    canvas.y - viewport.y - viewport.w, viewport.z, viewport.w, canvas.x, canvas.y);
    const glm::ivec4 picture = placementInCanvas().destination;
    const glm::ivec2 pictureSize = glm::max(glm::ivec2(picture.z - picture.x, picture.w - picture.y), glm::ivec2(0));
    const double share = 100.0 * double(pictureSize.x) * pictureSize.y / std::max(1.0, double(canvas.x) * canvas.y);
    char percent[32];
    std::snprintf(percent, sizeof percent, "%.1f", share);
    text += util::format("; picture {}x{}, {} % of the window", pictureSize.x, pictureSize.y, percent);
    if (panels && uiDrawn)
        text += "; " + describeCombos() + "; " + ui::describeMeasurementsInView();
    text += "; " + ui::describeTextCutShort();
    const std::vector<std::string> cut = ui::takeNamesCutShort();
    if (cut.empty())
        return text + "; no name cut short";
    text += "; names cut short:";
    for (const std::string& name : cut)
        text += " '" + name + "'";
    return text;
}

std::string App::Impl::describeCombos() const
{
    // The Pipeline panel's combos, found by the name each shows now (the scan's shows "built in",
    // greyed, when the histogram method makes the cumulative histogram itself).
    const post::ScanMethod* scan = pipeline->scanMethod();
    return ui::describeCombosInSight({{"method", std::string(pipeline->histogramMethod().label())},
                                      {"scan", scan ? std::string(scan->label()) : std::string("built in")},
                                      {"operator", std::string(pipeline->toneOperator().label())}});
}

ui::SplitPanelInput App::Impl::splitPanelInput()
{
    return {split->mode(),
            split->position(),
            split->gain(),
            &split->histogramDifference(),
            split->sideLabel(*pipeline, false),
            split->sideLabel(*pipeline, true)};
}

void App::Impl::drawSplitLabels()
{
    if (!split->active())
        return;
    // In ImGui's units (window units from the top-left).
    const BlitRects rects = placementInCanvas();
    const ImVec2 scale = ImGui::GetIO().DisplayFramebufferScale;
    const float sx = scale.x > 0.0f ? scale.x : 1.0f, sy = scale.y > 0.0f ? scale.y : 1.0f;
    const float divider = float(dividerWindowX(split->position(), rects, source->size().x)) / sx;
    ui::drawSplitLabels(splitPanelInput(), divider, float(rects.destination.x) / sx, float(rects.destination.z) / sx,
                        float(canvas.y - rects.destination.w) / sy);
}

}  // namespace app
