// ExposurePanel.h: the "Exposure" panel: the tone operator's key value (EV) and the frame time (ms)
// over the last N seconds as two line plots with axes (value ticks at a nice step, time in seconds
// before the newest frame), with the flicker figure of that window (post/ExposureHistory.h defines
// it). It reads the history the app fills and never touches the GPU; key values arrive a few frames
// late, so the newest frames of the plot have none yet. An operator with an exposure compensation
// curve (percentile) also gets a plot of that curve over the metered log2 L, the newest metered value
// read back marked on it; cuts are marked on the key value plot. The two time plots come first, one
// caption line each, as tall as the region allows (their height depends on the region only) and with
// aligned time axes; the window's length, the cuts' count and the compensation curve follow.
#pragma once

#include "post/ExposureHistory.h"
#include "post/tonemap/ToneCapabilities.h"

#include <optional>
#include <span>
#include <string_view>

namespace ui {

class ExposurePanel
{
public:
    /// Draws the panel into the current window. `keyValueName` is empty for an operator without a key
    /// value (the panel says so).
    void draw(post::ExposureHistory& history,
              std::string_view operatorId,
              std::string_view keyValueName,
              const std::optional<post::CompensationCurveView>& compensation = std::nullopt);

private:
    float mWindowSeconds = 10.0f;
};

/// A value at a time: `secondsAgo` <= 0 before the newest frame.
struct TimeSample
{
    float secondsAgo = 0.0f;
    float value = 0.0f;
};

/// The compensation curve over the metered log2 L (x) in compensation EV (y), `height` tall and as
/// wide as the room left: the points joined by lines and held flat beyond the ends, each point a dot,
/// the metered value a marker with its value in a tooltip; axes with nice ticks.
void drawCompensationCurve(const char* id, const post::CompensationCurveView& view, float height);

/// `samples` as a line over the last `windowSeconds`, `height` tall and as wide as the room left: a y
/// axis from `low` to `high` with ticks at a nice step (numbers only: the unit goes in the caption
/// above), an x axis in seconds ("-10 s" .. "0 s"), and the sample under the mouse in a tooltip
/// ("`unit`" after its value), with a vertical line at each of `cutsSecondsAgo`. Every number is drawn
/// inside the plot's item (ui/TextFit.h checks it). The y numbers take at least `minLeftMargin` at the
/// left, so plots stacked with the same margin have their time axes aligned.
void drawTimePlot(const char* id,
                  std::span<const TimeSample> samples,
                  float windowSeconds,
                  float low,
                  float high,
                  float height,
                  const char* unit,
                  std::span<const float> cutsSecondsAgo = {},
                  float minLeftMargin = 0.0f);

}  // namespace ui
