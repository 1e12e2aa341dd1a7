#include "ui/TimingsPanel.h"

#include "profiling/TimingRows.h"
#include "ui/ExposurePanel.h"
#include "ui/InView.h"
#include "ui/TextFit.h"
#include "ui/Widgets.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

namespace ui {
namespace {

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
    helpMarker(
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
    helpMarker(
        "Record keeps recording until stopped, then writes the frames like Capture. Recording keeps a ring of "
        "the last N frames (--capture-frames sets it at start): older frames are dropped and counted in the "
        "capture's dropped_frames, so memory stays bounded however long the window records.");
    if (mode != CaptureMode::Idle)
        TextDisabledWrapped("recording: " + describeRing(profiler));
}

void TimingsPanel::drawPassTable(const profiling::Profiler& profiler)
{
    const std::vector<profiling::TimingRow> rows = profiling::timingRows(profiler);
    mUnit = profiling::tableUnit(rows, mUnit);  // with a margin: the unit does not flip at 1 ms
    const profiling::TimeUnit unit = mUnit;
    const std::string unitName(profiling::unitName(unit));
    const ImGuiStyle& style = ImGui::GetStyle();

    // One-line headers with the unit in each ("mean ms"): the header is the table's first line, in
    // view with the rows; the title, the toggle and the legend come after the rows.
    const std::vector<std::string> headers = profiling::timingHeaders(unit, mShowLastAndStd, ' ');
    const std::size_t columns = headers.size();

    // Which rows are drawn: a row with children folds them (the scene's sub-passes start folded).
    std::vector<bool> hasChildren(rows.size(), false);
    for (std::size_t r = 0; r + 1 < rows.size(); ++r)
        hasChildren[r] = rows[r + 1].depth > rows[r].depth;
    std::vector<bool> drawn(rows.size(), true);
    int foldedRows = 0;
    for (std::size_t r = 0; r < rows.size(); ++r) {
        if (!drawn[r] || !hasChildren[r] || !folded(rows[r].name))
            continue;
        for (std::size_t child = r + 1; child < rows.size() && rows[child].depth > rows[r].depth; ++child)
            if (drawn[child]) {
                drawn[child] = false;
                ++foldedRows;
            }
    }
    recordFoldedRows("Timings", foldedRows);

    // Column widths from what they hold, so the layout can be told the narrowest width that needs no
    // sideways scrolling (minimumWidth).
    const float indentStep = scaled(10.0f);
    const float arrow = ImGui::GetTreeNodeToLabelSpacing();
    std::vector<profiling::TimingCells> cells;
    std::vector<float> widths(columns, 0.0f);
    for (std::size_t c = 0; c < columns; ++c)
        widths[c] = ImGui::CalcTextSize(headers[c].c_str()).x;
    for (std::size_t r = 0; r < rows.size(); ++r) {
        const profiling::TimingRow& row = rows[r];
        profiling::TimingCells& cell = cells.emplace_back(profiling::timingCells(row, unit));
        if (!row.cached && row.gpu.count == 0 && row.lastGpuMs)
            cell.mean = profiling::formatTime(*row.lastGpuMs, unit);  // greyed: the last time while warming up
        std::vector<std::string_view> texts = {row.label, cell.mean, cell.min, cell.max};
        if (mShowLastAndStd) {
            texts.push_back(cell.last);
            texts.push_back(cell.stddev);
        }
        texts.push_back(cell.source);
        for (std::size_t c = 0; c < columns; ++c) {
            float width = ImGui::CalcTextSize(texts[c].data(), texts[c].data() + texts[c].size()).x;
            if (c == 0)
                width += float(row.depth) * indentStep + arrow;
            widths[c] = std::max(widths[c], width);
        }
    }
    float tableWidth = 0.0f;
    for (float width : widths)
        tableWidth += width + 2.0f * style.CellPadding.x;
    tableWidth += float(columns - 1);  // inner borders
    const std::string title = "Passes, last " + std::to_string(profiling::Profiler::kWindow) + " frames";
    const std::string legend(profiling::sourceLegend());
    float contentWidth =
        std::max({tableWidth, ImGui::CalcTextSize(legend.c_str()).x,
                  ImGui::CalcTextSize(title.c_str()).x + style.ItemSpacing.x + ImGui::GetFrameHeight() +
                      ImGui::CalcTextSize("last, std (?)").x + 3.0f * style.ItemSpacing.x + style.ItemInnerSpacing.x});
    mMinimumWidth = std::ceil(contentWidth + 2.0f * style.WindowPadding.x + style.ScrollbarSize);

    // No sideways scrolling: the pass column takes what the numbers leave (and clips, with the full name
    // on hover, only where the pane is narrower than minimumWidth()).
    constexpr ImGuiTableFlags kFlags =
        ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
    const float tableLeft = ImGui::GetCursorScreenPos().x;
    // Rows a line apart (half the default cell padding down): the pipeline's passes fit the strip.
    ImGui::PushStyleVar(ImGuiStyleVar_CellPadding, ImVec2(style.CellPadding.x, 1.0f));
    const bool table = ImGui::BeginTable("passes", int(columns), kFlags);
    ImGui::PopStyleVar();
    if (table) {
        for (std::size_t c = 0; c < columns; ++c)
            ImGui::TableSetupColumn(headers[c].c_str(),
                                    c == 0 ? ImGuiTableColumnFlags_WidthStretch : ImGuiTableColumnFlags_WidthFixed,
                                    c == 0 ? 0.0f : widths[c]);
        ImGui::TableHeadersRow();
        recordInView("Timings header", ImVec2(tableLeft, ImGui::GetItemRectMin().y), ImGui::GetItemRectMax());
        for (std::size_t r = 0; r < rows.size(); ++r)
            if (drawn[r])
                drawRow(rows[r], cells[r], hasChildren[r], unit, tableLeft);
        ImGui::EndTable();
    }

    ImGui::TextDisabled("%s", title.c_str());
    ImGui::SameLine();
    ImGui::Checkbox("last, std", &mShowLastAndStd);
    helpMarker(
        "The passes that ran in the last few frames, in the order they ran, each under the pass that encloses "
        "it (click an arrow to fold or unfold a pass's parts; the scene's start folded). mean, min, max (and "
        "last, std dev) are over the frames since the last change, in the unit the header says (ms, or us when "
        "every mean is below 0.8 ms; back to ms at 1 ms); the statistics restart after any change, or a new "
        "viewport size, and skip the first frames (greyed: the last time meanwhile). Timer results arrive a "
        "few frames late and never stall the frame. Source: G = GL timer query, C = CUDA event, cpu = the "
        "pass's CPU time stands in because the GPU's timers measure nothing here (a software renderer). "
        "'cached': the pass reused an earlier frame's result (a shadow map when nothing moved). Hover a name "
        "for its full name and last time.");
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    textWrapped(legend);  // on two lines in a narrow pane (800x600)
    ImGui::PopStyleColor();
}

bool TimingsPanel::folded(const std::string& name) const
{
    const auto it = mFolded.find(name);
    // Folded at first: the scene's sub-passes, and the parts of a pipeline pass's parts ("tonemap/ward"
    // shows "curve" and "apply"; "curve" folds "fit").
    return it != mFolded.end() ? it->second : name == "scene" || std::count(name.begin(), name.end(), '/') >= 2;
}

void TimingsPanel::drawRow(const profiling::TimingRow& row,
                           const profiling::TimingCells& cell,
                           bool hasChildren,
                           profiling::TimeUnit unit,
                           float tableLeft)
{
    const std::string unitName(profiling::unitName(unit));
    const ImVec4 greyed = ImGui::GetStyle().Colors[ImGuiCol_TextDisabled];
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    const float indent = float(row.depth) * scaled(10.0f) + (hasChildren ? 0.0f : ImGui::GetTreeNodeToLabelSpacing());
    if (indent > 0.0f)
        ImGui::Indent(indent);
    if (hasChildren) {
        ImGui::SetNextItemOpen(!folded(row.name), ImGuiCond_Always);
        const bool open =
            ImGui::TreeNodeEx(row.name.c_str(), ImGuiTreeNodeFlags_NoTreePushOnOpen, "%s", row.label.c_str());
        mFolded[row.name] = !open;
    } else {
        textElided(row.label);  // a narrow pane (800x600) shortens the name; the whole name is on hover
    }
    if (ImGui::IsItemHovered()) {
        std::string tip = row.name;
        if (row.cached)
            tip += "\ncached: reused an earlier frame's result, nothing ran";
        if (row.cached && row.lastGpuMs)
            tip += "\nlast ran in " + profiling::formatTime(*row.lastGpuMs, unit) + " " + unitName;
        if (!row.cached)
            tip += "\nsource: " + std::string(profiling::toString(row.source));
        if (!row.cached && row.gpu.count > 0)
            tip += "\nlast " + cell.last + " " + unitName + ", std dev " + cell.stddev + " " + unitName + " over " +
                   std::to_string(row.gpu.count) + " frames";
        if (!row.cached && row.gpu.count == 0)
            tip += "\nno samples yet: the first frames after a change are not counted (greyed: the last time)";
        ImGui::SetTooltip("%s", tip.c_str());
    }
    if (indent > 0.0f)
        ImGui::Unindent(indent);
    std::vector<const std::string*> numbers = {&cell.mean, &cell.min, &cell.max};
    if (mShowLastAndStd) {
        numbers.push_back(&cell.last);
        numbers.push_back(&cell.stddev);
    }
    for (const std::string* number : numbers) {
        ImGui::TableNextColumn();
        // Right-aligned, so digits line up.
        const float offset = ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize(number->c_str()).x;
        if (offset > 0.0f)
            ImGui::SetCursorPosX(ImGui::GetCursorPosX() + offset);
        if (row.cached || row.gpu.count == 0)
            ImGui::TextColored(greyed, "%s", number->c_str());
        else
            ImGui::TextUnformatted(number->c_str());
    }
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(cell.source.data(), cell.source.data() + cell.source.size());
    if (!cell.source.empty())
        showTooltipOnHover(std::string(profiling::toString(row.source)).c_str());
    recordInView("Timings row '" + row.name + "'", ImVec2(tableLeft, ImGui::GetItemRectMin().y),
                 ImVec2(ImGui::GetItemRectMax().x, ImGui::GetItemRectMin().y + ImGui::GetTextLineHeight()));
}

TimingsPanelActions TimingsPanel::draw(const profiling::Profiler& profiler,
                                       const std::string& captureStatus,
                                       CaptureMode mode)
{
    const TextFitPanel scope("Timings");
    TimingsPanelActions actions;
    drawPassTable(profiler);

    // The recorded frames' times against the time before the newest frame (each frame's own length
    // spaces them), with the same axes as the Exposure panel's plots.
    const std::vector<float> frameTimes = profiler.frameTimeHistory();
    const util::Summary frame = profiler.frameTimeMs();
    std::vector<TimeSample> samples(frameTimes.size());
    double msBefore = 0.0;
    for (std::size_t i = frameTimes.size(); i-- > 0;) {
        samples[i] = {float(-msBefore / 1000.0), frameTimes[i]};
        msBefore += frameTimes[i];
    }
    if (frame.count)
        text("frame time (ms), mean %s ms",
             profiling::formatTime(frame.mean, profiling::TimeUnit::Milliseconds).c_str());
    else
        textUnformatted("frame time (ms)");
    drawTimePlot("##frametime", samples, float(std::max(msBefore / 1000.0, 1e-3)), 0.0f,
                 float(std::max(frame.max * 1.2, 1.0)), 4.0f * ImGui::GetFrameHeight(), "ms");

    ImGui::Separator();
    drawCaptureControls(profiler, mode, actions);
    if (!captureStatus.empty())
        textWrapped(captureStatus);
    return actions;
}

}  // namespace ui
