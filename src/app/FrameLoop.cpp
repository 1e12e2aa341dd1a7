// FrameLoop.cpp: the live app's frame loop (app/AppImpl.h): window events, the panels' layout and
// the frame's size, the frame source, the post pipeline (and the split view's B), presenting the
// display image in the viewport, pixel probes, the divider drag, dropped files and scene switches,
// and the exposure histories' per-frame entries.
#include "app/AppImpl.h"
#include "app/FileArgument.h"

#include "gl/Debug.h"
#include "ui/PanelLayout.h"
#include "util/Log.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <thread>
#include <utility>

namespace app {

void App::Impl::updateUiScale()
{
    float contentScale = 1.0f;
    float framebufferScale = 1.0f;
    if (isWindow) {
        int width = 0, height = 0;
        glfwGetWindowSize(context->window(), &width, &height);
        contentScale = windowEvents->contentScale();
        if (width > 0)
            framebufferScale = float(canvas.x) / float(width);
    }
    imgui->setScale(options.uiScale.value_or(contentScale), framebufferScale);
}

void App::Impl::layOutFrame(bool drawUi)
{
    uiDrawn = drawUi && panels;
    viewport = {0, 0, canvas.x, canvas.y};
    frameSize = canvas;
    if (!panels)
        return;
    ui::PanelColumns& columns = panels->columns();
    const glm::vec2 display = displayUnits();
    if (drawUi) {
        const ui::PanelRects& rects = columns.arrange(imgui->scale(), true);
        const ImVec2 imguiDisplay = ImGui::GetIO().DisplaySize;  // the units the regions are in
        viewport = ui::viewportPixels(rects.viewport, {imguiDisplay.x, imguiDisplay.y}, canvas);
        frameSize = {viewport.z, viewport.w};
    } else if (isWindow) {
        // Hidden panels: the frame keeps the aspect of the viewport they would leave, letterboxed.
        if (!columns.measuredAt(imgui->scale())) {
            // Hidden from the start (--hide-ui) or since the scale changed: one frame, not drawn,
            // measures the panels with the font, so the aspect is the one they will leave.
            imgui->newFrame(canvas, kFixedDt);
            columns.arrange(imgui->scale(), false);
            imgui->endFrameWithoutDrawing();
        }
        const glm::ivec4 shown =
            ui::viewportPixels(columns.referenceViewport(display, imgui->scale()), display, canvas);
        frameSize = ui::fitAspect(canvas, {shown.z, shown.w});
    }
}

glm::vec2 App::Impl::displayUnits() const
{
    if (!isWindow)
        return glm::vec2(canvas);
    int width = 0, height = 0;
    glfwGetWindowSize(context->window(), &width, &height);
    return glm::vec2(std::max(width, 1), std::max(height, 1));
}

BlitRects App::Impl::placementInCanvas() const
{
    BlitRects rects = source->placement({viewport.z, viewport.w});
    rects.destination += glm::ivec4(viewport.x, viewport.y, viewport.x, viewport.y);
    return rects;
}

glm::dvec2 App::Impl::cursorInCanvas() const
{
    double cursorX = 0.0, cursorY = 0.0;
    int width = 0, height = 0;
    glfwGetCursorPos(context->window(), &cursorX, &cursorY);
    glfwGetWindowSize(context->window(), &width, &height);
    // Screen units from the top-left -> framebuffer pixels from the bottom-left.
    const glm::dvec2 scale = glm::dvec2(canvas) / glm::max(glm::dvec2(width, height), glm::dvec2(1.0));
    return {cursorX * scale.x, canvas.y - cursorY * scale.y};
}

void App::Impl::updateProbes(bool mouseFree)
{
    std::vector<glm::ivec2> texels;
    probeNames.clear();
    const glm::ivec2 frameSize = source->size();
    if (isWindow) {
        const BlitRects rects = placementInCanvas();
        const glm::ivec4 from = rects.source, to = rects.destination;
        if (mouseFree && to.z > to.x && to.w > to.y) {
            const glm::dvec2 cursor = cursorInCanvas();
            mouseTexel = glm::ivec2(-1, 0);  // outside: reported as such
            if (cursor.x >= to.x && cursor.x < to.z && cursor.y >= to.y && cursor.y < to.w)
                mouseTexel = glm::ivec2(int(from.x + (cursor.x - to.x) * (from.z - from.x) / (to.z - to.x)),
                                        int(from.y + (cursor.y - to.y) * (from.w - from.y) / (to.w - to.y)));
        }
        texels.push_back({mouseTexel.x, frameSize.y - 1 - mouseTexel.y});  // the frame is bottom-up
        probeNames.push_back("mouse");
    }
    for (std::size_t i = 0; i < options.probes.size(); ++i) {
        texels.push_back(options.probes[i]);
        probeNames.push_back(std::to_string(i + 1));
    }
    pipeline->setProbePoints(std::move(texels));
}

bool App::Impl::updateDividerDrag(bool mouseFree)
{
    if (split->mode() != post::SplitMode::SideBySide) {
        draggingDivider = false;
        return false;
    }
    GLFWwindow* window = context->window();
    const bool wasDown =
        std::exchange(leftButtonWasDown, glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS);
    if (!leftButtonWasDown) {
        draggingDivider = false;
        return false;
    }
    const double x = cursorInCanvas().x;  // framebuffer pixels, as the placement
    const BlitRects rects = placementInCanvas();
    constexpr double kGrabPixels = 8.0;
    if (!draggingDivider) {
        // Only a press that starts on the divider (and not over a panel) grabs it.
        if (!mouseFree || wasDown ||
            std::abs(x - dividerWindowX(split->position(), rects, source->size().x)) > kGrabPixels)
            return false;
        draggingDivider = true;
    }
    if (const std::optional<float> position = dividerPositionAt(x, rects, source->size().x))
        split->setPosition(*position);
    return true;
}

void App::Impl::presentInViewport(const gl::Texture& display, GLuint target)
{
    glBindFramebuffer(GL_FRAMEBUFFER, target);
    glDisable(GL_SCISSOR_TEST);
    glViewport(0, 0, canvas.x, canvas.y);
    glClearColor(0.08f, 0.08f, 0.09f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    displayFramebuffer.attachTexture(GL_COLOR_ATTACHMENT0, display);
    const BlitRects rects = placementInCanvas();
    const glm::ivec4 from = rects.source, to = rects.destination;
    if (from.z <= from.x || from.w <= from.y)
        return;
    // Pixels shown 1:1 or larger stay sharp; a reduced image is filtered.
    bool magnified = to.z - to.x >= from.z - from.x && to.w - to.y >= from.w - from.y;
    glBlitNamedFramebuffer(displayFramebuffer.id(), target, from.x, from.y, from.z, from.w, to.x, to.y, to.z, to.w,
                           GL_COLOR_BUFFER_BIT, magnified ? GL_NEAREST : GL_LINEAR);
}

bool App::Impl::panelsBusy()
{
    const ImGuiIO& io = ImGui::GetIO();
    const bool mouseOnPanels = io.WantCaptureMouse && (io.MouseDelta.x != 0.0f || io.MouseDelta.y != 0.0f ||
                                                       io.MouseWheel != 0.0f || io.MouseDown[0] || io.MouseDown[1]);
    const auto now = std::chrono::steady_clock::now();
    if (ImGui::IsAnyItemActive() || ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId) || mouseOnPanels)
        lastPanelInteraction = now;
    return now - lastPanelInteraction < std::chrono::milliseconds(500);
}

void App::Impl::keepPicture(const gl::Texture& display)
{
    if (!keptPicture.valid() || keptPicture.size() != display.size() || keptPicture.format() != display.format())
        keptPicture = gl::Texture("app.keptPicture", display.format(), display.size());
    glCopyImageSubData(display.id(), GL_TEXTURE_2D, 0, 0, 0, 0, keptPicture.id(), GL_TEXTURE_2D, 0, 0, 0, 0,
                       display.size().x, display.size().y, 1);
}

void App::Impl::presentKeptPicture(double pathSeconds)
{
    presentInViewport(keptPicture, 0);
    drawPanels(pathSeconds);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    imgui->render();
}

void App::Impl::renderFrame(double dt, double pathSeconds, bool drawUi)
{
    // The fused histogram's seam: the deferred lighting pass bins this frame for the pipeline's method.
    if (sceneSource) {
        pipeline->setFusedHistogramProducer(sceneSource->canFuseHistogram());
        const int preExposure = sceneSource->choosePreExposure();  // the fused params carry its 2^-k
        sceneSource->setFusedHistogram(
            pipeline->prepareFusedHistogram(source->size(), source->verticalFovDegrees(), preExposure));
    }
    source->render(*profiler);
    pipeline->setSceneDepth(source->depth());
    pipeline->setFootage(sequence != nullptr);       // cut detection (TonePercentile.h)
    pipeline->setInputRadiance(source->radiance());  // what one unit is (idempotent: unchanged, no work)
    pipeline->setPictureInfo(source->pictureInfo());
    const post::ImageInput hdr = frameInput();
    const gl::Texture* shown = &pipeline->run(hdr, dt, source->verticalFovDegrees());
    if (split->active())
        shown = &split->run(*pipeline, *shown, hdr, dt, source->verticalFovDegrees(), source->depth());
    const gl::Texture& display = *shown;
    lastDisplay = shown;
    if (isWindow && keepPictureWhileInteracting)
        keepPicture(display);
    if (isWindow)
        presentInViewport(display, 0);
    if (!drawUi)
        return;
    drawPanels(pathSeconds);
    auto scope = profiler->scope("ui");
    if (isWindow)
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
    else
        presentInViewport(display, uiFramebuffer.id());  // the screenshot: panels around the picture
    imgui->render();
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

void App::Impl::openDroppedFiles()
{
    std::vector<std::filesystem::path> paths = windowEvents->takeDroppedFiles();
    paths.insert(paths.end(), requestedOpens.begin(), requestedOpens.end());
    requestedOpens.clear();
    for (const std::filesystem::path& path : paths)
        openFile(path);
}

void App::Impl::openFile(const std::filesystem::path& given)
{
    // A dropped or typed file opens as its kind says (app/FileArgument.h): a scene in the scene, an
    // image in the image view (a scene window becomes one); the outcome goes to the status line.
    std::filesystem::path path = given;
    FileKind kind = fileKindOf(path);
    std::error_code error;
    if (kind == FileKind::Other && !path.has_extension() && sceneSource) {
        try {  // a scene's name ("tunnel-exit") or a path under the data folder
            path = resolveSceneFile(path, options.dataDir);
            kind = FileKind::Scene;
        } catch (const std::exception&) {
        }
    }
    if (kind == FileKind::Other || !std::filesystem::is_regular_file(path, error)) {
        sourceStatus = given.string() + (kind == FileKind::Other
                                             ? ": not an image (.exr .hdr .png .jpg ...) or a scene (.gltf .glb "
                                               ".json, or a scene's name)"
                                             : ": no such file");
        util::logError("{}", sourceStatus);
        say(ui::MessageKind::Error, sourceStatus);
        return;
    }
    if (kind == FileKind::Scene && sceneSource) {
        const SceneFrameSource::ReplaceResult result = sceneSource->replaceWith(path);
        sourceStatus = result.message;
        if (result.replaced) {
            currentPreset = -1;
            noteOpened(path);
            util::logInfo("{}", result.message);
            say(ui::MessageKind::Success, result.message);
            profiler->resetStats();
        } else {
            util::logError("{}", result.message);
            say(ui::MessageKind::Error, result.message);
        }
        return;
    }
    if (kind == FileKind::Image && sceneSource) {
        openImageInPlaceOfScene(path);
        return;
    }
    if (!stillImage || kind == FileKind::Scene) {
        sourceStatus = path.filename().string() + ": " +
                       (kind == FileKind::Scene ? std::string("scenes open in a scene window: hdrlab FILE.json")
                                                : std::string("dropped images open in a scene or image window; "
                                                              "this window shows a ") +
                                                      (sequence ? "sequence" : "tev display server's images"));
        util::logWarning("{}", sourceStatus);
        say(ui::MessageKind::Warning, sourceStatus);
        return;
    }
    StillImageSource::ReplaceResult result = stillImage->replaceWith(path);
    sourceStatus = result.message;
    if (result.replaced) {
        pipeline->setInputRadiance(stillImage->radiance());
        util::logInfo("{}; {}", result.message, pipeline->luminanceUnits().describe());
        say(ui::MessageKind::Success, result.message);
        profiler->resetStats();
    } else {
        util::logError("{}", result.message);
        say(ui::MessageKind::Error, result.message);
    }
    if (result.replaced)
        noteOpened(path);
}

void App::Impl::noteOpened(const std::filesystem::path& path)
{
    if (panels)
        panels->recentFiles().add(path.string());
}

void App::Impl::noteStartFile()
{
    if (options.viewImage && stillImage)
        noteOpened(*options.viewImage);
    else if (options.sceneFile && sceneSource)
        noteOpened(resolveSceneFile(*options.sceneFile, options.dataDir));  // a scene's name: its file
}

void App::Impl::openImageInPlaceOfScene(const std::filesystem::path& path)
{
    try {
        auto still = std::make_unique<StillImageSource>(path, std::string(), caps.maxTextureSize);
        pipeline->setFusedHistogramProducer(false);  // only a scene's lighting pass can fuse it
        sceneSource = nullptr;
        stillImage = still.get();
        source = std::move(still);
        currentPreset = -1;
        pipeline->setInputRadiance(stillImage->radiance());
        sourceStatus = "showing " + path.filename().string();
        noteOpened(path);
        util::logInfo("{}; {}", sourceStatus, pipeline->luminanceUnits().describe());
        say(ui::MessageKind::Success, sourceStatus);
        profiler->resetStats();
    } catch (const std::exception& error) {
        sourceStatus = std::string(error.what()) + "; still showing the scene";
        util::logError("{}", sourceStatus);
        say(ui::MessageKind::Error, sourceStatus);
    }
}

void App::Impl::switchToRequestedPreset()
{
    if (!requestedPreset || !sceneSource)
        return;
    const int index = *requestedPreset;
    requestedPreset.reset();
    SceneFrameSource::ReplaceResult result = sceneSource->replaceWith(presets.at(std::size_t(index)).path);
    sourceStatus = result.message;
    if (result.replaced) {
        currentPreset = index;
        sourceStatus.clear();  // the combo and the description say what is shown
        util::logInfo("{}", result.message);
        say(ui::MessageKind::Success, result.message);
        profiler->resetStats();
    } else {
        util::logError("{}", result.message);
        say(ui::MessageKind::Error, result.message);
    }
}

void App::Impl::reloadChangedShaders()
{
    const std::vector<std::string> changed = shaderWatcher->poll();
    if (changed.empty())
        return;
    const gl::ShaderReload reload = shaders->reload(changed);
    std::string files;
    for (const std::string& file : changed)
        files += (files.empty() ? "" : ", ") + file;
    std::cout << "shaders: " << files << " changed: rebuilt " << reload.rebuilt << " program(s)"
              << (reload.errors.empty() ? "" : util::format(", {} kept their last good version", reload.errors.size()))
              << std::endl;
    shaderStatus.clear();
    for (const std::string& error : reload.errors) {
        util::logError("shader reload: {}", error);
        if (shaderStatus.empty())
            shaderStatus = "shader reload failed, the last good program runs: " + error;
    }
    if (!shaderStatus.empty())
        say(ui::MessageKind::Error, shaderStatus);
    else
        say(ui::MessageKind::Success, util::format("shaders reloaded: {} program(s) rebuilt", reload.rebuilt));
    if (reload.rebuilt > 0)
        profiler->resetStats();
}

int App::Impl::runFrames(int count)
{
    Impl& a = *this;
    int rendered = 0;
    auto last = std::chrono::steady_clock::now();
    while (count < 0 || rendered < count) {
        if (!a.isWindow && !a.source->hasNextFrame())
            break;  // a sequence played to its end, or stopped at a bad frame
        if (a.options.resourceReport && a.frame % *a.options.resourceReport == 0)
            a.reportResources(std::uint64_t(a.frame));
        // The canvas: the window's framebuffer, headless --ui's screenshot, else the frame itself.
        a.canvas = a.uiTarget.valid() ? a.uiTarget.size() : a.source->size();
        double dt = a.fixedDt;
        double scrollY = 0.0;
        std::vector<int> taps;  // keys pressed since the last frame, for the frame source
        if (a.isWindow) {
            if (a.storm && a.storm->apply(a.stormIteration, a.context->window(), *a.pipeline))
                a.profiler->resetStats();
            ++a.stormIteration;
            a.context->pollEvents();
            if (a.context->shouldClose())
                break;
            a.canvas = a.context->framebufferSize();
            if (!windowCanRender(a.canvas, a.context->isMinimised())) {  // nothing to draw into
                if (a.storm)
                    a.storm->noteSkippedFrame();
                std::this_thread::sleep_for(std::chrono::milliseconds(a.storm ? 1 : 50));
                last = std::chrono::steady_clock::now();
                continue;
            }
            a.openDroppedFiles();
            scrollY = a.windowEvents->takeScrollY();
            if (a.storm)
                a.storm->noteRenderedFrame(a.canvas);
            auto now = std::chrono::steady_clock::now();
            if (!a.options.fixedStep)
                dt = std::clamp(std::chrono::duration<double>(now - last).count(), 0.0, kMaxWindowDt);
            last = now;
            // The keys' press events (app/AppKeys.cpp): Tab hides or shows every panel, F1 the key help.
            const bool keyboardFree = !(a.showUi && a.imgui && a.imgui->wantsKeyboard());
            taps = a.handleKeys(a.windowEvents->takeKeyPresses(), keyboardFree);
        }

        a.switchToRequestedPreset();  // between frames: the old scene's last frame is done
        a.updateWindowTitle();
        if (a.shaderWatcher)
            a.reloadChangedShaders();
        auto beginTimedFrame = [&a] {
            a.pacer->beginFrame();
            a.profiler->beginFrame();
            if (a.recordForOutputs && a.frame == a.recordFrom && a.uiCaptureFrames == 0 && !a.uiRecording)
                a.profiler->startRecording();
        };
        // While the panels are in use the window may show the kept picture instead of a new frame
        // (not when the viewport's size changes: the picture must follow it).
        bool reuse = a.isWindow && a.showUi && a.imgui && a.keepPictureWhileInteracting && a.keptPicture.valid() &&
                     !a.split->active() && a.panelsBusy();
        if (!reuse)
            beginTimedFrame();
        double pathSeconds = a.frame * a.fixedDt;
        bool drawUi = a.imgui && (a.isWindow ? a.showUi : a.options.ui);
        if (a.imgui)
            a.updateUiScale();
        if (drawUi)
            a.imgui->newFrame(a.canvas, dt);
        a.layOutFrame(drawUi);  // the panels' regions decide where the frame goes, and its size
        if (reuse && (!drawUi || a.frameSize != a.source->size() || a.keptPicture.size() != a.source->size())) {
            reuse = false;
            beginTimedFrame();
        }
        if (reuse) {
            a.presentKeptPicture(pathSeconds);
            a.writeWindowPngIfAsked();
            a.context->swapBuffers();
            a.windowFrameRates.note(true);
            continue;
        }
        const glm::ivec2 viewportSize{a.viewport.z, a.viewport.w};
        if ((a.isWindow || a.uiTarget.valid()) && a.source->followsWindowSize() && a.frameSize != a.source->size()) {
            a.source->resize(a.frameSize);
            // Times at two sizes do not mix: the statistics start over, and the status line says why.
            if (a.frame > 0 && !a.storm) {
                a.profiler->resetStats();
                a.say(ui::MessageKind::Info,
                      util::format("timings restarted: the frame is now {}x{}", a.frameSize.x, a.frameSize.y));
            }
        }
        FrameSourceInput input{nullptr, viewportSize, {0.0, 0.0}, dt, pathSeconds, true, true, scrollY};
        bool mouseFree = true;
        if (a.isWindow) {
            mouseFree = !(drawUi && a.imgui->wantsMouse());
            if (a.updateDividerDrag(mouseFree))
                mouseFree = false;       // the drag moves the divider, not the camera or the image
            if (!a.options.fixedStep) {  // on the fixed step the camera path drives the scene
                input.window = a.context->window();
                input.cursor = a.cursorInCanvas() - glm::dvec2(a.viewport.x, a.viewport.y);
                input.mouseFree = mouseFree;
                input.keyboardFree = !(drawUi && a.imgui->wantsKeyboard());
                if (input.keyboardFree)
                    input.keysPressed = std::move(taps);
            }
        }
        a.source->update(input);
        a.updateProbes(mouseFree);
        a.noteExposureFrame(dt);
        a.renderFrame(dt, pathSeconds, drawUi);
        a.writeSequenceOutputs();
        a.collectKeyValues();
        if (a.frameObserver)
            a.frameObserver(a.source->frameNumber().value_or(a.frame));
        ++a.frame;
        ++rendered;
        if (a.isWindow) {
            if (a.options.windowScreenshot && a.frame == a.frameCount) {
                writeBackBufferPng(*a.options.windowScreenshot, a.canvas);
                std::cout << "wrote " << a.options.windowScreenshot->string() << "; " << a.describeLayout() << "\n";
            }
            a.writeWindowPngIfAsked();
            a.context->swapBuffers();
            a.windowFrameRates.note(false);
        }
        a.profiler->endFrame();
        a.pacer->endFrame();
        a.updateUiCapture();
        if (a.storm && gl::takeErrorCount() > 0)
            throw std::runtime_error("resize storm, " +
                                     a.storm->describe(a.stormIteration - 1, a.pipeline->settings()) +
                                     ": GL error: " + gl::lastErrorMessage());
    }
    return rendered;
}

void App::Impl::WindowFrameRates::note(bool kept)
{
    const auto now = std::chrono::steady_clock::now();
    if (last && lastKept == kept) {  // an interval between two kinds is neither rate
        std::deque<double>& intervals = kept ? keptMs : renderedMs;
        intervals.push_back(std::chrono::duration<double, std::milli>(now - *last).count());
        if (intervals.size() > kKeptIntervals)
            intervals.pop_front();
    }
    last = now;
    lastKept = kept;
}

std::string App::Impl::describeKeptPictureRate() const
{
    auto describe = [](const std::deque<double>& intervals) {
        std::vector<double> ms(intervals.begin(), intervals.end());
        std::sort(ms.begin(), ms.end());
        const double median = ms[ms.size() / 2];
        char text[96];
        std::snprintf(text, sizeof text, "%zu intervals, median %.1f ms (%.1f fps)", ms.size(), median,
                      median > 0.0 ? 1000.0 / median : 0.0);
        return std::string(text);
    };
    const WindowFrameRates& rates = windowFrameRates;
    if (rates.keptMs.empty())
        return {};
    return "kept picture while the panels were in use: " + describe(rates.keptMs) +
           (rates.renderedMs.empty() ? std::string() : "; rendered frames: " + describe(rates.renderedMs));
}

post::ImageInput App::Impl::frameInput() const
{
    return {source->hdr(), source->size(), source->preExposure()};
}

void App::Impl::noteExposureFrame(double dt)
{
    collectKeyValues();  // a new operator starts the series over before its first frame is added
    clockSeconds += dt;
    // The frame-time plot shows what a frame took on the wall clock: dt is the simulated step, a fixed
    // 1/60 s headless and on --fixed-step however long the frame took.
    const auto now = std::chrono::steady_clock::now();
    const double frameMs =
        lastExposureFrame ? std::chrono::duration<double, std::milli>(now - *lastExposureFrame).count() : dt * 1000.0;
    lastExposureFrame = now;
    const std::uint64_t index = profiler->frameIndex();
    exposurePlot.addFrame(index, clockSeconds, frameMs);
    runExposure.addFrame(index, clockSeconds, frameMs);
    const long long number = source->frameNumber().value_or(frame);
    recentSourceFrames.emplace_back(index, number);
    if (std::find(options.knownCuts.begin(), options.knownCuts.end(), number) != options.knownCuts.end()) {
        cuts.push_back({index, number, 0.0f, false});  // found by another run: the shots, not this operator's
        exposurePlot.markCut(index);
        runExposure.markCut(index);
    }
    while (recentSourceFrames.size() > 256)  // key values arrive a few frames late
        recentSourceFrames.pop_front();
}

void App::Impl::collectKeyValues()
{
    post::ToneOperator& op = pipeline->toneOperator();
    if (op.id() != keyValueOperator) {
        keyValueOperator = std::string(op.id());
        exposurePlot.clear();
        runExposure.clear();
        cuts.clear();
        cutCountSeen = 0;
    }
    for (const post::KeyValueSample& sample : op.takeKeyValues()) {
        exposurePlot.setKeyValue(sample.frameIndex, sample.ev);
        runExposure.setKeyValue(sample.frameIndex, sample.ev);
        if (sample.cutCount < cutCountSeen)  // the operator's state was reset
            cutCountSeen = sample.cutCount;
        if (sample.cutCount == cutCountSeen)
            continue;
        // The count says how many; the state keeps the last one's frame (an earlier one whose readback
        // was skipped is counted but has no frame).
        if (sample.cutCount > cutCountSeen + 1)
            util::logWarning("{} cut(s) before frame index {} were not read back", sample.cutCount - cutCountSeen - 1,
                             sample.lastCutFrame);
        cutCountSeen = sample.cutCount;
        CutRecord cut{sample.lastCutFrame, (long long)sample.lastCutFrame, sample.lastCutDistanceEv, sample.cutSnaps};
        for (const auto& [index, number] : recentSourceFrames)
            if (index == sample.lastCutFrame)
                cut.sourceFrame = number;
        cuts.push_back(cut);
        exposurePlot.markCut(cut.frameIndex);
        runExposure.markCut(cut.frameIndex);
        std::cout << describeCut(cut) << std::endl;
    }
}

std::string App::Impl::describeCut(const CutRecord& cut) const
{
    char distance[32];
    std::snprintf(distance, sizeof distance, "%.2f", double(cut.distanceEv));
    return util::format("cut at frame {}: histogram mean log2 L moved {} EV ({})", cut.sourceFrame, distance,
                        cut.snapped ? "exposure snapped to the new target" : "no snap: adapting");
}

}  // namespace app
