// LogLogPlot.h: a util::ChartData drawn in the window with ImDrawList (Dear ImGui 1.86 has no log
// plot, and ImPlot is not packaged for Debian): the same layout as util::SvgChart (LogLogChart's
// decade axes, series colours and markers), a legend beside the plot, a tooltip for the point
// under the mouse, and the layout's note below. Limits: the y label is drawn above the plot (no
// rotated text in ImGui); a legend name longer than the space beside the plot ends in "..." (the
// whole name is in its points' tooltips). Every label goes through ui/TextFit.h's check.
#pragma once

#include "util/LogLogChart.h"

namespace ui {

/// Draws into the current ImGui window, `height` pixels tall and as wide as the window allows.
void drawLogLogPlot(const char* id, const util::ChartData& data, float height);

}  // namespace ui
