// CompareView.h: the "compare all" results in the window: a table of every histogram method (time,
// difference from the CPU reference, curve difference, or why it is unavailable) and bar charts of
// the median build times and of one selected method's histogram beside the CPU reference.
#pragma once

#include "app/CompareMethods.h"

namespace ui {

/// Draws into the current ImGui window (no window of its own).
void drawCompareResults(const app::CompareReport& report);

}  // namespace ui
