// LocalToneSettings.h: the settings of the local histogram tone operators (post::ToneClahe "clahe",
// post::ToneWardLocal "ward-local"), shared by the GPU operators and their CPU references
// (reference/ToneLocalRef). Plain data; sanitize() turns absurd values into usable ones.
#pragma once

#include "shared/LocalTiles.h"
#include "tone/ToneSettings.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>

namespace post {

/// The tile grid and the blend toward the global curve, common to both local operators.
struct LocalTileSettings
{
    std::uint32_t tilesX = 8u;  ///< tiles across (1..hd::kMaxTilesPerAxis), OpenCV's default 8
    std::uint32_t tilesY = 8u;
    float strength = 1.0f;  ///< 0: the global curve, 1: the local curves (display value blended)
    /// Time constant (s) of the exponential smoothing of the tile curves over frames; 0: none.
    float smoothingSeconds = 0.0f;
};

struct ClaheSettings
{
    /// 8x8, strength 1; tile curves smoothed with a time constant of 0.25 s (the live app and footage;
    /// a still or the first frame is never smoothed).
    LocalTileSettings tiles{.smoothingSeconds = 0.25f};
    /// Clip limit as a multiple of the tile's mean count per bin (N / bins); 0: no clipping (plain
    /// adaptive equalization). Used in 1/256 steps (hd::kClaheClipScale) so the integer clip is exact everywhere.
    float clip = 8.0f;
    /// The equalized value is an sRGB-encoded display level (the curve stores its EOTF), as OpenCV's
    /// CLAHE equalizes 8-bit encoded levels; off: linear display luminance.
    bool encodedLevels = true;
};

struct WardLocalSettings
{
    LocalTileSettings tiles;
    /// Ward's settings for the global curve and every tile (its sampling is always the frame fit).
    WardSettings ward;
};

using hd::kClaheClipScale;

/// The clip limit in 1/kClaheClipScale of the mean count (what both sides compute with).
inline std::uint32_t claheClipSteps(float clip)
{
    return std::uint32_t(std::lround(double(clip) * kClaheClipScale));
}

/// OpenCV's clip limit on integer counts: max(1, floor(clip * total / bins)), clip in 1/256 steps;
/// 0 when clipSteps is 0 (no clipping).
inline std::uint32_t claheClipLimit(std::uint32_t clipSteps, std::uint32_t total, std::uint32_t bins)
{
    if (clipSteps == 0u)
        return 0u;
    const std::uint64_t limit = std::uint64_t(clipSteps) * total / (std::uint64_t(kClaheClipScale) * bins);
    return std::uint32_t(std::max<std::uint64_t>(limit, 1u));
}

inline LocalTileSettings sanitize(LocalTileSettings s)
{
    s.tilesX = std::clamp(s.tilesX, 1u, hd::kMaxTilesPerAxis);
    s.tilesY = std::clamp(s.tilesY, 1u, hd::kMaxTilesPerAxis);
    s.strength = std::isfinite(s.strength) ? std::clamp(s.strength, 0.0f, 1.0f) : 1.0f;
    s.smoothingSeconds = std::isfinite(s.smoothingSeconds) ? std::clamp(s.smoothingSeconds, 0.0f, 10.0f) : 0.0f;
    return s;
}

inline ClaheSettings sanitize(ClaheSettings s)
{
    s.tiles = sanitize(s.tiles);
    s.clip = std::isfinite(s.clip) ? std::clamp(s.clip, 0.0f, 256.0f) : 2.0f;
    return s;
}

inline WardLocalSettings sanitize(WardLocalSettings s)
{
    s.tiles = sanitize(s.tiles);
    s.ward = sanitize(s.ward);
    s.ward.sampling = WardSampling::Frame;
    s.ward.histogramBySelectedMethod = false;
    return s;
}

/// The grid used on a w x h frame: at most one tile per pixel along each axis, and no tile left empty
/// by the ceil tile size (tiles * ceil(size / tiles) - ceil(size / tiles) < size).
inline std::uint32_t effectiveTiles(std::uint32_t tiles, int size)
{
    std::uint32_t n = std::clamp<std::uint32_t>(tiles, 1u, std::uint32_t(std::max(size, 1)));
    while (n > 1u && (int(n) - 1) * hd::hdTileSize(size, int(n)) >= size)
        --n;
    return n;
}

/// The foveal samples [first, last) along one axis that belong to tile `tile` of a frame `size` pixels
/// long cut into `tiles` tiles of ceil(size / tiles): those whose centre pixel floor((2i + 1) size /
/// (2 grid)) lies in the tile (ward-local's tiles of Ward's foveal image). Empty when none does.
inline std::pair<int, int> fovealTileSpan(int tile, int tiles, int size, int grid)
{
    const std::int64_t tileSize = hd::hdTileSize(size, tiles);
    int first = grid;
    int last = 0;
    for (int i = 0; i < grid; ++i) {
        const std::int64_t centre = (2 * std::int64_t(i) + 1) * size / (2 * std::int64_t(grid));
        if (centre / tileSize == tile) {
            first = std::min(first, i);
            last = i + 1;
        }
    }
    return first < last ? std::pair{first, last} : std::pair{0, 0};
}

}  // namespace post
