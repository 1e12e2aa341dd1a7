#include "ui/TimingsPanel.h"

#include "ui/Widgets.h"

#include <imgui.h>

#include <algorithm>
#include <string>

namespace ui {
namespace {

const char* shortSource(profiling::TimeSource source)
{
    switch (source) {
        case profiling::TimeSource::GlTimerQuery:
            return "GL query";
        case profiling::TimeSource::CudaEvent:
            return "CUDA event";
        case profiling::TimeSource::CpuFallback:
            return "CPU";
    }
    return "?";
}

/// "1234 frames kept (ring of 10000), 56 older frames dropped".
std::string describeRing(const profiling::Profiler& profiler)
{
    std::string text = std::to_string(profiler.recordedFrames().size()) + " frames kept (ring of " +
                       std::to_string(profiler.recordingCapacity()) + ")";
    if (profiler.droppedFrames() > 0)
        text += ", " + std::to_string(profiler.droppedFrames()) + " older frames dropped";
    return text;
}

}  // namespace

void TimingsPanel::drawCaptureControls(const profiling::Profiler& profiler,
                                       CaptureMode mode,
                                       TimingsPanelActions& actions)
{
    const int ringFrames = int(profiler.recordingCapacity());
    ImGui::BeginDisabled(mode != CaptureMode::Idle);
    if (ImGui::Button("Capture")) {
        actions.captureRequested = true;
        actions.captureFrames = mCaptureFrames;
    }
    ImGui::SameLine();
    ImGui::SetNextItemWidth(100);
    ImGui::InputInt("frames", &mCaptureFrames, 10, 100);
    mCaptureFrames = std::clamp(mCaptureFrames, 1, ringFrames);
    ImGui::EndDisabled();
    HelpMarker(
        "Records the next N frames' pass timings and writes hdrlab-capture-<time>.json (Chrome trace events: "
        "open in ui.perfetto.dev) and .csv into the working directory.");

    if (mode == CaptureMode::RecordingUntilStopped) {
        if (ImGui::Button("Stop and write"))
            actions.stopRequested = true;
    } else {
        ImGui::BeginDisabled(mode != CaptureMode::Idle);
        if (ImGui::Button("Record"))
            actions.recordRequested = true;
        ImGui::EndDisabled();
    }
    ImGui::SameLine();
    int ring = ringFrames;
    ImGui::SetNextItemWidth(100);
    if (ImGui::InputInt("keep last N frames", &ring, 1000, 10000, ImGuiInputTextFlags_EnterReturnsTrue)) {
        ring = std::clamp(ring, 1, int(profiling::Profiler::kMaxRecordingCapacity));
        if (ring != ringFrames)
            actions.ringFrames = std::size_t(ring);
    }
    HelpMarker(
        "Record keeps recording until stopped, then writes the frames like Capture. Recording keeps a ring of "
        "the last N frames (--capture-frames sets it at start): older frames are dropped and counted in the "
        "capture's dropped_frames, so memory stays bounded however long the window records.");
    if (mode != CaptureMode::Idle)
        ImGui::TextDisabled("recording: %s", describeRing(profiler).c_str());
}

TimingsPanelActions TimingsPanel::draw(const profiling::Profiler& profiler,
                                       const std::string& captureStatus,
                                       CaptureMode mode)
{
    TimingsPanelActions actions;
    ImGuiIO& io = ImGui::GetIO();
    ImGui::SetNextWindowPos(ImVec2(std::max(8.0f, io.DisplaySize.x - 608), 8), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(600, 360), ImGuiCond_FirstUseEver);
    if (!ImGui::Begin("Timings")) {
        ImGui::End();
        return actions;
    }
    std::vector<profiling::PassStats> passes = profiler.passStats();
    ImGui::TextDisabled("GPU ms over the last %zu frames (statistics restart after any change)",
                        profiling::Profiler::kWindow);
    HelpMarker(
        "Timer results arrive a few frames late and never stall the frame. 'CPU' means the GPU's timer "
        "queries measure nothing here (software renderer), so the pass's CPU time stands in.");
    constexpr ImGuiTableFlags kFlags =
        ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
    if (ImGui::BeginTable("passes", 7, kFlags)) {
        for (const char* title : {"pass", "last", "mean", "min", "max", "std dev", "source"})
            ImGui::TableSetupColumn(title);
        ImGui::TableHeadersRow();
        for (const profiling::PassStats& pass : passes) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            // A scope nested in another is named "<outer>/<inner>": indent by the number of timed
            // scopes whose name is a path prefix of this one ("tonemap/ward" -> "tonemap/ward/curve").
            int depth = 0;
            for (const profiling::PassStats& outer : passes)
                if (outer.name.size() < pass.name.size() && pass.name.compare(0, outer.name.size(), outer.name) == 0 &&
                    pass.name[outer.name.size()] == '/')
                    ++depth;
            float indent = float(depth) * 10.0f;
            if (indent > 0.0f)
                ImGui::Indent(indent);
            ImGui::TextUnformatted(pass.name.c_str());
            if (indent > 0.0f)
                ImGui::Unindent(indent);
            if (pass.gpu.count == 0) {
                ImGui::TableNextColumn();
                // Warm-up frames are not counted, and some passes (the static scene's shadow maps) run
                // only then.
                ImGui::TextDisabled("no samples");
                continue;
            }
            for (double value : {pass.gpu.last, pass.gpu.mean, pass.gpu.min, pass.gpu.max, pass.gpu.stddev}) {
                ImGui::TableNextColumn();
                ImGui::Text("%.3f", value);
            }
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(shortSource(pass.source));
        }
        ImGui::EndTable();
    }

    std::vector<float> frameTimes = profiler.frameTimeHistory();
    util::Summary frame = profiler.frameTimeMs();
    std::string overlay = frame.count ? "frame " + std::to_string(frame.mean).substr(0, 5) + " ms mean" : "frame time";
    ImGui::PlotLines("##frametime", frameTimes.data(), int(frameTimes.size()), 0, overlay.c_str(), 0.0f,
                     float(std::max(frame.max * 1.2, 1.0)), ImVec2(ImGui::GetContentRegionAvail().x, 60));

    ImGui::Separator();
    drawCaptureControls(profiler, mode, actions);
    if (!captureStatus.empty())
        ImGui::TextWrapped("%s", captureStatus.c_str());
    ImGui::End();
    return actions;
}

}  // namespace ui
