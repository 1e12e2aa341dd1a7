// LogLogChart.h: the data and geometry of a log-log line chart (time against bin count, one line
// per method), shared by the SVG writer (util/SvgChart) and the window's ImGui plot
// (ui/LogLogPlot) so both draw the same thing from the same plain data, never from benchmark objects.
//
// Axes span whole decades around the data: decade ticks, labelled (every k-th one when there are
// more than kMaxLabelledDecades), and minor ticks at 2..9 when the axis spans few decades. Limits:
// a log axis cannot show zero, negative, infinite or NaN values, so layOutChart leaves such points
// out and counts them (the chart says so in its note); a chart with no plottable point gets the
// axis 1..10 on both sides and the note "no positive, finite points". A single value gets the decade
// around it (one decade either side when it is a power of ten itself). Series colours cycle through 10 hues (Tableau
// 10) and the marker shapes through 4, so series 0..19 all look different.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace util {

struct ChartPoint
{
    double x = 0.0;
    double y = 0.0;
};

struct ChartSeries
{
    std::string name;
    std::vector<ChartPoint> points;
};

/// What a chart shows: plain data, filled by whoever measured it.
struct ChartData
{
    std::string title;
    std::string xLabel;
    std::string yLabel;
    std::string note;  ///< a line under the plot (the time source...); layOutChart appends its own
    std::vector<ChartSeries> series;
};

/// A base-10 logarithmic axis from 10^firstDecade to 10^lastDecade (lastDecade > firstDecade).
struct LogAxis
{
    static constexpr int kMaxLabelledDecades = 8;
    static constexpr int kMaxDecadesWithMinorTicks = 6;

    int firstDecade = 0;
    int lastDecade = 1;

    /// The smallest whole-decade axis holding [low, high] (both positive and finite).
    static LogAxis spanning(double low, double high);

    double min() const;
    double max() const;
    /// Where `value` (positive) sits along the axis: 0 at min(), 1 at max().
    double fraction(double value) const;
    /// The labelled decades, every k-th one when the axis spans more than kMaxLabelledDecades.
    std::vector<double> majorTicks() const;
    /// 2..9 times each decade, when the axis spans at most kMaxDecadesWithMinorTicks decades.
    std::vector<double> minorTicks() const;
};

/// A decade's label: "0.001" .. "100000" written out, "1e-4", "1e6" beyond.
std::string formatDecade(double value);

struct ChartColor
{
    std::uint8_t r = 0;
    std::uint8_t g = 0;
    std::uint8_t b = 0;
};

enum class MarkerShape { Circle, Square, Triangle, Diamond };

ChartColor seriesColor(std::size_t index);
MarkerShape seriesMarker(std::size_t index);

/// The chart ready to draw: the axes, the plottable points of each series (sorted by x; a series
/// may be left with none), and the note including how many points were left out.
struct ChartLayout
{
    LogAxis x;
    LogAxis y;
    std::vector<ChartSeries> series;
    std::size_t leftOut = 0;  ///< points not positive and finite on both axes
    bool empty = true;        ///< no plottable point at all
    std::string note;
};

ChartLayout layOutChart(const ChartData& data);

/// The plot area in pixels (y grows downwards, as in SVG and ImGui).
struct PlotRect
{
    double left = 0.0;
    double top = 0.0;
    double width = 1.0;
    double height = 1.0;
};

/// Where a plottable point lands in `rect`: the axes' minimum at the bottom left corner.
ChartPoint plotPosition(const ChartLayout& layout, const PlotRect& rect, ChartPoint point);

}  // namespace util
