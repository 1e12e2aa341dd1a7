// PanelLayout.h: how the window is split between the panels and the picture, with the picture as the
// main thing (the layout of the engines' editors: settings at one side, measurements in a strip under
// the viewport). Two regions around the viewport:
//   - the settings column at the left of the picture (Pipeline first, its method, scan and operator
//     combos in sight; then Frame, View, Split view, Pipeline B: collapsible sections, scrolled
//     vertically only), about 22 % of the window's width between a minimum and a maximum;
//   - the measurement strip under both, as wide as the window and a few lines high (about 23 % of
//     the window's height within bounds), made of three sections side by side: Histogram (the rest of
//     the width), Timings (a compact table's width) and Exposure (and Compare all under it).
// What is left is the viewport, where the scene renders at the viewport's own pixel size (so the
// timings are for the picture shown). Each region has a splitter bar on its inner edge, and the strip's
// sections one between each (ui/PanelColumns draws them: a drag resizes, the column's and the strip's
// arrow collapses them to the bar).
//
// Framing: the scene's camera keeps its vertical field of view and the frame its aspect when the
// panels are hidden (Tab): the frame is then rendered at the aspect of the viewport the panels
// would leave (referenceViewport), as large as fits the whole window, and letterboxed in it
// (fitAspect); so hiding the panels does not change what the camera sees, nor the exposure.
//
// This file is the geometry: pure maths on ImGui units (screen coordinates from the window's top-left)
// that tests check without a window, and the measurement of the minimum sizes with the current font.
// Limits: in a window too small for them and a minimal viewport, the strip gets lower and the column
// narrower (to nothing but its bar) until the viewport has its minimal size; the strip's sections
// shrink Exposure first, then Timings, down to their minimums, then share what is left. A window
// smaller than the bars and the minimal viewport shows the picture alone. In small windows the
// viewport the panels leave can be nearly square, and hidden panels keep that aspect. Names longer
// than a combo are its caller's to show whole (beginNameCombo).
#pragma once

#include <glm/common.hpp>
#include <glm/vec2.hpp>
#include <glm/vec4.hpp>

#include <array>
#include <cstddef>
#include <map>
#include <string>
#include <utility>
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

/// The windows the panels are drawn in: the settings column and the strip's three sections.
enum class PanelRegion { Settings, Histogram, Timings, Exposure };
/// The splitter bars: the column's (vertical, collapses the column), the strip's (horizontal, collapses
/// the strip) and the two between the strip's sections (resize only).
enum class PanelBar { Settings, Strip, HistogramTimings, TimingsExposure };
/// The settings column's collapsible sections, in their order.
enum class SettingsSection { Pipeline, Frame, View, Split, PipelineB, Count };

/// What the user chose by dragging and clicking the splitters and the sections' headers. Lengths are
/// ImGui units at UI scale 1 (the layout multiplies them by the current scale, so a chosen width
/// survives a move to another monitor); 0 is the default. Saved with the settings file (layoutKeys).
struct PanelLayoutState
{
    float settingsWidth = 0.0f;
    float stripHeight = 0.0f;
    float timingsWidth = 0.0f;
    float exposureWidth = 0.0f;
    bool settingsOpen = true;
    bool stripOpen = true;
    /// Every section starts open.
    std::array<bool, std::size_t(SettingsSection::Count)> sectionOpen = [] {
        std::array<bool, std::size_t(SettingsSection::Count)> open{};
        open.fill(true);
        return open;
    }();

    bool operator==(const PanelLayoutState&) const = default;
};

/// Lengths for the current font and UI scale, ImGui units (measurePanels makes them; the defaults are
/// those at scale 1 with ImGui's default font).
struct PanelMetrics
{
    float scale = 1.0f;  ///< the UI scale the lengths were measured at
    /// The settings column: this fraction of the window's width, within [min, max].
    float settingsFraction = 0.22f;
    float settingsMinWidth = 240.0f;
    float settingsMaxWidth = 360.0f;
    /// The strip: this fraction of the window's height, within [min, max].
    /// 178 units at 720 (the picture keeps 55 % beside the measured column), 200 at 1080 and above
    /// (65 %): the Timings header and the pipeline's passes, the Histogram's plot with its numbers and
    /// counters and both Exposure plots show without scrolling (ui/InView.h).
    float stripFraction = 0.247f;
    /// The minimum is 1280x720's height: below it (800x600) the Timings rows of a window's passes (the
    /// scene folded) and the Histogram's counters would drop out of view (LayoutWindowTest).
    float stripMinHeight = 178.0f;
    float stripMaxHeight = 200.0f;
    /// The strip's sections: Timings and Exposure default widths; Exposure takes this fraction of
    /// the strip's width within [its minimum, its default].
    float timingsWidth = 470.0f;  // the default pipeline's table with its one-line header: 466 (TimingsPanelTest)
    float exposureWidth = 300.0f;
    float exposureFraction = 0.22f;
    float sectionMinWidth = 160.0f;  ///< Timings and Exposure shrink to this before the Histogram
    float histogramMinWidth = 240.0f;
    float splitter = 8.0f;        ///< a splitter bar's thickness
    float viewportMin = 64.0f;    ///< regions shrink before the viewport gets smaller than this on a side
    float fieldLabelRoom = 0.0f;  ///< a labelled field leaves this much of the column's width to its label

    /// The defaults above times `scale` (a layout before any font was measured: the same default
    /// regions, since only the minimums are measured).
    static PanelMetrics atScale(float scale);
};

/// The regions of one frame. A collapsed region is empty and keeps its splitter bar at the window's
/// edge; with the panels hidden every rectangle but the viewport is empty.
struct PanelRects
{
    LayoutRect settings;
    LayoutRect settingsBar;
    LayoutRect strip;  ///< the three sections and the two bars between them, the window's width
    LayoutRect stripBar;
    LayoutRect histogram;
    LayoutRect histogramBar;  ///< between Histogram and Timings
    LayoutRect timings;
    LayoutRect timingsBar;  ///< between Timings and Exposure
    LayoutRect exposure;
    LayoutRect viewport;

    const LayoutRect& region(PanelRegion region) const;
    const LayoutRect& bar(PanelBar bar) const;
};

/// The regions of a window of `display` ImGui units. Every boundary is on a whole unit.
PanelRects layOutPanels(glm::vec2 display,
                        const PanelLayoutState& state,
                        const PanelMetrics& metrics,
                        bool panelsShown);

/// The settings column's width, or the strip's height, that `layOutPanels` starts from before
/// fitting: the user's choice at this scale (at least the minimum), else the default for `display`.
float preferredSettingsWidth(glm::vec2 display, const PanelLayoutState& state, const PanelMetrics& metrics);
float preferredStripHeight(glm::vec2 display, const PanelLayoutState& state, const PanelMetrics& metrics);

/// The viewport in framebuffer pixels, GL's bottom-left origin: {x, y, width, height}, at least 1x1
/// inside a non-empty framebuffer. `display` is the window in ImGui units, `framebuffer` in pixels.
glm::ivec4 viewportPixels(const LayoutRect& viewport, glm::vec2 display, glm::ivec2 framebuffer);

/// The largest size of `aspect`'s aspect ratio (width / height) inside `area`, pixels, at least 1x1;
/// `area` itself when `aspect` is empty.
glm::ivec2 fitAspect(glm::ivec2 area, glm::ivec2 aspect);

/// The layout's settings-file keys ("layout.settings_width": "282", "layout.strip_open": "true",
/// ...) with their values as JSON text, every key.
std::vector<std::pair<std::string, std::string>> layoutKeys(const PanelLayoutState& state);
/// Applies the "layout.*" keys of `values` (JSON text, as layoutKeys writes them) to `state`: a key
/// absent keeps its value; returns one warning per key that is unknown or has a value it cannot take
/// (that key keeps its value too).
std::vector<std::string> applyLayoutKeys(const std::map<std::string, std::string>& values, PanelLayoutState& state);

/// The names the panels' combos show, by how the combo is drawn.
struct PanelNames
{
    /// Combos as wide as the column, their label above: the Pipeline panel's histogram methods, scans
    /// and tone operators (shown whole on as many lines as they need: beginNameCombo).
    std::vector<std::string> columnWide;
    /// Combos with their label at the right (the column's width less PanelMetrics::fieldLabelRoom):
    /// scenes, engine presets, view and split modes, lighting paths.
    std::vector<std::string> labelled;
};

/// The width a combo needs to show `name` whole on one line, with the current font and style.
float comboWidthFor(const std::string& name);

/// Measures the metrics at the current font and style (an ImGui frame must have begun). `scale` is
/// the UI scale the style and font were made for.
PanelMetrics measurePanels(const PanelNames& names, float scale);

}  // namespace ui
