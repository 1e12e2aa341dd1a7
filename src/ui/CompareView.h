// CompareView.h: the "compare all" results in the window: a table of every histogram method (time,
// difference from the CPU reference, curve difference, or why it is unavailable), the median build
// time against bins per method on log axes (ui/LogLogPlot, from app::compareTimeChart: the chart
// `hdrlab compare --chart` writes; one point per method, a line once "compare all" has run at
// several bin counts), and one selected method's histogram beside the CPU reference.
#pragma once

#include "compare/CompareMethods.h"

namespace ui {

/// Draws into the current ImGui window (no window of its own): the table of the latest report
/// (sweep.back()) and the chart of them all. `sweep` must not be empty.
void drawCompareResults(const std::vector<app::CompareReport>& sweep);

}  // namespace ui
