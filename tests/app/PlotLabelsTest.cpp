// PlotLabelsTest.cpp: the pure parts of the panels' text layout. Marker labels (ui/PlotLabels.h) at
// close and equal x, drawn from a seeded RNG: no two labels in a row overlap, no marker's line
// crosses another marker's label, every label lies inside the plot, and what has no room is left
// for the legend rather than overlapped. Axis ticks sit on nice steps with labels that never read
// "-0" or lose a digit. Wrapping (ui/TextFit.h) breaks at spaces only: "0.000" is never split.
#include "ui/PlotLabels.h"
#include "ui/TextFit.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

namespace {

/// Each character 7 wide, as ImGui's built-in font.
float measure(std::string_view text)
{
    return 7.0f * float(text.size());
}

void expectNoOverlap(const std::vector<ui::MarkerLabel>& markers,
                     const std::vector<ui::PlacedLabel>& placed,
                     float left,
                     float right,
                     int rows,
                     float gap,
                     const std::string& trace)
{
    ASSERT_EQ(placed.size(), markers.size());
    for (std::size_t i = 0; i < markers.size(); ++i) {
        if (placed[i].row < 0)
            continue;
        const float a0 = placed[i].left, a1 = a0 + markers[i].width;
        EXPECT_LT(placed[i].row, rows) << trace << " i = " << i;
        EXPECT_GE(a0, left) << trace << " i = " << i;
        EXPECT_LE(a1, right) << trace << " i = " << i;
        // Beside its own line, not across it.
        EXPECT_TRUE(markers[i].x <= a0 || markers[i].x >= a1) << trace << " i = " << i;
        for (std::size_t j = 0; j < markers.size(); ++j) {
            if (j == i || placed[j].row < 0)
                continue;
            const float b0 = placed[j].left, b1 = b0 + markers[j].width;
            if (placed[j].row == placed[i].row)
                EXPECT_TRUE(a1 + gap <= b0 || b1 + gap <= a0)
                    << trace << " labels " << i << " and " << j << " overlap in row " << placed[i].row;
            // Marker j's line rises through rows 0..row(j): it must not cross label i there.
            if (placed[j].row >= placed[i].row)
                EXPECT_FALSE(markers[j].x > a0 - gap && markers[j].x < a1 + gap)
                    << trace << " line " << j << " crosses label " << i;
        }
    }
}

TEST(PlotLabelsTest, CloseMarkerLabelsNeverOverlapEachOtherOrTheLines)
{
    std::mt19937 rng(26);
    const float left = 0.0f, right = 450.0f, gap = 3.0f;
    for (int trial = 0; trial < 500; ++trial) {
        std::uniform_int_distribution<int> count(1, 9);
        std::uniform_real_distribution<float> centre(0.0f, right);
        std::uniform_real_distribution<float> spread(0.0f, 40.0f);
        std::uniform_int_distribution<int> letters(2, 14);
        const float middle = centre(rng);
        const float width = spread(rng);
        std::vector<ui::MarkerLabel> markers(std::size_t(count(rng)));
        for (ui::MarkerLabel& marker : markers) {
            marker.x = std::clamp(middle + std::uniform_real_distribution<float>(-width, width)(rng), left, right);
            marker.width = 7.0f * float(letters(rng));
        }
        if (trial % 7 == 0)
            for (ui::MarkerLabel& marker : markers)
                marker.x = middle;  // all at one x
        const int rows = 1 + trial % 4;
        const std::vector<ui::PlacedLabel> placed = ui::placeMarkerLabels(markers, left, right, rows, gap);
        expectNoOverlap(markers, placed, left, right, rows, gap, "trial " + std::to_string(trial));
    }
}

TEST(PlotLabelsTest, KeyTargetKeyNowAndP99SideBySideGetRowsOfTheirOwn)
{
    // The case: three markers within a few pixels.
    const std::vector<ui::MarkerLabel> markers{{200.0f, 84.0f}, {204.0f, 63.0f}, {209.0f, 21.0f}};
    const std::vector<ui::PlacedLabel> placed = ui::placeMarkerLabels(markers, 0.0f, 450.0f, 4, 3.0f);
    expectNoOverlap(markers, placed, 0.0f, 450.0f, 4, 3.0f, "three close markers");
    for (const ui::PlacedLabel& label : placed)
        EXPECT_GE(label.row, 0) << "four rows hold three labels";
}

TEST(PlotLabelsTest, ALabelLeftOfItsLineNearTheEndDoesNotBlockTheMarkersBeforeIt)
{
    // The percentile operator at UI scale 1.5 in a narrow histogram: "key (target)" can only go left
    // of its line, over the lines of the probe and p50; at most one label is left for the legend.
    const std::vector<ui::MarkerLabel> markers{
        {710.0f, 31.5f}, {743.0f, 73.5f}, {805.5f, 94.5f}, {806.0f, 126.0f}, {832.0f, 31.5f}};
    const std::vector<ui::PlacedLabel> placed = ui::placeMarkerLabels(markers, 584.0f, 900.0f, 3, 3.0f);
    expectNoOverlap(markers, placed, 584.0f, 900.0f, 3, 3.0f, "crowded right end");
    EXPECT_LE(std::count_if(placed.begin(), placed.end(), [](const ui::PlacedLabel& label) { return label.row < 0; }),
              1);
}

TEST(PlotLabelsTest, ALabelWithNoRoomIsLeftForTheLegend)
{
    // Two rows hold four labels at one x (one each side of the line per row): the fifth has no room.
    const std::vector<ui::MarkerLabel> markers(5, ui::MarkerLabel{100.0f, 60.0f});
    const std::vector<ui::PlacedLabel> placed = ui::placeMarkerLabels(markers, 0.0f, 300.0f, 2, 3.0f);
    int unplaced = 0;
    for (const ui::PlacedLabel& label : placed)
        unplaced += label.row < 0;
    EXPECT_EQ(unplaced, 1);
    // A label wider than the plot has no place either.
    EXPECT_EQ(ui::placeMarkerLabels({{10.0f, 400.0f}}, 0.0f, 300.0f, 4, 3.0f)[0].row, -1);
    // Near the right end a label goes left of its line.
    const ui::PlacedLabel end = ui::placeMarkerLabels({{295.0f, 40.0f}}, 0.0f, 300.0f, 1, 3.0f)[0];
    EXPECT_EQ(end.row, 0);
    EXPECT_FLOAT_EQ(end.left, 295.0f - 3.0f - 40.0f);
}

TEST(PlotLabelsTest, TicksSitOnNiceStepsAndKeepTheirSign)
{
    EXPECT_DOUBLE_EQ(ui::niceStep(20.0, 10), 2.0);
    EXPECT_DOUBLE_EQ(ui::niceStep(20.0, 4), 5.0);
    EXPECT_DOUBLE_EQ(ui::niceStep(0.9, 4), 0.5);
    EXPECT_DOUBLE_EQ(ui::niceStep(10.0, 10), 1.0);
    const std::vector<double> ticks = ui::niceTicks(-12.3, 7.9, 5);
    ASSERT_EQ(ticks.size(), 4u);
    EXPECT_DOUBLE_EQ(ticks.front(), -10.0);
    EXPECT_DOUBLE_EQ(ticks.back(), 5.0);
    EXPECT_EQ(ui::formatTick(-10.0, 5.0), "-10");
    EXPECT_EQ(ui::formatTick(-1e-12, 0.5), "0.0");
    EXPECT_EQ(ui::formatTick(2.5, 0.5), "2.5");
    EXPECT_EQ(ui::formatTick(0.25, 0.05), "0.25");
    EXPECT_TRUE(ui::niceTicks(1.0, 1.0, 5).empty());
    EXPECT_EQ(ui::ticksThatFit(300.0f, 28.0f, 12.0f), 7);
    EXPECT_EQ(ui::ticksThatFit(10.0f, 28.0f, 12.0f), 2);
}

TEST(PlotLabelsTest, WrappingBreaksAtSpacesOnlyNeverInsideANumber)
{
    const std::string line = "percentile key: -2.31 EV, flicker 0.000 EV/s";
    for (float width = 7.0f; width <= 7.0f * float(line.size() + 2); width += 7.0f) {
        const std::vector<std::string> lines = ui::wrapAtSpaces(line, width, measure);
        std::string joined;
        for (const std::string& part : lines) {
            EXPECT_FALSE(part.empty()) << "width " << width;
            EXPECT_TRUE(measure(part) <= width || part.find(' ') == std::string::npos)
                << "'" << part << "' is wider than " << width << " and has a space to break at";
            joined += (joined.empty() ? "" : " ") + part;
        }
        EXPECT_EQ(joined, line) << "width " << width;
        for (const std::string& part : lines)
            EXPECT_NE(part.back(), '.') << "split after a point at width " << width;
    }
    EXPECT_EQ(ui::wrapAtSpaces("a b\nc", 700.0f, measure), (std::vector<std::string>{"a b", "c"}));
    EXPECT_EQ(ui::wrapAtSpaces("", 70.0f, measure), std::vector<std::string>{""});
}

}  // namespace
