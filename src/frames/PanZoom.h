// PanZoom.h: the pan/zoom maths of `hdrlab view`: where an image of one size lands in a window of
// another, "fit" by default, zoomed about the cursor and panned by dragging.
//
// Coordinates are GL's: window pixels from the bottom-left corner of the framebuffer, image pixels
// from the bottom-left of the (bottom-up) texture. The view is `window = offset + image * zoom`.
// Limits: zoom stays in [min(fit, 1), kMaxZoom]; along an axis where the zoomed image is narrower
// than the window it is centred, elsewhere it cannot be dragged past its edges (no empty margin).
#pragma once

#include <glm/vec2.hpp>
#include <glm/vec4.hpp>

#include <string>

namespace app {

struct PanZoom
{
    static constexpr double kMaxZoom = 64.0;  ///< window pixels per image pixel: pixel inspection

    double zoom = 1.0;       ///< window pixels per image pixel
    glm::dvec2 offset{0.0};  ///< window position of the image's bottom-left corner
    bool fitted = true;      ///< follows window resizes with the "fit" view until the user pans or zooms
};

/// The largest zoom that shows the whole image, centred (the default view).
PanZoom fitView(glm::ivec2 image, glm::ivec2 window);
/// Clamps zoom to [min(fit, 1), kMaxZoom] about the window centre, then the position (see header).
PanZoom clampView(PanZoom view, glm::ivec2 image, glm::ivec2 window);
/// Multiplies the zoom by `factor`, keeping the image point under `cursor` (window pixels) there, then clamps.
PanZoom zoomAbout(const PanZoom& view, glm::dvec2 cursor, double factor, glm::ivec2 image, glm::ivec2 window);
/// Moves the image by `delta` window pixels, then clamps.
PanZoom panBy(const PanZoom& view, glm::dvec2 delta, glm::ivec2 image, glm::ivec2 window);

glm::dvec2 windowToImage(const PanZoom& view, glm::dvec2 windowPoint);
glm::dvec2 imageToWindow(const PanZoom& view, glm::dvec2 imagePoint);

/// A blit of the visible part: source rectangle in image pixels, destination in window pixels,
/// both {x0, y0, x1, y1}; empty (x0 == x1) when nothing is visible.
struct BlitRects
{
    glm::ivec4 source{0};
    glm::ivec4 destination{0};
};
/// The visible image pixels (whole pixels, so a zoomed pixel is never cut in a blit) and where they go.
BlitRects visibleRects(const PanZoom& view, glm::ivec2 image, glm::ivec2 window);

/// "fit, 42 %" or "zoom 200 %, centre 512, 384" (image pixels, top-left origin as image viewers say).
std::string describeView(const PanZoom& view, glm::ivec2 image, glm::ivec2 window);

}  // namespace app
