// FramePanel.h: the "Frame" panel: GPU, driver, platform, resolution, frame rate and frame time, vsync
// and scene. It only presents what it is given (the frame time comes from the Profiler).
#pragma once

#include "platform/GlContext.h"
#include "util/Stats.h"

#include <glm/vec2.hpp>

#include <string>

namespace ui {

struct FrameInfo
{
    const platform::GlInfo& gl;
    std::string sceneName;
    glm::ivec2 resolution{0};
    util::Summary frameTimeMs;  ///< CPU frame-to-frame time over the profiler's window
    bool isWindow = false;
    std::string cameraHint;  ///< e.g. "WASD + right mouse: fly" or "camera path t = 1.23 s"
};

struct FramePanelActions
{
    bool vsyncChanged = false;
};

/// Draws the panel; `vsync` is edited in place when the context is a window.
FramePanelActions drawFramePanel(const FrameInfo& info, bool& vsync);

}  // namespace ui
