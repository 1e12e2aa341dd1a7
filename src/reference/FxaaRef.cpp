#include "reference/FxaaRef.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <stdexcept>

namespace ref {

namespace {

// The pass's constants (post/DisplayAntiAliasing.h explains them; DisplayFxaa.comp has the same).
constexpr int kAbsoluteThreshold = 4080;  // 1/16 of the luma range
constexpr int kRelativeShift = 3;         // 1/8 of the brightest luma
constexpr std::array<int, 11> kSearchSteps{1, 1, 1, 1, 1, 1, 2, 2, 2, 4, 8};

struct Image
{
    const std::vector<std::uint8_t>& rgba;
    int width;
    int height;

    const std::uint8_t* at(int x, int y) const
    {
        x = std::clamp(x, 0, width - 1);
        y = std::clamp(y, 0, height - 1);
        return &rgba[(std::size_t(y) * std::size_t(width) + std::size_t(x)) * 4u];
    }
    int luma(int x, int y) const
    {
        const std::uint8_t* p = at(x, y);
        return fxaaLuma(p[0], p[1], p[2]);
    }
};

struct EdgeEnd
{
    bool found = false;
    int distance = 0;  ///< pixels along the edge to where it ends (the search's reach if not found)
    int delta = 0;     ///< the end's pair luma minus the edge's
};

EdgeEnd searchEdgeEnd(const Image& image, int x, int y, int dx, int dy, int ox, int oy, int edgeLuma, int gradient)
{
    EdgeEnd end;
    for (const int step : kSearchSteps) {
        end.distance += step;
        const int px = x + dx * end.distance, py = y + dy * end.distance;
        const int pair = image.luma(px, py) + image.luma(px + ox, py + oy);
        if (2 * std::abs(pair - edgeLuma) >= gradient) {
            end.found = true;
            end.delta = pair - edgeLuma;
            return end;
        }
    }
    return end;
}

/// Weight of the neighbour across the edge, in 1/256 (0 keeps the pixel), and that neighbour's offset.
int blendWeight(const Image& image, int x, int y, int& ox, int& oy)
{
    const int m = image.luma(x, y);
    const int n = image.luma(x, y + 1), s = image.luma(x, y - 1);
    const int e = image.luma(x + 1, y), w = image.luma(x - 1, y);
    const int lo = std::min({m, n, s, e, w}), hi = std::max({m, n, s, e, w});
    const int range = hi - lo;
    if (range < std::max(kAbsoluteThreshold, hi >> kRelativeShift))
        return 0;
    const int ne = image.luma(x + 1, y + 1), nw = image.luma(x - 1, y + 1);
    const int se = image.luma(x + 1, y - 1), sw = image.luma(x - 1, y - 1);

    // Sub-pixel aliasing: how far the pixel stands out of its 3x3 low-pass, relative to the range.
    const int lowPass12 = 2 * (n + s + e + w) + (ne + nw + se + sw);
    const int ratio = std::min(256, std::abs(lowPass12 - 12 * m) * 256 / (12 * range));
    const int eased = (ratio * ratio * (768 - 2 * ratio)) >> 16;
    const int subPixel = (eased * eased * 3) >> 10;

    // The edge's orientation: across which axis the luma changes more.
    const int acrossY = 2 * std::abs(n + s - 2 * m) + std::abs(ne + se - 2 * e) + std::abs(nw + sw - 2 * w);
    const int acrossX = 2 * std::abs(e + w - 2 * m) + std::abs(ne + nw - 2 * n) + std::abs(se + sw - 2 * s);
    const bool horizontal = acrossY >= acrossX;
    const int lumaNegative = horizontal ? s : w, lumaPositive = horizontal ? n : e;
    const int gradientNegative = std::abs(lumaNegative - m), gradientPositive = std::abs(lumaPositive - m);
    const int side = gradientNegative >= gradientPositive ? -1 : 1;
    const int gradient = std::max(gradientNegative, gradientPositive);
    const int edgeLuma = m + (side < 0 ? lumaNegative : lumaPositive);  // twice the edge's mean
    ox = horizontal ? 0 : side;
    oy = horizontal ? side : 0;
    const int dx = horizontal ? 1 : 0, dy = horizontal ? 0 : 1;

    const EdgeEnd forward = searchEdgeEnd(image, x, y, dx, dy, ox, oy, edgeLuma, gradient);
    const EdgeEnd backward = searchEdgeEnd(image, x, y, -dx, -dy, ox, oy, edgeLuma, gradient);
    const EdgeEnd& nearer = forward.distance <= backward.distance ? forward : backward;
    int edge = 0;
    // Blend only towards the end where the edge leaves this pixel's side: the pixel and the end
    // differ from the edge's mean in opposite directions.
    if (nearer.found && (nearer.delta < 0) != (2 * m - edgeLuma < 0))
        edge = std::max(0, 128 - 256 * nearer.distance / (forward.distance + backward.distance));
    return std::max(edge, subPixel);
}

}  // namespace

int fxaaLuma(std::uint8_t r, std::uint8_t g, std::uint8_t b)
{
    return 54 * int(r) + 183 * int(g) + 19 * int(b);
}

std::vector<std::uint8_t> fxaa(const std::vector<std::uint8_t>& rgba, int width, int height)
{
    if (width <= 0 || height <= 0 || rgba.size() != std::size_t(width) * std::size_t(height) * 4u)
        throw std::invalid_argument("fxaa reference: the image must be RGBA8 of width x height");
    const Image image{rgba, width, height};
    std::vector<std::uint8_t> out(rgba.size());
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            int ox = 0, oy = 0;
            const int weight = blendWeight(image, x, y, ox, oy);
            const std::uint8_t* p = image.at(x, y);
            const std::uint8_t* q = image.at(x + ox, y + oy);
            std::uint8_t* o = &out[(std::size_t(y) * std::size_t(width) + std::size_t(x)) * 4u];
            for (int c = 0; c < 3; ++c)
                o[c] = std::uint8_t((int(p[c]) * (256 - weight) + int(q[c]) * weight + 128) >> 8);
            o[3] = 255;
        }
    return out;
}

}  // namespace ref
