// ExposureFusion.cpp: the CPU reference of the fusion local exposure (reference/ExposureFusion.h),
// texel for texel as shaders/localexposure/FusionReduce.comp, FusionPyramid.comp and
// FusionCollapse.comp compute it (the same shared functions, the same order of operations; compiled
// without FMA contraction, sources.cmake).
#include "reference/ExposureFusion.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace ref {

namespace {

using Texel = std::array<float, 4>;

/// One pyramid level: the display values of the three exposures (and, at the base, the EV in [3]),
/// their normalised weights, and the collapse result.
struct Level
{
    int width = 0, height = 0;
    std::vector<Texel> display, weight;
    std::vector<float> collapsed;

    std::size_t index(int x, int y) const
    {
        return std::size_t(std::clamp(y, 0, height - 1)) * std::size_t(width) +
               std::size_t(std::clamp(x, 0, width - 1));
    }
};

/// Level 0: the mean EV of each block, the exposures' display values and normalised weights.
Level buildBase(const float* rgba,
                int width,
                int height,
                float offset,
                int reduction,
                post::FusionBracket bracket,
                const hd::LuminanceWeights& w)
{
    Level base;
    base.width = post::fusionBaseSide(width, reduction);
    base.height = post::fusionBaseSide(height, reduction);
    base.display.resize(std::size_t(base.width) * std::size_t(base.height));
    base.weight.resize(base.display.size());
    for (int by = 0; by < base.height; ++by)
        for (int bx = 0; bx < base.width; ++bx) {
            const int x0 = bx * reduction, y0 = by * reduction;
            const int x1 = std::min(x0 + reduction, width), y1 = std::min(y0 + reduction, height);
            float sum = 0.0f;
            for (int y = y0; y < y1; ++y)
                for (int x = x0; x < x1; ++x) {
                    const float* p = rgba + (std::size_t(y) * std::size_t(width) + std::size_t(x)) * 4;
                    sum += hd::hdFusionPixelEv(p[0], p[1], p[2], w.r, w.g, w.b, offset);
                }
            const float ev = hd::hdFusionMean(sum, float((x1 - x0) * (y1 - y0)));
            const float evs[3] = {ev - bracket.highlightEv, ev, ev + bracket.shadowEv};
            Texel d{}, weight{};
            for (int i = 0; i < 3; ++i) {
                d[std::size_t(i)] = hd::hdFusionEncode(evs[i]);
                weight[std::size_t(i)] = hd::hdFusionWeight(d[std::size_t(i)]);
            }
            const float total = (weight[0] + weight[1]) + weight[2];
            for (int i = 0; i < 3; ++i)
                weight[std::size_t(i)] = hd::hdDivide(weight[std::size_t(i)], total);
            d[3] = ev;
            const std::size_t at = base.index(bx, by);
            base.display[at] = d;
            base.weight[at] = weight;
        }
    return base;
}

/// Burt-Adelson reduce of one channel set: rows of five filtered first, then the column.
Texel reduceAt(const std::vector<Texel>& plane, const Level& fine, int x, int y)
{
    Texel out{};
    for (std::size_t c = 0; c < 4; ++c) {
        float rows[5];
        for (int j = 0; j < 5; ++j) {
            const int sy = 2 * y - 2 + j;
            float v[5];
            for (int i = 0; i < 5; ++i)
                v[i] = plane[fine.index(2 * x - 2 + i, sy)][c];
            rows[j] = hd::hdFusionReduce5(v[0], v[1], v[2], v[3], v[4]);
        }
        out[c] = hd::hdFusionReduce5(rows[0], rows[1], rows[2], rows[3], rows[4]);
    }
    return out;
}

Level reduceLevel(const Level& fine)
{
    Level coarse;
    coarse.width = (fine.width + 1) / 2;
    coarse.height = (fine.height + 1) / 2;
    coarse.display.resize(std::size_t(coarse.width) * std::size_t(coarse.height));
    coarse.weight.resize(coarse.display.size());
    for (int y = 0; y < coarse.height; ++y)
        for (int x = 0; x < coarse.width; ++x) {
            coarse.display[coarse.index(x, y)] = reduceAt(fine.display, fine, x, y);
            coarse.weight[coarse.index(x, y)] = reduceAt(fine.weight, fine, x, y);
        }
    return coarse;
}

/// The expand of a coarse plane at fine position (x, y): rows expanded first, then the column.
template <class Fetch>
float expandAt(Fetch fetch, int x, int y)
{
    const auto expandRow = [&](int row) {
        if (x % 2 == 0)
            return hd::hdFusionExpandEven(fetch(x / 2 - 1, row), fetch(x / 2, row), fetch(x / 2 + 1, row));
        return hd::hdFusionExpandOdd(fetch((x - 1) / 2, row), fetch((x + 1) / 2, row));
    };
    if (y % 2 == 0)
        return hd::hdFusionExpandEven(expandRow(y / 2 - 1), expandRow(y / 2), expandRow(y / 2 + 1));
    return hd::hdFusionExpandOdd(expandRow((y - 1) / 2), expandRow((y + 1) / 2));
}

/// Collapses level `k` (the coarser one, if any, already collapsed) into its `collapsed` values.
void collapseLevel(Level& level, const Level* coarser)
{
    level.collapsed.resize(level.display.size());
    for (int y = 0; y < level.height; ++y)
        for (int x = 0; x < level.width; ++x) {
            const std::size_t at = level.index(x, y);
            const Texel& d = level.display[at];
            const Texel& w = level.weight[at];
            if (!coarser) {
                level.collapsed[at] = (w[0] * d[0] + w[1] * d[1]) + w[2] * d[2];
                continue;
            }
            float lap[3];
            for (std::size_t i = 0; i < 3; ++i) {
                const float up =
                    expandAt([&](int cx, int cy) { return coarser->display[coarser->index(cx, cy)][i]; }, x, y);
                lap[i] = d[i] - up;
            }
            const float upCollapsed =
                expandAt([&](int cx, int cy) { return coarser->collapsed[coarser->index(cx, cy)]; }, x, y);
            const float detail = (w[0] * lap[0] + w[1] * lap[1]) + w[2] * lap[2];
            level.collapsed[at] = detail + upCollapsed;
        }
}

}  // namespace

FusionResult exposureFusion(const float* rgba,
                            int width,
                            int height,
                            float exposureLog2,
                            const post::FusionSettings& settings)
{
    FusionResult result;
    result.reduction = post::fusionReduction(settings);
    result.bracket = post::fusionBracket(settings);
    const float offset = post::fusionEvOffset(exposureLog2, settings);
    std::vector<Level> levels;
    levels.push_back(buildBase(rgba, width, height, offset, result.reduction, result.bracket, settings.luminance));
    result.width = levels[0].width;
    result.height = levels[0].height;
    result.levels = post::fusionLevelCount(result.width, result.height, settings.maxLevels);
    for (int k = 1; k < result.levels; ++k)
        levels.push_back(reduceLevel(levels.back()));
    for (int k = result.levels - 1; k >= 0; --k)
        collapseLevel(levels[std::size_t(k)], k + 1 < result.levels ? &levels[std::size_t(k + 1)] : nullptr);
    const Level& base = levels[0];
    result.adjustment.resize(base.display.size());
    result.baseEv.resize(base.display.size());
    result.fused = base.collapsed;
    for (std::size_t i = 0; i < base.display.size(); ++i) {
        result.baseEv[i] = base.display[i][3];
        result.adjustment[i] = hd::hdFusionAdjustment(base.collapsed[i], base.display[i][3], result.bracket.highlightEv,
                                                      result.bracket.shadowEv);
    }
    return result;
}

double sampleFusionAdjustment(const FusionResult& result, int x, int y)
{
    const double r = double(result.reduction);
    const double u = (double(x) + 0.5) / r - 0.5, v = (double(y) + 0.5) / r - 0.5;
    const double fu = std::floor(u), fv = std::floor(v);
    const double tu = u - fu, tv = v - fv;
    const auto at = [&](double cx, double cy) {
        const int ix = std::clamp(int(cx), 0, result.width - 1), iy = std::clamp(int(cy), 0, result.height - 1);
        return double(result.at(ix, iy));
    };
    const double top = at(fu, fv) * (1.0 - tu) + at(fu + 1.0, fv) * tu;
    const double bottom = at(fu, fv + 1.0) * (1.0 - tu) + at(fu + 1.0, fv + 1.0) * tu;
    return top * (1.0 - tv) + bottom * tv;
}

}  // namespace ref
