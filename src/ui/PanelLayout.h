// PanelLayout.h: how the window is split between the panels and the picture. The panels live in
// three regions around the viewport: a left column (the frame and the settings: Frame, View, Split
// view, Pipeline, Pipeline B), a right column (the measurements: Timings, Exposure, Compare all) and
// a bottom strip between the two columns (the Histogram). What is left is the viewport, where the
// frame is shown at its own pixel size: the scene renders at the viewport's size, so the timings are
// for the picture shown. Each region has a splitter bar on its inner edge (ui/PanelColumns draws it:
// a drag resizes the region, its arrow collapses the region to the bar). With the panels hidden (F1,
// Tab) the viewport is the whole window.
//
// This file is the geometry: pure maths on ImGui units (screen coordinates from the window's top-left)
// that tests check without a window, and the measurement of the minimum sizes with the current font.
// The left column is never narrower than its widest combo needs (PanelNames: every built-in method,
// scan, operator, preset, scene and mode name), so no name is cut short while the window has room.
// Limits: when the window is too small for the columns and a minimal viewport, the right column
// shrinks first (and leaves only its bar where it would be narrower than its minimum), then the left
// one (names may then be cut short); the bottom strip shrinks to leave the minimal viewport's height.
// A window smaller than two splitter bars and the minimal viewport shows the picture alone.
#pragma once

#include <glm/vec2.hpp>
#include <glm/vec4.hpp>

#include <string>
#include <vector>

namespace ui {

/// A rectangle in ImGui units, from the window's top-left corner.
struct LayoutRect
{
    float x = 0.0f;
    float y = 0.0f;
    float width = 0.0f;
    float height = 0.0f;

    bool empty() const { return width <= 0.0f || height <= 0.0f; }
    float right() const { return x + width; }
    float bottom() const { return y + height; }
};

enum class PanelRegion { Left, Right, Bottom };

/// What the user chose by dragging and clicking the splitters. Lengths are ImGui units at UI scale 1
/// (the layout multiplies them by the current scale, so a chosen width survives a move to another
/// monitor); 0 is the default.
struct PanelLayoutState
{
    float leftWidth = 0.0f;
    float rightWidth = 0.0f;
    float bottomHeight = 0.0f;
    bool leftOpen = true;
    bool rightOpen = true;
    bool bottomOpen = true;
};

/// Lengths for the current font and UI scale, ImGui units (measurePanels makes them).
struct PanelMetrics
{
    float scale = 1.0f;            ///< the UI scale the lengths were measured at
    float leftMinWidth = 480.0f;   ///< the left column's widest name fits
    float rightMinWidth = 260.0f;  ///< the Timings table's pass and mean columns, the Exposure plots
    float bottomMinHeight = 180.0f;
    float splitter = 8.0f;        ///< a splitter bar's thickness
    float viewportMin = 64.0f;    ///< columns shrink before the viewport gets smaller than this on a side
    float fieldLabelRoom = 0.0f;  ///< a labelled field leaves this much of the column's width to its label
    /// Defaults as fractions of the window: wider windows give the measurements more room.
    float rightFraction = 0.22f;
    float bottomFraction = 0.30f;
};

/// The regions of one frame. A collapsed region is empty and keeps its splitter bar at the window's
/// edge; with the panels hidden every rectangle but the viewport is empty.
struct PanelRects
{
    LayoutRect left;
    LayoutRect right;
    LayoutRect bottom;
    LayoutRect leftSplitter;
    LayoutRect rightSplitter;
    LayoutRect bottomSplitter;
    LayoutRect viewport;
};

/// The regions of a window of `display` ImGui units. Every boundary is on a whole unit.
PanelRects layOutPanels(glm::vec2 display,
                        const PanelLayoutState& state,
                        const PanelMetrics& metrics,
                        bool panelsShown);

/// The region's width (left, right) or height (bottom) `layOutPanels` starts from before fitting:
/// the user's choice at this scale, at least the region's minimum; the default where none was chosen.
float preferredExtent(PanelRegion region,
                      glm::vec2 display,
                      const PanelLayoutState& state,
                      const PanelMetrics& metrics);

/// The viewport in framebuffer pixels, GL's bottom-left origin: {x, y, width, height}, at least 1x1
/// inside a non-empty framebuffer. `display` is the window in ImGui units, `framebuffer` in pixels.
glm::ivec4 viewportPixels(const LayoutRect& viewport, glm::vec2 display, glm::ivec2 framebuffer);

/// The names the panels' combos show, by how the combo is drawn.
struct PanelNames
{
    /// Combos as wide as the column, their label above: the Pipeline panel's histogram methods, scans
    /// and tone operators.
    std::vector<std::string> columnWide;
    /// Combos with their label at the right (the column's width less PanelMetrics::fieldLabelRoom):
    /// scenes, engine presets, view and split modes, lighting paths.
    std::vector<std::string> labelled;
};

/// The width a combo needs to show `name` whole, with the current font and style.
float comboWidthFor(const std::string& name);

/// Measures the metrics at the current font and style (an ImGui frame must have begun). `scale` is
/// the UI scale the style and font were made for.
PanelMetrics measurePanels(const PanelNames& names, float scale);

}  // namespace ui
