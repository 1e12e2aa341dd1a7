// PanZoom maths of `hdrlab view`: the fit view, clamping of zoom and position, zoom about the
// cursor, and the visible rectangles the window blit uses.
#include "frames/PanZoom.h"

#include <gtest/gtest.h>

namespace {

using app::PanZoom;

constexpr glm::ivec2 kWindow{800, 600};

TEST(PanZoomTest, FitShowsTheWholeImageCentred)
{
    // Wide image: width decides, letterboxed top and bottom.
    PanZoom view = app::fitView({1600, 400}, kWindow);
    EXPECT_DOUBLE_EQ(view.zoom, 0.5);
    EXPECT_DOUBLE_EQ(view.offset.x, 0.0);
    EXPECT_DOUBLE_EQ(view.offset.y, (600.0 - 200.0) / 2.0);
    EXPECT_TRUE(view.fitted);
    // Tall small image: height decides and it is magnified.
    view = app::fitView({100, 200}, kWindow);
    EXPECT_DOUBLE_EQ(view.zoom, 3.0);
    EXPECT_DOUBLE_EQ(view.offset.x, (800.0 - 300.0) / 2.0);
    EXPECT_DOUBLE_EQ(view.offset.y, 0.0);
    // A one-pixel image is not magnified past the zoom limit.
    EXPECT_DOUBLE_EQ(app::fitView({1, 1}, kWindow).zoom, PanZoom::kMaxZoom);
}

TEST(PanZoomTest, ZoomKeepsTheImagePointUnderTheCursor)
{
    const glm::ivec2 image{1600, 1200};
    PanZoom view = app::fitView(image, kWindow);  // zoom 0.5, fills the window
    const glm::dvec2 cursor{200.0, 150.0};
    const glm::dvec2 before = app::windowToImage(view, cursor);
    PanZoom zoomed = app::zoomAbout(view, cursor, 4.0, image, kWindow);
    EXPECT_DOUBLE_EQ(zoomed.zoom, 2.0);
    EXPECT_FALSE(zoomed.fitted);
    const glm::dvec2 after = app::windowToImage(zoomed, cursor);
    EXPECT_NEAR(after.x, before.x, 1e-9);
    EXPECT_NEAR(after.y, before.y, 1e-9);
}

TEST(PanZoomTest, ZoomIsClampedToFitOrOneToOneAndTheMaximum)
{
    const glm::ivec2 image{1600, 1200};
    PanZoom view = app::fitView(image, kWindow);
    PanZoom in = app::zoomAbout(view, {400, 300}, 1e6, image, kWindow);
    EXPECT_DOUBLE_EQ(in.zoom, PanZoom::kMaxZoom);
    PanZoom out = app::zoomAbout(in, {400, 300}, 1e-6, image, kWindow);
    EXPECT_DOUBLE_EQ(out.zoom, 0.5);  // the fit zoom (below 1:1 for a large image)
    // A small image can be reduced to 1:1, not below.
    const glm::ivec2 small{100, 100};
    PanZoom smallOut = app::zoomAbout(app::fitView(small, kWindow), {400, 300}, 1e-6, small, kWindow);
    EXPECT_DOUBLE_EQ(smallOut.zoom, 1.0);
    EXPECT_DOUBLE_EQ(smallOut.offset.x, 350.0);  // narrower than the window: centred
    EXPECT_DOUBLE_EQ(smallOut.offset.y, 250.0);
}

TEST(PanZoomTest, PanningStopsAtTheImageEdges)
{
    const glm::ivec2 image{1600, 1200};
    PanZoom view = app::zoomAbout(app::fitView(image, kWindow), {400, 300}, 2.0, image, kWindow);  // 1:1
    ASSERT_DOUBLE_EQ(view.zoom, 1.0);
    PanZoom right = app::panBy(view, {1e5, 1e5}, image, kWindow);
    EXPECT_DOUBLE_EQ(right.offset.x, 0.0);  // the image's left edge at the window's left edge
    EXPECT_DOUBLE_EQ(right.offset.y, 0.0);
    PanZoom left = app::panBy(view, {-1e5, -1e5}, image, kWindow);
    EXPECT_DOUBLE_EQ(left.offset.x, 800.0 - 1600.0);
    EXPECT_DOUBLE_EQ(left.offset.y, 600.0 - 1200.0);
    PanZoom some = app::panBy(right, {-30.0, -20.0}, image, kWindow);
    EXPECT_DOUBLE_EQ(some.offset.x, -30.0);
    EXPECT_DOUBLE_EQ(some.offset.y, -20.0);
    EXPECT_FALSE(some.fitted);
}

TEST(PanZoomTest, VisibleRectsCoverWholePixelsOnly)
{
    const glm::ivec2 image{1600, 1200};
    PanZoom fit = app::fitView(image, kWindow);
    app::BlitRects all = app::visibleRects(fit, image, kWindow);
    EXPECT_EQ(all.source, glm::ivec4(0, 0, 1600, 1200));
    EXPECT_EQ(all.destination, glm::ivec4(0, 0, 800, 600));

    // 4x, offset by a fraction of a pixel: partly visible pixels are included, so the destination
    // reaches a little past the window and every image pixel spans exactly 4 window pixels.
    PanZoom zoomed;
    zoomed.zoom = 4.0;
    zoomed.offset = {-402.0, -10.0};
    zoomed.fitted = false;
    app::BlitRects part = app::visibleRects(zoomed, image, kWindow);
    EXPECT_EQ(part.source, glm::ivec4(100, 2, 301, 153));
    EXPECT_EQ(part.destination, glm::ivec4(-2, -2, 802, 602));
    EXPECT_EQ(part.destination.z - part.destination.x, 4 * (part.source.z - part.source.x));

    PanZoom away = zoomed;
    away.offset = {5000.0, 0.0};  // unclamped: entirely right of the window
    app::BlitRects none = app::visibleRects(away, image, kWindow);
    EXPECT_EQ(none.source.x, none.source.z);
}

TEST(PanZoomTest, DescribeSaysFitOrZoomAndCentre)
{
    const glm::ivec2 image{1600, 1200};
    EXPECT_EQ(app::describeView(app::fitView(image, kWindow), image, kWindow), "fit, 50 %");
    PanZoom oneToOne = app::zoomAbout(app::fitView(image, kWindow), {400, 300}, 2.0, image, kWindow);
    EXPECT_EQ(app::describeView(oneToOne, image, kWindow), "zoom 100 %, centre 800, 600");
}

}  // namespace
