// ImageViewControls.h: the window's pan and zoom over an image-sized frame (`view IMAGE` and
// sequences): a left drag pans, the wheel zooms about the cursor, +/- zoom about the centre, 1 shows
// 1:1 pixels, F or 0 fits. Headless the frame is the whole output, fitted. The maths is PanZoom.h;
// this holds the interaction state (the drag, the viewport size) that GLFW input drives. Sizes and
// the cursor are the viewport's (the part of the window the panels leave), in framebuffer pixels.
#pragma once

#include "frames/FrameSource.h"
#include "frames/PanZoom.h"

#include <string>

namespace app {

class ImageViewControls
{
public:
    /// Follows the window's input (or, headless, fits) for a frame of `image` pixels.
    void update(const FrameSourceInput& input, glm::ivec2 image);
    /// Where the visible part of the frame goes in a viewport of `viewportSize`.
    BlitRects placement(glm::ivec2 viewportSize, glm::ivec2 image) const;
    /// "fit, 42 %" or "zoom 200 %, centre X, Y" (PanZoom.h describeView).
    std::string describe(glm::ivec2 image) const;
    /// Back to the fitted view (the Frame panel's Fit; a new image).
    void fit() { mView.fitted = true; }
    const PanZoom& view() const { return mView; }

    /// The keys and mouse, for the Frame panel's controls tooltip.
    static constexpr const char* kHelp =
        "Drag pans, the wheel zooms about the cursor, +/- zoom about the centre, 1 shows 1:1, F or 0 fits";

private:
    PanZoom mView;
    glm::ivec2 mViewportSize{0};
    bool mDragging = false;
    glm::dvec2 mLastCursor{0.0};
};

}  // namespace app
