// ExposurePanel.h: the "Exposure" panel: the tone operator's key value (EV) and the frame time over the
// last N seconds as two line plots, with the flicker figure of that window (post/ExposureHistory.h
// defines it). It reads the history the app fills and never touches the GPU; key values arrive a few
// frames late, so the newest frames of the plot have none yet.
#pragma once

#include "post/ExposureHistory.h"

#include <string_view>

namespace ui {

class ExposurePanel
{
public:
    /// Draws the panel into the current window. `keyValueName` is empty for an operator without a key
    /// value (the panel says so).
    void draw(post::ExposureHistory& history, std::string_view operatorId, std::string_view keyValueName);

private:
    float mWindowSeconds = 10.0f;
};

}  // namespace ui
