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
    ImGui::SetNextItemWidth(scaled(100.0f));
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
    int ring = ringFrames;
    ImGui::SetNextItemWidth(scaled(100.0f));
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
        TextDisabledWrapped("recording: " + describeRing(profiler));
}

TimingsPanelActions TimingsPanel::draw(const profiling::Profiler& profiler,
                                       const std::string& captureStatus,
                                       CaptureMode mode)
{
    TimingsPanelActions actions;
    std::vector<profiling::PassStats> passes = profiler.passStats();
    ImGui::TextDisabled("GPU ms over the last %zu frames", profiling::Profiler::kWindow);
    HelpMarker(
        "The statistics restart after any change. Timer results arrive a few frames late and never stall the "
        "frame. 'CPU' means the GPU's timer queries measure nothing here (software renderer), so the pass's CPU "
        "time stands in. The table scrolls sideways where the column is narrower than it; the pass names stay.");
    // Scrolls sideways with the pass column frozen; as tall as its rows (a scrolling table would
    // otherwise fill the column and push the rest out of sight).
    constexpr ImGuiTableFlags kFlags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                                       ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollX;
    const ImGuiStyle& style = ImGui::GetStyle();
    const float rowHeight = ImGui::GetTextLineHeight() + 2.0f * style.CellPadding.y;
    const float tableHeight = rowHeight * float(passes.size() + 1) + style.ScrollbarSize + style.CellPadding.y;
    if (ImGui::BeginTable("passes", 7, kFlags, ImVec2(0.0f, tableHeight))) {
        ImGui::TableSetupScrollFreeze(1, 1);
        for (const char* title : {"pass", "mean", "last", "min", "max", "std dev", "source"})
            ImGui::TableSetupColumn(title);
        ImGui::TableHeadersRow();
        for (const profiling::PassStats& pass : passes) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            // A scope nested in another is named "<outer>/<inner>": indent by the number of timed
            // scopes whose name is a path prefix of this one ("tonemap/ward" -> "tonemap/ward/curve")
            // and show the part after the innermost ("curve"; the whole name on hover), so the
            // column stays narrow enough for the numbers beside it.
            int depth = 0;
            std::size_t parentLength = 0;
            for (const profiling::PassStats& outer : passes)
                if (outer.name.size() < pass.name.size() && pass.name.compare(0, outer.name.size(), outer.name) == 0 &&
                    pass.name[outer.name.size()] == '/') {
                    ++depth;
                    parentLength = std::max(parentLength, outer.name.size() + 1);
                }
            float indent = float(depth) * scaled(10.0f);
            if (indent > 0.0f)
                ImGui::Indent(indent);
            ImGui::TextUnformatted(pass.name.c_str() + parentLength);
            if (parentLength > 0 && ImGui::IsItemHovered())
                ImGui::SetTooltip("%s", pass.name.c_str());
            if (indent > 0.0f)
                ImGui::Unindent(indent);
            if (pass.gpu.count == 0) {
                ImGui::TableNextColumn();
                // Warm-up frames are not counted, and some passes (the static scene's shadow maps) run
                // only then.
                ImGui::TextDisabled("-");
                showTooltipOnHover("no samples: warm-up frames are not counted");
                continue;
            }
            for (double value : {pass.gpu.mean, pass.gpu.last, pass.gpu.min, pass.gpu.max, pass.gpu.stddev}) {
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
                     float(std::max(frame.max * 1.2, 1.0)),
                     ImVec2(ImGui::GetContentRegionAvail().x, 3.0f * ImGui::GetFrameHeight()));

    ImGui::Separator();
    drawCaptureControls(profiler, mode, actions);
    if (!captureStatus.empty())
        ImGui::TextWrapped("%s", captureStatus.c_str());
    return actions;
}

}  // namespace ui
