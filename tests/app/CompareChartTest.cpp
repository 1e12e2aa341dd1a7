// CompareChartTest.cpp: app::compareTimeChart, the data behind `compare --chart` and the Compare
// panel's plot, on hand-made reports: one series per method that ran, one point per bin count at
// its median, methods that never ran left out and counted in the note, CPU wall times said.
#include "compare/CompareMethods.h"

#include <gtest/gtest.h>

namespace {

app::CompareRow ranRow(const std::string& id, std::uint32_t bins, double medianMs)
{
    app::CompareRow row;
    row.id = id;
    row.bins = bins;
    row.buildMs = {medianMs};
    row.medianMs = medianMs;
    return row;
}

app::CompareRow unavailableRow(const std::string& id)
{
    app::CompareRow row;
    row.id = id;
    row.available = false;
    row.reason = "no";
    return row;
}

TEST(CompareChartTest, OneSeriesPerMethodOnePointPerBinCount)
{
    std::vector<app::CompareReport> reports(2);
    reports[0].source = "scene 'x'";
    reports[0].size = {64, 32};
    reports[0].repeat = 3;
    reports[0].renderer = "test renderer";
    reports[0].rows = {ranRow("a", 16, 0.5), ranRow("b", 16, 2.0), unavailableRow("c")};
    // A method capped below the asked bins reports the bins it used.
    reports[1].rows = {ranRow("a", 256, 0.7), ranRow("b", 128, 3.0), unavailableRow("c")};
    reports[1].rows[1].gpuTimer = false;

    const util::ChartData chart = app::compareTimeChart(reports);
    ASSERT_EQ(chart.series.size(), 2u);
    EXPECT_EQ(chart.series[0].name, "a");
    ASSERT_EQ(chart.series[0].points.size(), 2u);
    EXPECT_EQ(chart.series[0].points[1].x, 256.0);
    EXPECT_EQ(chart.series[0].points[1].y, 0.7);
    EXPECT_EQ(chart.series[1].points[1].x, 128.0);
    EXPECT_NE(chart.title.find("scene 'x', 64x32"), std::string::npos) << chart.title;
    EXPECT_NE(chart.note.find("1 more method unavailable"), std::string::npos) << chart.note;
    EXPECT_NE(chart.note.find("CPU wall time"), std::string::npos) << chart.note;
    EXPECT_NE(chart.note.find("test renderer"), std::string::npos) << chart.note;
}

TEST(CompareChartTest, FailedBuildsHaveNoPoint)
{
    std::vector<app::CompareReport> reports(1);
    reports[0].rows = {ranRow("a", 64, 1.0), ranRow("broken", 64, 1.0)};
    reports[0].rows[1].failed = true;
    const util::ChartData chart = app::compareTimeChart(reports);
    ASSERT_EQ(chart.series.size(), 1u);
    EXPECT_EQ(chart.series[0].name, "a");
    EXPECT_TRUE(app::compareTimeChart({}).series.empty());
}

}  // namespace
