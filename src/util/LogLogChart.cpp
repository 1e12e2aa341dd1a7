#include "util/LogLogChart.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

namespace util {

LogAxis LogAxis::spanning(double low, double high)
{
    LogAxis axis;
    // log10 of any positive finite double lies in [-324, 309]: the decades stay small integers.
    axis.firstDecade = int(std::floor(std::log10(low)));
    axis.lastDecade = int(std::ceil(std::log10(high)));
    if (axis.lastDecade <= axis.firstDecade) {  // one value, or all values equal to a decade
        axis.firstDecade -= 1;
        axis.lastDecade += 1;
    }
    return axis;
}

double LogAxis::min() const
{
    return std::pow(10.0, firstDecade);
}

double LogAxis::max() const
{
    return std::pow(10.0, lastDecade);
}

double LogAxis::fraction(double value) const
{
    return (std::log10(value) - double(firstDecade)) / double(lastDecade - firstDecade);
}

std::vector<double> LogAxis::majorTicks() const
{
    const int decades = lastDecade - firstDecade;
    const int step = (decades + kMaxLabelledDecades - 1) / kMaxLabelledDecades;
    std::vector<double> ticks;
    for (int decade = firstDecade; decade <= lastDecade; decade += step)
        ticks.push_back(std::pow(10.0, decade));
    return ticks;
}

std::vector<double> LogAxis::minorTicks() const
{
    std::vector<double> ticks;
    if (lastDecade - firstDecade > kMaxDecadesWithMinorTicks)
        return ticks;
    for (int decade = firstDecade; decade < lastDecade; ++decade)
        for (int multiple = 2; multiple <= 9; ++multiple)
            ticks.push_back(multiple * std::pow(10.0, decade));
    return ticks;
}

std::string formatDecade(double value)
{
    const int decade = int(std::lround(std::log10(value)));
    char text[32];
    if (decade < -3 || decade > 5)
        std::snprintf(text, sizeof text, "1e%d", decade);
    else if (decade < 0)
        std::snprintf(text, sizeof text, "%.*f", -decade, value);
    else
        std::snprintf(text, sizeof text, "%.0f", value);
    return text;
}

ChartColor seriesColor(std::size_t index)
{
    // Tableau 10: distinct hues that stay apart in print and for the common colour-vision deficiencies.
    static constexpr std::array<ChartColor, 10> kPalette{{{78, 121, 167},
                                                          {242, 142, 43},
                                                          {225, 87, 89},
                                                          {118, 183, 178},
                                                          {89, 161, 79},
                                                          {237, 201, 72},
                                                          {176, 122, 161},
                                                          {255, 157, 167},
                                                          {156, 117, 95},
                                                          {186, 176, 172}}};
    return kPalette[index % kPalette.size()];
}

MarkerShape seriesMarker(std::size_t index)
{
    static constexpr std::array<MarkerShape, 4> kShapes{MarkerShape::Circle, MarkerShape::Square, MarkerShape::Triangle,
                                                        MarkerShape::Diamond};
    return kShapes[index % kShapes.size()];
}

ChartLayout layOutChart(const ChartData& data)
{
    ChartLayout layout;
    double xLow = 0.0, xHigh = 0.0, yLow = 0.0, yHigh = 0.0;
    auto plottable = [](double value) { return std::isfinite(value) && value > 0.0; };
    for (const ChartSeries& series : data.series) {
        ChartSeries& kept = layout.series.emplace_back();
        kept.name = series.name;
        for (const ChartPoint& point : series.points) {
            if (!plottable(point.x) || !plottable(point.y)) {
                ++layout.leftOut;
                continue;
            }
            if (layout.empty) {
                xLow = xHigh = point.x;
                yLow = yHigh = point.y;
                layout.empty = false;
            }
            xLow = std::min(xLow, point.x);
            xHigh = std::max(xHigh, point.x);
            yLow = std::min(yLow, point.y);
            yHigh = std::max(yHigh, point.y);
            kept.points.push_back(point);
        }
        std::stable_sort(kept.points.begin(), kept.points.end(),
                         [](const ChartPoint& a, const ChartPoint& b) { return a.x < b.x; });
    }
    if (!layout.empty) {
        layout.x = LogAxis::spanning(xLow, xHigh);
        layout.y = LogAxis::spanning(yLow, yHigh);
    }
    layout.note = data.note;
    auto append = [&](const std::string& text) { layout.note += (layout.note.empty() ? "" : "; ") + text; };
    if (layout.empty)
        append("no positive, finite points to plot");
    if (layout.leftOut > 0)
        append(std::to_string(layout.leftOut) + (layout.leftOut == 1 ? " point" : " points") +
               " left out (zero, negative or not finite: a log axis cannot show them)");
    return layout;
}

ChartPoint plotPosition(const ChartLayout& layout, const PlotRect& rect, ChartPoint point)
{
    return {rect.left + layout.x.fraction(point.x) * rect.width,
            rect.top + (1.0 - layout.y.fraction(point.y)) * rect.height};
}

}  // namespace util
