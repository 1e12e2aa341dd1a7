// LocalTileSwitches.h: benchmark switches of the local tone operators' chain (clahe, ward-local), read
// once from HDRLAB_LOCAL_TILES="histograms=pass|separate,apply=full|single|weights|legacy|unstaged" (docs/PERF.md):
//  - histograms: clahe's tile histograms counted in the histogram pass's own read of the frame (pass,
//    the default, where the method can: compute-shared-atomic) or by tonemap/TileHistogram.comp, a pass
//    of its own (separate: the reference path, and every other method's);
//  - apply: the tiled apply blends the pixel's four tile curves (full, the default); or, to time what
//    in it costs (wrong pictures; --verify fails): looks up the pixel's first tile's curve alone
//    (single), or computes the four tiles and their weights but looks up the global curve only (weights);
//    legacy: Apply.comp's tiled modes as they were before tonemap/ApplyTiles.comp (a correct picture);
//    unstaged: ApplyTiles.comp with the tile LUTs read from the storage buffer instead of staged in
//    shared memory per workgroup (STAGE_LUTS 0: the build before the staging; a correct picture).
//  - stage=<floats>: the tiled apply's shared-memory LUT capacity per workgroup (ApplyTiles.comp's
//    STAGE_FLOATS, default 4608 = 18 KB; 0 stages none: the same as apply=unstaged), to trade
//    occupancy against the workgroups that fall back to the storage buffer;
//  - fits (read by WardCurveDispatch.cpp): ward-local's tile fits in one dispatch (batch, the default)
//    or one dispatch per tile (serial, before).
// Limits: process-wide, read on first use (clahe's tests use ToneClahe::setTileHistogramsInPass).
#pragma once

#include <cstdint>

namespace post {

struct LocalTileSwitches
{
    bool histogramsInPass = true;
    static constexpr std::uint32_t kApplyLegacy = 3;    ///< Apply.comp's tiled modes (before ApplyTiles.comp)
    static constexpr std::uint32_t kApplyUnstaged = 4;  ///< ApplyTiles.comp, LUTs not staged (STAGE_LUTS 0)
    /// ApplyTiles.comp's TILE_APPLY_VARIANT: 0 full, 1 single, 2 weights; or kApplyLegacy, kApplyUnstaged.
    /// Legacy by default: on the H200 (2026-11-29, build c4f34c9, clahe at 4K) the apply took 158 us
    /// legacy, 248 unstaged and 265 staged (docs/PERF.md); `apply=full` keeps ApplyTiles.comp selectable.
    std::uint32_t applyVariant = kApplyLegacy;
    std::uint32_t stageFloats = 4608;  ///< ApplyTiles.comp's STAGE_FLOATS
};

/// The process's switches (HDRLAB_LOCAL_TILES; defaults when unset or malformed, which is logged).
const LocalTileSwitches& localTileSwitches();
/// Tests: the tiled apply's variant from now on (programs are built per variant, so it takes effect at
/// the next frame).
void setLocalTileApplyVariant(std::uint32_t variant);

}  // namespace post
