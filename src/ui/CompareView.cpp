#include "ui/CompareView.h"

#include "ui/LogLogPlot.h"
#include "ui/TextFit.h"
#include "ui/Widgets.h"
#include "util/Log.h"

#include <imgui.h>

#include <algorithm>
#include <string>
#include <vector>

namespace ui {

namespace {

std::vector<float> toFloats(const std::vector<std::uint32_t>& values)
{
    return std::vector<float>(values.begin(), values.end());
}

void drawTable(const app::CompareReport& report)
{
    const ImGuiTableFlags flags =
        ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollX;
    // As tall as its rows (a scrolling table would fill the window and push the chart out of sight).
    const ImGuiStyle& style = ImGui::GetStyle();
    const float rowHeight = ImGui::GetTextLineHeight() + 2.0f * style.CellPadding.y;
    const float height = rowHeight * float(report.rows.size() + 1) + style.ScrollbarSize + 4.0f;
    if (!ImGui::BeginTable("compare-table", 7, flags, ImVec2(0.0f, height)))
        return;
    ImGui::TableSetupColumn("method");
    ImGui::TableSetupColumn("bins");
    ImGui::TableSetupColumn("median ms");
    ImGui::TableSetupColumn("min..max ms");
    ImGui::TableSetupColumn("vs CPU");
    ImGui::TableSetupColumn("curve");
    ImGui::TableSetupColumn("status");
    ImGui::TableHeadersRow();
    for (const app::CompareRow& row : report.rows) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        textUnformatted(row.id);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("%s\n%s", row.label.c_str(), row.limits.c_str());
        if (!row.available || row.failed) {
            ImGui::TableNextColumn();
            ImGui::TableNextColumn();
            textDisabled("%s", row.failed ? "failed" : "unavailable");
            for (int i = 0; i < 3; ++i)
                ImGui::TableNextColumn();
            ImGui::TableNextColumn();
            textDisabled("%s", row.reason.c_str());
            continue;
        }
        const char* mark = row.gpuTimer ? "" : "*";
        ImGui::TableNextColumn();
        text("%u", row.bins);
        ImGui::TableNextColumn();
        text("%.3f%s", row.medianMs, mark);
        ImGui::TableNextColumn();
        text("%.3f..%.3f", row.minMs, row.maxMs);
        ImGui::TableNextColumn();
        if (row.exact())
            textColoured(ImVec4(0.4f, 0.9f, 0.4f, 1.0f), "exact");
        else if (row.gpuTotal == row.cpuTotal && row.countersEqual && row.onlyNeighbourMoves)
            text("L1 %llu (edges)", static_cast<unsigned long long>(row.l1Difference));
        else
            textColoured(ImVec4(1.0f, 0.4f, 0.3f, 1.0f), "L1 %llu, max %llu, total %llu/%llu",
                         static_cast<unsigned long long>(row.l1Difference),
                         static_cast<unsigned long long>(row.maxBinDifference),
                         static_cast<unsigned long long>(row.gpuTotal), static_cast<unsigned long long>(row.cpuTotal));
        ImGui::TableNextColumn();
        if (row.curveDifference)
            text("%.3g", *row.curveDifference);
        else
            textDisabled("-");
        ImGui::TableNextColumn();
        textUnformatted(row.status);
    }
    ImGui::EndTable();
}

}  // namespace

void drawCompareResults(const std::vector<app::CompareReport>& sweep)
{
    const TextFitPanel scope("Compare all");
    const app::CompareReport& report = sweep.back();
    textWrappedFormat("%s: %dx%d, %u bins over log2 L [%.2f, %.2f], %u builds each (%s)", report.source.c_str(),
                      report.size.x, report.size.y, report.bins, report.logMin, report.logMax, report.repeat,
                      report.renderer.c_str());
    drawTable(report);

    std::vector<const app::CompareRow*> ran;
    for (const app::CompareRow& row : report.rows)
        if (row.available && !row.failed)
            ran.push_back(&row);
    textDisabledWrappedFormat(
        "Median build time against bins: change the bins and press Compare all again to add a point "
        "per method (%zu bin count%s so far).",
        sweep.size(), sweep.size() == 1 ? "" : "s");
    drawLogLogPlot("##compare-chart", app::compareTimeChart(sweep), scaled(240.0f));
    if (!ran.empty()) {
        static int selected = 0;
        selected = std::clamp(selected, 0, int(ran.size()) - 1);
        std::vector<const char*> ids;
        for (const app::CompareRow* row : ran)
            ids.push_back(row->id.c_str());
        ImGui::Combo("histogram of", &selected, ids.data(), int(ids.size()));
        checkItemFits("histogram of");
        const std::vector<float> method = toFloats(ran[std::size_t(selected)]->histogram);
        const std::vector<float> cpu = toFloats(report.cpuHistogram);
        float top = 1.0f;
        for (float v : method)
            top = std::max(top, v);
        for (float v : cpu)
            top = std::max(top, v);
        ImGui::PlotHistogram("method", method.data(), int(method.size()), 0, nullptr, 0.0f, top,
                             ImVec2(-scaled(80.0f), scaled(70.0f)));
        checkItemFits("method");
        ImGui::PlotHistogram("CPU", cpu.data(), int(cpu.size()), 0, nullptr, 0.0f, top,
                             ImVec2(-scaled(80.0f), scaled(70.0f)));
        checkItemFits("CPU");
    }
    textDisabledWrappedFormat("curve: %s", report.curveMeasure.c_str());
}

}  // namespace ui
