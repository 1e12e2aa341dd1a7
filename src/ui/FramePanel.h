// FramePanel.h: the "Frame" panel: GPU, driver, platform, frame size, frame rate and frame time, vsync
// and the frame's source (a scene, or the image of `hdrlab view` with its pan/zoom state), with the
// scene combo over the shipped presets and the scene's description (wrapped at words, three lines at
// most, the whole text on hover). It only presents what it is given (the frame time comes from the
// Profiler) and returns what was asked for.
#pragma once

#include "platform/GlContext.h"
#include "scene/PreExposure.h"
#include "scene/ScenePresets.h"
#include "scene/SceneRenderer.h"
#include "util/Stats.h"

#include <glm/vec2.hpp>

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace ui {

struct FrameInfo
{
    const gl::GlInfo& gl;
    std::string sceneName;
    glm::ivec2 resolution{0};   ///< the frame's (the viewport's, for a scene)
    glm::ivec2 canvas{0};       ///< the window's framebuffer, or the headless --ui screenshot
    util::Summary frameTimeMs;  ///< CPU frame-to-frame time over the profiler's window
    bool isWindow = false;
    std::string cameraHint;            ///< e.g. "WASD + right mouse: fly" or "camera path t = 1.23 s"
    std::string sourceKind = "Scene";  ///< "Scene" or "Image": how sceneName is introduced
    std::string sourceStatus;          ///< e.g. why a dropped file was refused; empty: nothing to say
    std::string controlsHelp;          ///< tooltip after the hint (e.g. the pan/zoom controls); empty: none
    bool canFit = false;               ///< an image view: offer "Fit"
    std::string description;           ///< the scene's description; empty: none
    const std::vector<scene::ScenePreset>* presets = nullptr;  ///< the scene combo's entries; null: no combo
    int currentPreset = -1;                                    ///< index into presets; -1: a scene not listed
    std::optional<scene::LightingPath> lighting;               ///< a scene's lighting path; none: no combo
    std::optional<scene::FrameFormat> frameFormat;             ///< a scene's frame format; none: no combo
    std::string frameStore;             ///< app::describeFrameStore: the format, k and what clipped
    bool clipping = false;              ///< the newest frame read back has clipped pixels (shown as a warning)
    std::vector<std::string> pictures;  ///< a source's pictures (the tev server's images); empty: no combo
    int chosenPicture = -1;             ///< index into pictures of the one shown
    bool* keepPicture = nullptr;        ///< a window's "keep the picture while using the panels"; null: none
};

struct FramePanelActions
{
    bool vsyncChanged = false;
    bool fitRequested = false;
    int presetRequested = -1;   ///< index into FrameInfo::presets chosen in the combo; -1: none
    int pictureRequested = -1;  ///< index into FrameInfo::pictures chosen in the combo; -1: none
    std::optional<scene::LightingPath> lightingRequested;    ///< chosen in the lighting combo
    std::optional<scene::FrameFormat> frameFormatRequested;  ///< chosen in the frame combo
};

/// The lighting combo's entries, in scene::LightingPath order (forward, deferred).
inline constexpr std::array<const char*, 2> kLightingPathLabels{"forward", "deferred (compute)"};
/// The frame combo's entries: scene::kFrameFormats' labels, in scene::FrameFormat order.
inline constexpr std::array<const char*, scene::kFrameFormats.size()> kFrameFormatLabels = scene::frameFormatLabels();

/// Draws the panel into the current window (a section of a panel column); `vsync` is edited in
/// place when the context is a window.
FramePanelActions drawFramePanel(const FrameInfo& info, bool& vsync);

}  // namespace ui
