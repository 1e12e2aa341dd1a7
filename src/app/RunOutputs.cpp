// RunOutputs.cpp: the live app's run end and captures (app/AppImpl.h): the files written after the
// last frame (screenshots, --capture, --capture-csv, the sequences' summaries), the summary table,
// the flicker line, --verify's report, the Timings panel's captures and the capture metadata.
#include "app/AppImpl.h"

#include "app/ResourceReport.h"
#include "post/tonemap/LocalTileCurves.h"
#include "util/Log.h"
#include "util/OutputFile.h"
#include "util/Stats.h"
#include "verify/PipelineVerify.h"

#include <cstdio>
#include <filesystem>
#include <iostream>

namespace app {
namespace {

/// "hdrlab-capture.json", or "standard output" for "-".
std::string describeOutput(const std::filesystem::path& path)
{
    return util::isStandardOutput(path) ? std::string("standard output") : path.string();
}

/// Says, once per written capture, that the recording ring dropped older frames.
void logDroppedFrames(const profiling::Profiler& profiler)
{
    if (profiler.droppedFrames() > 0)
        util::logWarning(
            "capture: the recording kept its last {} frames and dropped {} older ones (ring of {} frames; "
            "--capture-frames N or the Timings panel's \"keep last N frames\" sets it)",
            profiler.recordedFrames().size(), profiler.droppedFrames(), profiler.recordingCapacity());
}

/// The flicker figure with a fixed 6 decimals (EV/s), so that two runs compare as text.
std::string formatFlicker(double evPerSecond)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.6f", evPerSecond);
    return text;
}

void printSummary(const std::deque<profiling::FrameRecord>& frames, std::uint64_t droppedFrames)
{
    if (frames.empty()) {
        std::cout << "no frames were recorded (recording starts at frame " << kRecordFromFrame
                  << "; use more --frames)\n";
        return;
    }
    std::cout << "\nper-pass GPU time over " << frames.size() << " recorded frames (" << frames.front().frame << ".."
              << frames.back().frame << ")"
              << (droppedFrames > 0 ? ", " + std::to_string(droppedFrames) + " earlier frames dropped by the ring" : "")
              << ":\n"
              << profiling::formatSummaryTable(profiling::summarizePasses(frames));
    // Frame-to-frame CPU time of the recorded frames (paced at two frames in flight): the frame rate.
    std::vector<double> frameMs;
    for (const profiling::FrameRecord& frame : frames)
        if (frame.cpuFrameMs > 0.0)
            frameMs.push_back(frame.cpuFrameMs);
    if (!frameMs.empty()) {
        const util::Summary s = util::summarize(frameMs);
        std::cout << "frame time: median " << s.median << " ms (" << 1000.0 / s.median << " fps), mean " << s.mean
                  << " ms, min " << s.min << ", max " << s.max << "\n";
    }
}

}  // namespace

void App::Impl::updateUiCapture()
{
    if (uiCaptureFrames > 0 && profiler->framesRecorded() >= std::uint64_t(uiCaptureFrames))
        writeUiCapture();
}

void App::Impl::writeUiCapture()
{
    profiler->stopRecording();
    std::string stem = "hdrlab-capture-" + profiling::timestampForFileName();
    try {
        auto metadata = frameMetadata();
        profiling::writeTraceEventJson(stem + ".json", profiler->recordedFrames(), metadata, profiler->droppedFrames());
        profiling::writeCsv(stem + ".csv", profiler->recordedFrames());
        std::error_code ec;
        captureStatus = util::format("wrote {} frames to {}/{}.json (+ .csv)", profiler->recordedFrames().size(),
                                     std::filesystem::current_path(ec).string(), stem);
        if (profiler->droppedFrames() > 0)
            captureStatus += util::format("; {} older frames were dropped by the ring", profiler->droppedFrames());
        logDroppedFrames(*profiler);
        say(ui::MessageKind::Success, captureStatus);
    } catch (const std::exception& error) {
        captureStatus = std::string("capture failed: ") + error.what();
        say(ui::MessageKind::Error, captureStatus);
    }
    util::logInfo("{}", captureStatus);
    profiler->clearRecording();
    uiCaptureFrames = 0;
    uiRecording = false;
}

profiling::CaptureMetadata App::Impl::frameMetadata() const
{
    auto metadata =
        captureMetadata(caps, profiler->glTimersUseful(), source->name(), source->size(), pipeline->settings());
    if (sceneSource) {
        metadata.emplace_back("scene_lighting", scene::lightingPathName(sceneSource->lightingPath()));
        appendFrameStoreMetadata(metadata, sceneSource->storeStatus());
    }
    if (sequence) {
        metadata.emplace_back("sequence_fps", util::format("{}", sequence->options().fps));
        metadata.emplace_back("sequence_frames", std::to_string(sequence->sequence().fileCount()));
        metadata.emplace_back("sequence_missing", std::to_string(sequence->sequence().missingCount()));
        metadata.emplace_back("sequence_skipped", std::to_string(sequence->skippedFrames()));
        metadata.emplace_back("sequence_on_bad_frame", badFramePolicyName(sequence->options().onBadFrame));
    }
    appendSettingsMetadata(metadata, *pipeline);
    metadata.emplace_back("units", pipeline->luminanceUnits().describe());
    metadata.emplace_back("view", std::string(post::viewModeName(pipeline->viewMode())));
    metadata.emplace_back("split", std::string(post::splitModeName(split->mode())));
    if (split->active() && split->pipelineB()) {
        metadata.emplace_back("split_position", std::to_string(split->position()));
        metadata.emplace_back("split_gain", std::to_string(split->gain()));
        profiling::CaptureMetadata b;
        appendSettingsMetadata(b, *split->pipelineB());
        for (auto& [key, value] : b)
            metadata.emplace_back("b." + key, std::move(value));
    }
    if (const auto probe = pipeline->latestProbe())
        for (std::size_t i = 0; i < probe->samples.size() && i < probeNames.size(); ++i)
            if (probeNames[i] != "mouse")
                metadata.emplace_back(
                    "probe_" + probeNames[i],
                    post::describeProbeSample(probe->samples[i], pipeline->luminanceUnits().probeNote()) +
                        post::describeProbeTiles(probe->samples[i], pipeline->toneOperator()) +
                        pipeline->describeLocalExposureProbe(i));
    const post::ToneOperator& op = pipeline->toneOperator();
    metadata.emplace_back("key_value", std::string(op.keyValueName().empty() ? "none" : op.keyValueName()));
    if (const std::optional<double> flicker = runExposure.flickerEvPerSecond()) {
        metadata.emplace_back("flicker_ev_per_s", formatFlicker(*flicker));
        metadata.emplace_back("flicker_pairs", std::to_string(runExposure.flickerPairs()));
    }
    if (!cuts.empty()) {  // "12 (4.13 EV), 40 (2.50 EV)": the frames that start a new shot
        std::string text;
        for (const CutRecord& cut : cuts) {
            char distance[32];
            std::snprintf(distance, sizeof distance, "%.2f", double(cut.distanceEv));
            text += util::format("{}{} ({} EV)", text.empty() ? "" : ", ", cut.sourceFrame, distance);
        }
        metadata.emplace_back("cuts", text);
    }
    return metadata;
}

void App::Impl::reportResources(std::uint64_t frame)
{
    if (frame == lastResourceReport)
        return;
    lastResourceReport = frame;
    std::cout << formatResourceLine(sampleResources(frame)) << std::endl;
}

void App::Impl::writeSequenceOutputs()
{
    const long long number = source->frameNumber().value_or(frame);
    if (hdrSequenceOut) {
        hdrSequenceOut->enqueue(source->hdr(), number,
                                source->preExposed() ? std::optional<int>(source->preExposure()) : std::nullopt);
        hdrSequenceOut->poll();
    }
    if (displaySequenceOut) {
        const gl::Texture* hdr10 = pipeline->hdrOutputTexture();  // display.target hdr10: the PQ picture
        if (hdr10 && pipeline->viewMode() == post::ViewMode::ToneMapped)
            displaySequenceOut->enqueue(*hdr10, number, std::nullopt, pipeline->lastRun().display.peak);
        else
            displaySequenceOut->enqueue(lastDisplay ? *lastDisplay : pipeline->outputTexture(), number);
        displaySequenceOut->poll();
    }
}

std::string App::Impl::flickerLine() const
{
    const post::ToneOperator& op = pipeline->toneOperator();
    const std::optional<double> flicker = runExposure.flickerEvPerSecond();
    if (!op.keyValueName().empty() && !flicker && !cuts.empty() &&
        post::ExposureHistory::flickerPairs(runExposure.frames()) == 0) {
        // Every frame with a key value is the first of a shot: there is no pair within a shot.
        std::size_t withKey = 0;
        for (const post::ExposureHistory::Frame& f : runExposure.frames())
            withKey += f.keyEv ? 1 : 0;
        if (withKey >= 2)
            return util::format(
                "flicker: none (every frame is a cut: {} cuts in {} frames, no two consecutive frames "
                "of one shot; raise percentile.cut_threshold_ev or set it to 0 to measure across them)",
                cuts.size(), withKey);
    }
    if (op.keyValueName().empty() || !flicker)
        return util::format("flicker: none (operator {} has {})", op.id(),
                            op.keyValueName().empty() ? "no key value" : "no key value on two consecutive frames");
    std::size_t withKey = 0;
    for (const post::ExposureHistory::Frame& f : runExposure.frames())
        withKey += f.keyEv ? 1 : 0;  // as App::flicker
    std::string shots;
    if (!cuts.empty()) {  // the figure is taken within shots (post/ExposureHistory.h)
        shots = util::format("; within {} shots, cuts at frames", cuts.size() + 1);
        for (const CutRecord& cut : cuts)
            shots += util::format(" {}", cut.sourceFrame);
    }
    return util::format("flicker: {} EV/s over {} frames (operator {}, key value {}){}", formatFlicker(*flicker),
                        withKey, op.id(), op.keyValueName(), shots);
}

void App::Impl::waitForTimings()
{
    // Wait for the GPU once so the last frames' timings arrive (never per frame), then harvest them.
    glFinish();
    profiler->beginFrame();
    profiler->endFrame();
}

int App::Impl::finish(int renderedFrames)
{
    // End of the run: wait for the GPU once so the last frames' timings arrive (never per frame).
    glFinish();
    pipeline->pollProbe();  // the last frame's probe records, now complete
    collectKeyValues();     // and the last frames' key values
    profiler->beginFrame();
    if (uiCaptureFrames > 0 || uiRecording)
        writeUiCapture();  // the window closed while a capture from the panel ran: keep what it has
    profiler->stopRecording();
    profiler->endFrame();

    int exitCode = 0;
    if (options.verify) {
        verify::VerifyReport report = verify::verifyPipeline(*pipeline);
        std::cout << "verify (" << pipeline->settings().histogramMethod << ", "
                  << (pipeline->scanMethod() ? pipeline->settings().scanMethod : std::string("built-in CDF")) << ", "
                  << pipeline->settings().toneOperator << "): " << (report.ok ? "ok" : "MISMATCH") << "\n"
                  << report.text << (report.text.empty() || report.text.back() == '\n' ? "" : "\n");
        if (!report.ok)
            exitCode = 1;
    }
    for (FrameSequenceWriter* writer : {hdrSequenceOut.get(), displaySequenceOut.get()})
        if (writer)
            writer->finish();
    if (renderedFrames > 0) {
        const gl::Texture* hdr10 = pipeline->hdrOutputTexture();
        if (options.screenshot && hdr10 && !uiTarget.valid() && pipeline->viewMode() == post::ViewMode::ToneMapped)
            writeHdr10DisplayPng(*options.screenshot, *hdr10, pipeline->lastRun().display.peak,
                                 pipeline->topDownRows());  // display.target hdr10: the PQ picture
        else if (options.screenshot)
            writeDisplayPng(*options.screenshot,
                            uiTarget.valid() ? uiTarget : (lastDisplay ? *lastDisplay : pipeline->outputTexture()));
        if (options.screenshotExr)
            writeHdrExr(*options.screenshotExr, source->hdr(),
                        source->preExposed() ? std::optional<int>(source->preExposure()) : std::nullopt);
    }
    const auto& frames = profiler->recordedFrames();
    auto metadata = frameMetadata();
    if (options.capture) {
        profiling::FrameKeyValues keyValues;
        for (const post::ExposureHistory::Frame& f : runExposure.frames())
            if (f.keyEv)
                keyValues.emplace_back(f.frameIndex, *f.keyEv);
        profiling::writeTraceEventJson(*options.capture, frames, metadata, profiler->droppedFrames(), keyValues);
    }
    if (options.captureCsv)
        profiling::writeCsv(*options.captureCsv, frames);
    if (options.capture || options.captureCsv)
        logDroppedFrames(*profiler);
    if ((!isWindow && !options.resourceReport) || options.capture || options.captureCsv)
        printSummary(frames, profiler->droppedFrames());
    if (!isWindow && !options.resourceReport) {
        std::cout << flickerLine() << "\n";
        if (sceneSource)  // what the frame's storage clipped: never silent
            std::cout << "frame: " << describeFrameStore(sceneSource->storeStatus()) << "\n";
    }
    if (split->active() && !isWindow && !options.resourceReport) {
        const auto& difference = split->histogramDifference();
        std::cout << "split " << post::splitModeName(split->mode()) << ": " << split->sideLabel(*pipeline, false)
                  << " | " << split->sideLabel(*pipeline, true) << "; histograms "
                  << (difference ? post::describeHistogramDifference(*difference) : std::string("pending")) << "\n";
    }
    if (!options.probes.empty()) {
        const auto probe = pipeline->latestProbe();
        if (!probe)
            std::cout << "probe: pending (no frame was read back)\n";
        for (std::size_t i = 0; probe && i < probe->samples.size() && i < probeNames.size(); ++i)
            if (probeNames[i] != "mouse")
                std::cout << "probe " << probeNames[i] << " at "
                          << post::describeProbeSample(probe->samples[i], pipeline->luminanceUnits().probeNote())
                          << post::describeProbeTiles(probe->samples[i], pipeline->toneOperator())
                          << pipeline->describeLocalExposureProbe(i) << "\n";
    }
    for (const auto* path : {&options.screenshot, &options.screenshotExr, &options.capture, &options.captureCsv})
        if (*path && (renderedFrames > 0 || path == &options.capture || path == &options.captureCsv))
            std::cout << "wrote " << describeOutput(**path)
                      << (path == &options.screenshot && uiTarget.valid() ? "; " + describeLayout() : std::string())
                      << "\n";
    for (const FrameSequenceWriter* writer : {hdrSequenceOut.get(), displaySequenceOut.get()})
        if (writer)
            std::cout << writer->summary() << "\n";
    return exitCode;
}

}  // namespace app
