// FreeFlyController.h: interactive fly-through camera control for the windowed app.
//
// WASD moves in the view plane, Q/E move down/up, Shift moves faster; the mouse turns the camera
// while the right button is held (the cursor is captured meanwhile). Input that ImGui wants is left
// alone: the caller passes ImGui's WantCaptureMouse / WantCaptureKeyboard. Headless runs never use
// this; they follow the scene's deterministic camera path instead.
#pragma once

#include "scene/Camera.h"

struct GLFWwindow;

namespace scene {

struct FreeFlySettings
{
    float speed = 3.0f;             ///< metres per second
    float fastMultiplier = 5.0f;    ///< while Shift is held
    float degreesPerPixel = 0.15f;  ///< mouse-look sensitivity
};

class FreeFlyController
{
public:
    explicit FreeFlyController(FreeFlySettings settings = {}) : mSettings(settings) {}

    /// Applies one frame of input to `camera`. Returns true if the camera changed.
    bool update(GLFWwindow* window, double dtSeconds, bool imguiWantsMouse, bool imguiWantsKeyboard, Camera& camera);

    FreeFlySettings& settings() { return mSettings; }
    bool looking() const { return mLooking; }

private:
    FreeFlySettings mSettings;
    bool mLooking = false;
    double mLastCursorX = 0.0;
    double mLastCursorY = 0.0;
};

}  // namespace scene
