// FreeFlyController.cpp: WASD + right-mouse-look camera control (see FreeFlyController.h).
#include "scene/FreeFlyController.h"

#include "gl/Gl.h"

#include <GLFW/glfw3.h>

#include <algorithm>
#include <cmath>

namespace scene {

bool FreeFlyController::update(GLFWwindow* window,
                               double dtSeconds,
                               bool imguiWantsMouse,
                               bool imguiWantsKeyboard,
                               Camera& camera)
{
    if (!window)
        return false;
    bool changed = false;
    // dt is clamped so that a long stall (a breakpoint, a resize) does not fling the camera away.
    float dt = float(std::clamp(dtSeconds, 0.0, 0.1));

    bool rightHeld = glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_RIGHT) == GLFW_PRESS;
    if (rightHeld && !mLooking && !imguiWantsMouse) {
        mLooking = true;
        glfwGetCursorPos(window, &mLastCursorX, &mLastCursorY);
        glfwSetInputMode(window, GLFW_CURSOR, GLFW_CURSOR_DISABLED);
    } else if (!rightHeld && mLooking) {
        mLooking = false;
        glfwSetInputMode(window, GLFW_CURSOR, GLFW_CURSOR_NORMAL);
    }
    if (mLooking) {
        double x = 0.0, y = 0.0;
        glfwGetCursorPos(window, &x, &y);
        double dx = x - mLastCursorX;
        double dy = y - mLastCursorY;
        mLastCursorX = x;
        mLastCursorY = y;
        if (dx != 0.0 || dy != 0.0) {
            camera.yawDegrees += float(dx) * mSettings.degreesPerPixel;
            camera.pitchDegrees =
                std::clamp(camera.pitchDegrees - float(dy) * mSettings.degreesPerPixel, -89.0f, 89.0f);
            camera.yawDegrees = std::fmod(camera.yawDegrees, 360.0f);
            changed = true;
        }
    }

    // While mouse-looking the keyboard belongs to the camera even if an ImGui field had focus.
    if (imguiWantsKeyboard && !mLooking)
        return changed;
    auto held = [&](int key) { return glfwGetKey(window, key) == GLFW_PRESS; };
    glm::vec3 move(0.0f);
    if (held(GLFW_KEY_W))
        move += camera.forward();
    if (held(GLFW_KEY_S))
        move -= camera.forward();
    if (held(GLFW_KEY_D))
        move += camera.right();
    if (held(GLFW_KEY_A))
        move -= camera.right();
    if (held(GLFW_KEY_E))
        move.y += 1.0f;
    if (held(GLFW_KEY_Q))
        move.y -= 1.0f;
    float length = std::sqrt(move.x * move.x + move.y * move.y + move.z * move.z);
    if (length > 0.0f) {
        float speed = mSettings.speed;
        if (held(GLFW_KEY_LEFT_SHIFT) || held(GLFW_KEY_RIGHT_SHIFT))
            speed *= mSettings.fastMultiplier;
        camera.position += move / length * speed * dt;
        changed = true;
    }
    return changed;
}

}  // namespace scene
