// LocalTileSwitches.h: benchmark switches of the local tone operators' chain (clahe, ward-local), read
// once from HDRLAB_LOCAL_TILES="histograms=pass|separate,apply=full|single|weights|legacy" (docs/PERF.md):
//  - histograms: clahe's tile histograms counted in the histogram pass's own read of the frame (pass,
//    the default, where the method can: compute-shared-atomic) or by tonemap/TileHistogram.comp, a pass
//    of its own (separate: the reference path, and every other method's);
//  - apply: the tiled apply blends the pixel's four tile curves (full, the default); or, to time what
//    in it costs (wrong pictures; --verify fails): looks up the pixel's first tile's curve alone
//    (single), or computes the four tiles and their weights but looks up the global curve only (weights);
//    legacy: Apply.comp's tiled modes as they were before tonemap/ApplyTiles.comp (a correct picture).
//  - fits (read by WardCurveDispatch.cpp): ward-local's tile fits in one dispatch (batch, the default)
//    or one dispatch per tile (serial, before).
// Limits: process-wide, read on first use (clahe's tests use ToneClahe::setTileHistogramsInPass).
#pragma once

#include <cstdint>

namespace post {

struct LocalTileSwitches
{
    bool histogramsInPass = true;
    static constexpr std::uint32_t kApplyLegacy = 3;  ///< Apply.comp's tiled modes (before ApplyTiles.comp)
    std::uint32_t applyVariant =
        0;  ///< ApplyTiles.comp's TILE_APPLY_VARIANT: 0 full, 1 single, 2 weights; or kApplyLegacy
};

/// The process's switches (HDRLAB_LOCAL_TILES; defaults when unset or malformed, which is logged).
const LocalTileSwitches& localTileSwitches();

}  // namespace post
