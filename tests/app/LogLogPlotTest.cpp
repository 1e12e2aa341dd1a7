// LogLogPlotTest.cpp: ui::drawLogLogPlot in a bare ImGui context (no window, no GL: ImGui's core
// only needs a font atlas built on the CPU): more points draw more, and empty or degenerate charts
// draw their axes and note without a crash.
#include "ui/LogLogPlot.h"

#include <imgui.h>

#include <gtest/gtest.h>

#include <limits>

namespace {

/// One ImGui frame that draws `data` in a window; returns the vertex count of that frame.
class ImGuiFrame
{
public:
    ImGuiFrame()
    {
        mContext = ImGui::CreateContext();
        ImGuiIO& io = ImGui::GetIO();
        io.DisplaySize = ImVec2(800, 600);
        io.IniFilename = nullptr;
        unsigned char* pixels = nullptr;
        int width = 0, height = 0;
        io.Fonts->GetTexDataAsRGBA32(&pixels, &width, &height);
    }
    ~ImGuiFrame() { ImGui::DestroyContext(mContext); }

    int draw(const util::ChartData& data)
    {
        ImGui::NewFrame();
        ImGui::SetNextWindowPos(ImVec2(0, 0));
        ImGui::SetNextWindowSize(ImVec2(700, 400));
        ImGui::Begin("plot");
        ui::drawLogLogPlot("##chart", data, 300.0f);
        ImGui::End();
        ImGui::Render();
        return ImGui::GetDrawData()->TotalVtxCount;
    }

private:
    ImGuiContext* mContext = nullptr;
};

util::ChartData twoSeries(int points)
{
    util::ChartData data;
    data.xLabel = "bins";
    data.yLabel = "ms";
    for (int s = 0; s < 2; ++s) {
        util::ChartSeries& series = data.series.emplace_back();
        series.name = "method " + std::to_string(s);
        for (int p = 0; p < points; ++p)
            series.points.push_back({16.0 * (1 << (2 * p)), 0.1 * (s + 1) * (p + 1)});
    }
    return data;
}

TEST(LogLogPlotTest, MorePointsDrawMoreMarkers)
{
    ImGuiFrame frame;
    frame.draw(twoSeries(1));  // the first frame sets the window up
    const int few = frame.draw(twoSeries(1));
    const int many = frame.draw(twoSeries(4));
    EXPECT_GT(few, 0);
    EXPECT_GT(many, few);
}

TEST(LogLogPlotTest, DegenerateChartsDrawWithoutACrash)
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    ImGuiFrame frame;
    util::ChartData empty;
    EXPECT_GT(frame.draw(empty), 0) << "axes and the note";
    util::ChartData bad;
    bad.series = {{"bad", {{0, 0}, {nan, 1}, {-1, -1}}}, {"none", {}}};
    EXPECT_GT(frame.draw(bad), 0);
}

}  // namespace
