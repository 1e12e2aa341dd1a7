// SvgChart.h: writes a util::ChartData (see LogLogChart.h) as a self-contained SVG file: log-log
// axes with decade ticks and labels, a light grid, one polyline with markers per series, a legend
// beside the plot, the title, axis labels and the layout's note (points left out, time source).
// Text, diffable, no dependencies; every name is XML-escaped. Limits: no text measuring, so the
// legend's width is estimated from the longest name's length (it does not wrap); the SVG grows
// wider for long names and taller when the legend has more rows than the plot is high.
#pragma once

#include "util/LogLogChart.h"

#include <string>
#include <string_view>

namespace util {

struct SvgChartSize
{
    int width = 780;
    int height = 460;
};

/// The plot area of an SVG of `size` (the same for every chart of that size).
PlotRect svgPlotRect(const SvgChartSize& size);

/// The whole SVG document.
std::string renderSvgChart(const ChartData& data, const SvgChartSize& size = {});

/// `text` safe inside XML character data and attribute values (&, <, >, quotes; control
/// characters, which XML 1.0 forbids, become '?').
std::string escapeXml(std::string_view text);

}  // namespace util
