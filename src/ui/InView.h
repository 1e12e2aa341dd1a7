// InView.h: the check behind "measurements in view": what the tool exists to show (the Timings
// table's header and rows, the Histogram's plot with its axis numbers and counters, the Exposure
// panel's two plots) must be visible in its region without scrolling, down as well as across (the
// text check of ui/TextFit.h looks across only). The panels record each such item where they draw it
// (recordInView, after the item, or with its rectangle) with the region's visible rectangle and
// scroll; rows that exist but are not drawn (a collapsed parent's children) are counted apart
// (recordFoldedRows) and are not a fault: the user folded them, and the header row says so.
//   After a `--ui` screenshot (and a window's --window-screenshot) the app appends
// describeMeasurementsInView() to its layout line: "measurements in view (...)" or "measurements not
// in view: ..." naming each item, where it is and what the region shows. An expected item that was
// not drawn at all (kExpectedItems) is named too, so the check cannot pass by drawing nothing.
// Limits: an item is a rectangle; what is drawn over it (a tooltip, a popup) is not seen. The record
// holds the last arranged frame's items (clear() at the layout's arrange()).
#pragma once

#include "ui/PanelLayout.h"

#include <imgui.h>

#include <string>
#include <string_view>
#include <vector>

namespace ui {

/// A measurement drawn this frame: its rectangle, the visible part of its window, the window's scroll.
struct InViewItem
{
    std::string name;  ///< "Timings row 'tonemap'", "Histogram plot", ...
    LayoutRect rect;
    LayoutRect visible;
    float scrollX = 0.0f;
    float scrollY = 0.0f;

    /// The rectangle lies inside the visible one with the window scrolled to its top-left.
    bool inViewWithoutScrolling() const;
};

/// Forgets the last frame's items (the layout's arrange() calls it).
void clearInView();
/// Records the last ImGui item as the measurement `name`.
void recordInView(std::string name);
/// Records the rectangle [min, max] (screen units) drawn in the current window as `name`.
void recordInView(std::string name, ImVec2 min, ImVec2 max);
/// Records that `count` rows of `table` are folded away by the user (not drawn, not a fault).
void recordFoldedRows(std::string_view table, int count);
const std::vector<InViewItem>& inViewItems();

/// The items every layout must show (by name prefix): the Timings header and at least one row, the
/// Histogram plot, its axis numbers and counters, the Exposure panel's key value and frame-time plots.
extern const std::vector<std::string_view> kExpectedItems;

/// "measurements in view (Timings: header, 8 rows, 9 folded; Histogram: plot, axis, counters;
/// Exposure: key value plot, frame-time plot)", or "measurements not in view: Timings row 'ui' (y
/// 700..717, the region shows y 560..712), Exposure frame-time plot (not drawn)".
std::string describeMeasurementsInView();

}  // namespace ui
