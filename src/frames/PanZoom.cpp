#include "frames/PanZoom.h"

#include <glm/common.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace app {
namespace {

double fitZoom(glm::ivec2 image, glm::ivec2 window)
{
    if (image.x <= 0 || image.y <= 0 || window.x <= 0 || window.y <= 0)
        return 1.0;
    return std::min(double(window.x) / image.x, double(window.y) / image.y);
}

/// One axis: centred when the image is narrower than the window, else no margin at either edge.
double clampAxis(double offset, double extent, double window)
{
    if (extent <= window)
        return (window - extent) * 0.5;
    return std::clamp(offset, window - extent, 0.0);
}

}  // namespace

PanZoom fitView(glm::ivec2 image, glm::ivec2 window)
{
    PanZoom view;
    view.zoom = std::min(fitZoom(image, window), PanZoom::kMaxZoom);
    view.offset = (glm::dvec2(window) - glm::dvec2(image) * view.zoom) * 0.5;
    view.fitted = true;
    return view;
}

PanZoom clampView(PanZoom view, glm::ivec2 image, glm::ivec2 window)
{
    const double minZoom = std::min(fitZoom(image, window), 1.0);
    const double zoom = std::clamp(view.zoom, minZoom, PanZoom::kMaxZoom);
    if (zoom != view.zoom) {
        const glm::dvec2 centre = glm::dvec2(window) * 0.5;
        view.offset = centre - (centre - view.offset) * (zoom / view.zoom);
        view.zoom = zoom;
    }
    const glm::dvec2 extent = glm::dvec2(image) * view.zoom;
    view.offset.x = clampAxis(view.offset.x, extent.x, window.x);
    view.offset.y = clampAxis(view.offset.y, extent.y, window.y);
    return view;
}

PanZoom zoomAbout(const PanZoom& view, glm::dvec2 cursor, double factor, glm::ivec2 image, glm::ivec2 window)
{
    const double minZoom = std::min(fitZoom(image, window), 1.0);
    PanZoom next = view;
    next.zoom = std::clamp(view.zoom * factor, minZoom, PanZoom::kMaxZoom);
    // The image point under the cursor stays under it: cursor = offset + point * zoom before and after.
    const glm::dvec2 point = windowToImage(view, cursor);
    next.offset = cursor - point * next.zoom;
    next.fitted = false;
    return clampView(next, image, window);
}

PanZoom panBy(const PanZoom& view, glm::dvec2 delta, glm::ivec2 image, glm::ivec2 window)
{
    PanZoom next = view;
    next.offset += delta;
    next.fitted = false;
    return clampView(next, image, window);
}

glm::dvec2 windowToImage(const PanZoom& view, glm::dvec2 windowPoint)
{
    return (windowPoint - view.offset) / view.zoom;
}

glm::dvec2 imageToWindow(const PanZoom& view, glm::dvec2 imagePoint)
{
    return view.offset + imagePoint * view.zoom;
}

BlitRects visibleRects(const PanZoom& view, glm::ivec2 image, glm::ivec2 window)
{
    BlitRects rects;
    const glm::dvec2 low = glm::max(windowToImage(view, glm::dvec2(0.0)), glm::dvec2(0.0));
    const glm::dvec2 high = glm::min(windowToImage(view, glm::dvec2(window)), glm::dvec2(image));
    const glm::ivec2 first(glm::floor(low));
    const glm::ivec2 last(glm::ceil(high));
    if (last.x <= first.x || last.y <= first.y)
        return rects;
    const glm::dvec2 from = imageToWindow(view, glm::dvec2(first));
    const glm::dvec2 to = imageToWindow(view, glm::dvec2(last));
    rects.source = {first.x, first.y, last.x, last.y};
    rects.destination = {int(std::lround(from.x)), int(std::lround(from.y)), int(std::lround(to.x)),
                         int(std::lround(to.y))};
    return rects;
}

std::string describeView(const PanZoom& view, glm::ivec2 image, glm::ivec2 window)
{
    char text[96];
    const int percent = int(std::lround(view.zoom * 100.0));
    if (view.fitted) {
        std::snprintf(text, sizeof text, "fit, %d %%", percent);
    } else {
        const glm::dvec2 centre = windowToImage(view, glm::dvec2(window) * 0.5);
        std::snprintf(text, sizeof text, "zoom %d %%, centre %d, %d", percent, int(std::floor(centre.x)),
                      int(std::floor(image.y - centre.y)));
    }
    return text;
}

}  // namespace app
