// FrameSource.h: the seam between the app's frame loop and what it feeds the post pipeline: a
// scene-linear HDR texture per frame. Three sources exist: the scene renderer (SceneFrameSource, the
// default live mode), a still image file (StillImageSource, `hdrlab view IMAGE`) and a sequence of
// frames (SequenceSource, `hdrlab view SEQUENCE`, `tonemap`). The loop asks the source to follow
// input, to render (the scene draws; an image was uploaded once; a sequence uploads its next frame),
// and where its frame goes in the viewport (the part of the window the panels leave:
// ui/PanelLayout.h); the pipeline reads post::ImageInput{hdr(), size()} either way.
#pragma once

#include "frames/PanZoom.h"
#include "gl/Texture.h"
#include "image/Image.h"
#include "post/PostTypes.h"

#include <glm/vec2.hpp>

#include <optional>
#include <string>
#include <vector>

struct GLFWwindow;

namespace profiling {
class Profiler;
}

namespace app {

/// One frame's input, as the loop sees it.
struct FrameSourceInput
{
    GLFWwindow* window = nullptr;  ///< null headless (and in a window run on the fixed step: --fixed-step)
    glm::ivec2 viewportSize{0};    ///< where the frame is shown, framebuffer pixels (headless: the frame size)
    glm::dvec2 cursor{0.0};        ///< the mouse in viewport pixels from its bottom-left corner (window)
    double dt = 0.0;               ///< seconds since the last frame
    double pathSeconds = 0.0;      ///< headless: time on the deterministic path (frame / 60 s)
    bool mouseFree = true;         ///< the panels do not want the mouse
    bool keyboardFree = true;      ///< the panels do not want the keyboard
    double scrollY = 0.0;          ///< mouse wheel since the last frame (window)
    /// Keys pressed since the last frame (GLFW key codes, in order; repeats and presses with Ctrl or Alt
    /// left out), only while the panels do not want the keyboard: a tap between two slow frames counts.
    std::vector<int> keysPressed;

    bool tapped(int key) const;
};

class FrameSource
{
public:
    virtual ~FrameSource() = default;

    /// "Scene" or "Image": how the Frame panel introduces name().
    virtual const char* kind() const = 0;
    /// The scene's source name or the image's file name (Frame panel, capture metadata "scene").
    virtual std::string name() const = 0;
    /// One line about the frame (a scene's "description"); empty where there is none.
    virtual std::string description() const { return {}; }
    /// The frame the pipeline runs on, in pixels.
    virtual glm::ivec2 size() const = 0;
    /// The scene renders at the viewport's size (with the panels hidden in a window, at the aspect of
    /// the viewport they would leave, as large as fits: ui/PanelLayout.h); an image keeps its own.
    virtual bool followsWindowSize() const = 0;
    virtual void resize(glm::ivec2 size) = 0;
    /// Camera or pan/zoom from the window, or the headless path.
    virtual void update(const FrameSourceInput& input) = 0;
    /// Fills hdr() for this frame, timed under the source's own profiler scopes (none where nothing runs).
    virtual void render(profiling::Profiler& profiler) = 0;
    /// Scene-linear RGBA, bottom row first (GL convention), size() pixels, times 2^preExposure().
    virtual const gl::Texture& hdr() const = 0;
    /// The k hdr() was stored with (post::ImageInput::preExposure; scene/PreExposure.h); 0 for images.
    virtual int preExposure() const { return 0; }
    /// Whether the frames are stored pre-exposed at all (an rgba16f scene frame), k possibly 0: its
    /// HDR outputs are written as 32-bit floats times 2^-k.
    virtual bool preExposed() const { return false; }
    /// The frame's depth (hdr()'s size; 1.0 where nothing was drawn: the sky), for the percentile
    /// operator's sky exclusion; nullptr where the source has none (an image).
    virtual const gl::Texture* depth() const { return nullptr; }
    /// What is known of a still picture's file (view, units), for operators that use it; nullopt for
    /// rendered frames.
    virtual std::optional<post::PictureInfo> pictureInfo() const { return std::nullopt; }
    /// A still picture's Radiance header (what one unit of it is: post/LuminanceUnits.h), nullopt for
    /// anything else; the pipeline's units follow it every frame.
    virtual std::optional<image::RadianceHeader> radiance() const { return std::nullopt; }
    /// Vertical field of view the frame stands for (Ward's foveal grid depends on it).
    virtual float verticalFovDegrees() const = 0;
    /// One line of controls or state under the name in the Frame panel.
    virtual std::string hint(bool isWindow, double pathSeconds) const = 0;
    /// The window's controls, for a tooltip after the hint; empty where the hint says them.
    virtual std::string controlsHelp() const { return {}; }
    /// Where the display image (size()) goes in a viewport of `viewportSize` pixels (rectangles from
    /// the viewport's bottom-left corner; the app offsets them to the viewport's place in the window).
    virtual BlitRects placement(glm::ivec2 viewportSize) const = 0;

    // Sources with frames of their own (a sequence); the others keep these defaults.
    /// Seconds per frame at the source's own rate (a sequence's --fps): headless runs step by it
    /// instead of the camera path's fixed 1/60 s. nullopt: the app's fixed step.
    virtual std::optional<double> framePeriod() const { return std::nullopt; }
    /// Headless: whether there is a frame to render next; false once a sequence has played to its
    /// end or stopped at a bad frame, which ends the run. May wait for the frame to decode.
    virtual bool hasNextFrame() { return true; }
    /// Why the source stopped early (a bad frame under --on-bad-frame stop); empty when it did not.
    virtual std::string stopReason() const { return {}; }
    /// The number of the frame shown (a sequence's frame number), for numbered per-frame outputs;
    /// nullopt where the source has none (the run's frame index stands in).
    virtual std::optional<long long> frameNumber() const { return std::nullopt; }

    // Sources that hold several pictures at once (the tev display server's images).
    /// Their names, for the Frame panel's combo; empty: no combo.
    virtual std::vector<std::string> pictureChoices() const { return {}; }
    /// The index of the one shown in pictureChoices(); -1: none.
    virtual int chosenPicture() const { return -1; }
    /// Shows another (from the combo); an index out of range is ignored.
    virtual void choosePicture(int) {}
};

}  // namespace app
