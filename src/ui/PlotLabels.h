// PlotLabels.h: where a plot's labels go, as pure geometry (no ImGui: unit-tested on the CPU).
//  - Axis ticks at a "nice" step (1, 2 or 5 times a power of ten), as many as the axis has room for,
//    each labelled with as many decimals as the step needs.
//  - Labels of vertical marker lines (the histogram's "key (target)", "p99", probes...) staggered in
//    rows above the plot: each marker's line rises from the plot to its label's row, and each label
//    takes a row where it overlaps no other label, no other marker's line crosses it and its own line
//    crosses no label below it, beside its line (right of it, or left). The rows are chosen greedily
//    in a few orders (from the rightmost marker, from the leftmost; right of the line first, or
//    either side per row); the placement that labels the most markers in the fewest rows wins. A label with no such row
//    among the rows allowed is left for a legend.
#pragma once

#include <string>
#include <vector>

namespace ui {

/// The step of at most `maxTicks` ticks over `span` (> 0): 1, 2 or 5 times a power of ten.
double niceStep(double span, int maxTicks);
/// The multiples of niceStep(high - low, maxTicks) in [low, high], ascending; none if high <= low.
std::vector<double> niceTicks(double low, double high, int maxTicks);
/// `value` with the decimals a tick of `step` needs ("-10", "0.5", never "-0").
std::string formatTick(double value, double step);
/// How many labels of `labelWidth` (plus a gap of `gap`) fit along `length`; at least 2.
int ticksThatFit(float length, float labelWidth, float gap);

/// A marker's line position and its label's width (same units, e.g. pixels).
struct MarkerLabel
{
    float x = 0.0f;
    float width = 0.0f;
};

/// Where a marker's label went: its row (0 next to the plot, then away from it) and its left edge;
/// row -1: no room in the rows allowed (show it in a legend instead).
struct PlacedLabel
{
    int row = -1;
    float left = 0.0f;
};

/// Places the labels of markers whose lines are at x in [left, right] in at most `rows` rows (see
/// the file comment); `gap` is the least distance between a label and another label or a line.
/// Returns one placement per marker, in the markers' order.
std::vector<PlacedLabel> placeMarkerLabels(const std::vector<MarkerLabel>& markers,
                                           float left,
                                           float right,
                                           int rows,
                                           float gap);

}  // namespace ui
