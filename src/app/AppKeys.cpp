// AppKeys.cpp: the live window's keys (app/AppImpl.h), on GLFW's key events (app/WindowEvents.h) so a
// tap between two slow frames is not lost: the scheme is ui/KeyHelp.h's (F1 help, Tab panels, Esc or
// Ctrl+Q quit, F12 window PNG, Ctrl+R pipeline defaults, R camera); the rest go to the frame source
// (the image view's and the sequence's keys) as taps.
#include "app/AppImpl.h"

#include "profiling/Capture.h"
#include "util/Log.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_internal.h>  // ClosePopupToLevel: Esc closes an open list

#include <iostream>

namespace app {
namespace {

/// A second quit press within this many seconds quits while something unsaved would be lost.
constexpr double kQuitConfirmSeconds = 3.0;

}  // namespace

std::vector<int> App::Impl::handleKeys(const std::vector<WindowEvents::KeyPress>& keys, bool keyboardFree)
{
    std::vector<int> taps;
    // Esc with a combo's list open closes the list (as the panels' user expects), it never quits.
    const bool popupOpen =
        imgui && showUi && ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId | ImGuiPopupFlags_AnyPopupLevel);
    for (const WindowEvents::KeyPress& press : keys) {
        const bool ctrl = (press.mods & GLFW_MOD_CONTROL) != 0;
        const bool alt = (press.mods & GLFW_MOD_ALT) != 0;
        if (press.repeat)
            continue;  // a held key acts once (movement and zoom keys are polled by the sources)
        if (press.key == GLFW_KEY_F1) {
            showKeyHelp = !showKeyHelp;
            if (showKeyHelp)
                showUi = true;  // the help is drawn with the panels
        } else if (press.key == GLFW_KEY_ESCAPE && keyboardFree && showKeyHelp) {
            showKeyHelp = false;
        } else if (press.key == GLFW_KEY_ESCAPE && popupOpen) {
            ImGui::ClosePopupToLevel(0, true);
        } else if ((press.key == GLFW_KEY_ESCAPE && keyboardFree && !ctrl && !alt) ||
                   (press.key == GLFW_KEY_Q && ctrl)) {
            requestQuit();
        } else if (press.key == GLFW_KEY_F12) {
            windowPngRequested = true;
        } else if (press.key == GLFW_KEY_R && ctrl && !alt) {
            resetPipelineToDefaults();
        } else if (press.key == GLFW_KEY_O && ctrl && !alt && panels) {
            showUi = true;  // the open row is at the settings column's top
            panels->focusOpenRow();
        } else if ((press.key == GLFW_KEY_ENTER || press.key == GLFW_KEY_KP_ENTER) && panels &&
                   panels->openRowHasKeyboard()) {
            panels->submitOpenRow();  // ImGui may lose the tap between two slow frames
        } else if (!keyboardFree || ctrl || alt) {
            continue;  // a text field has the keyboard, or a shortcut that is not ours
        } else if (press.key == GLFW_KEY_TAB) {
            showUi = !showUi;
        } else if (press.key == GLFW_KEY_R && sceneSource) {
            sceneSource->resetCamera();
            say(ui::MessageKind::Info, "camera back at the scene's start (R)");
        } else {
            taps.push_back(press.key);
        }
    }
    return taps;
}

void App::Impl::requestQuit()
{
    const bool unsaved = uiRecording || uiCaptureFrames > 0;
    const auto now = std::chrono::steady_clock::now();
    if (unsaved && !(quitArmedAt && now - *quitArmedAt < std::chrono::duration<double>(kQuitConfirmSeconds))) {
        quitArmedAt = now;
        say(ui::MessageKind::Warning,
            "a recording runs: press Esc or Ctrl+Q again within 3 s to quit without writing it (Timings: Stop and "
            "write saves it)");
        return;
    }
    glfwSetWindowShouldClose(context->window(), GLFW_TRUE);
}

void App::Impl::resetPipelineToDefaults()
{
    std::string message;
    if (pipeline->applySettings(post::PipelineSettings{}, &message)) {
        profiler->resetStats();
        say(ui::MessageKind::Success, "pipeline reset to its defaults (Ctrl+R); timings restarted");
    } else {
        say(ui::MessageKind::Error, "reset to defaults failed: " + message);
    }
}

void App::Impl::writeWindowPngIfAsked()
{
    if (!std::exchange(windowPngRequested, false))
        return;
    const std::string path = "hdrlab-window-" + profiling::timestampForFileName() + ".png";
    try {
        writeBackBufferPng(path, canvas);
        say(ui::MessageKind::Success, "wrote " + path + " (F12)");
        std::cout << "wrote " << path << std::endl;
    } catch (const std::exception& error) {
        say(ui::MessageKind::Error, std::string("window PNG failed: ") + error.what());
        util::logError("window PNG failed: {}", error.what());
    }
}

}  // namespace app
