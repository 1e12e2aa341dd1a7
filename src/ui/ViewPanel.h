// ViewPanel.h: the "View" panel: the combo that switches the display between the tone-mapped image
// and the false-colour EV view, the false-colour legend (one swatch per band over the histogram's
// range, EV and cd/m^2 in the tooltips, and the special colours), and the pixel probe's readout
// (pending until its first asynchronous readback). It only presents what it is given and returns
// what was asked for.
#pragma once

#include "post/FalseColour.h"
#include "post/PixelProbe.h"
#include "post/PostPipeline.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace ui {

struct ViewPanelInput
{
    post::ViewMode mode = post::ViewMode::ToneMapped;
    const std::optional<post::HistogramSnapshot>* histogram = nullptr;  ///< the legend's range
    const std::optional<post::ProbeSnapshot>* probe = nullptr;
    std::vector<std::string> probeNames;  ///< one per requested probe, in the records' order ("mouse", "1"...)
    std::string units;                    ///< what L's cd/m^2 are (post::LuminanceUnits::describe())
    bool hdr10 = false;  ///< display.target hdr10: false colour shows the HDR output's cd/m^2 over a fixed range
};

/// The view combo's entries, in post::ViewMode order.
inline constexpr std::array<const char*, 9> kViewModeLabels{
    "tone-mapped",      "false colour (EV)",   "metering weights",   "local gain (tiles)", "tile grid",
    "local exp.: base", "local exp.: blurred", "local exp.: detail", "local exposure"};

/// Draws the panel into the current window; returns the view mode chosen in the combo, if changed.
std::optional<post::ViewMode> drawViewPanel(const ViewPanelInput& input);

/// Adds a histogram marker ("probe NAME") at each probed pixel's log2 L.
void addProbeMarkers(post::HistogramSnapshot& snapshot,
                     const post::ProbeSnapshot& probe,
                     const std::vector<std::string>& probeNames);

}  // namespace ui
