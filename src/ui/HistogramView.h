// HistogramView.h: the log-luminance histogram with the tone curve on one log2-luminance axis, drawn
// as Scheuermann & Hensley (2007) Figure 1 does: histogram in red, tone curve in green; the
// operator's markers (percentiles, exposure, Ward's ceiling, probes...) as vertical lines whose labels
// are staggered in rows above the plot, never over another label or a line (ui/PlotLabels.h; a marker
// with no room there is listed under the plot); EV ticks at a nice step, their numbers inside the
// plot's width; the counts of pixels in no bin (NaN, Inf, non-positive, below, above); and a small
// histogram of the displayed image beside it. Every text goes through ui/TextFit.h's check. Data come from
// PostPipeline::latestSnapshot(), read back asynchronously, so the view runs a few frames behind the image.
#pragma once

#include "post/PostPipeline.h"

#include <optional>

namespace ui {

class HistogramView
{
public:
    /// Draws into the current ImGui window (no Begin/End), the plots as tall as the window leaves.
    void draw(const std::optional<post::HistogramSnapshot>& snapshot, std::uint64_t currentFrame);

private:
    bool mLogCounts = false;
};

}  // namespace ui
