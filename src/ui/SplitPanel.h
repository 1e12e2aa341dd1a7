// SplitPanel.h: the "Split view" panel: the mode combo (off / side by side / difference), the divider
// and the difference gain, "B = A" (copy A's settings to B), and the histogram difference of A's and
// B's methods (post/HistogramDifference.h) as a line and a plot of A - B per bin. B's own settings
// are in a second Pipeline panel ("Pipeline B"). drawSplitLabels names the sides on the image. It only
// presents what it is given and returns what was asked for.
#pragma once

#include "post/HistogramDifference.h"
#include "post/SplitCompose.h"

#include <array>
#include <optional>
#include <string>

namespace ui {

/// The mode combo's entries: off, side by side, difference.
inline constexpr std::array<const char*, 3> kSplitModeLabels{"off", "side by side", "difference |A-B|"};

struct SplitPanelInput
{
    post::SplitMode mode = post::SplitMode::Off;
    float position = post::kDefaultSplitPosition;
    float gain = post::kDefaultSplitGain;
    const std::optional<post::HistogramDifference>* difference = nullptr;
    std::string labelA;  ///< "A: ward"
    std::string labelB;
};

struct SplitPanelActions
{
    std::optional<post::SplitMode> mode;
    std::optional<float> position;
    std::optional<float> gain;
    bool copyAToB = false;
};

/// Draws the panel into the current window.
SplitPanelActions drawSplitPanel(const SplitPanelInput& input);

/// The side labels over the image, on ImGui's foreground draw list: A left of `dividerX`, B right of
/// it, at the image's top edge `top` between `left` and `right` (ImGui screen coordinates). In the
/// difference view (`difference`) one label "|A - B| x gain" at the left.
void drawSplitLabels(const SplitPanelInput& input, float dividerX, float left, float right, float top);

}  // namespace ui
