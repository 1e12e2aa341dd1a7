// LocalTileCurves.h: what the local histogram tone operators (ToneClahe "clahe", ToneWardLocal
// "ward-local") share: the tile-curve buffer (shared/LocalTiles.h layout) with its header (grid, tile
// size, strength), the tile settings' widgets and keys, and the status line. The tile geometry is
// OpenCV CLAHE's without padding (tile = ceil(frame / tiles); post::effectiveTiles keeps every tile
// non-empty); the apply pass blends a pixel's four tile curves (TonemapApply, kApplyTiles).
#pragma once

#include "post/Parameter.h"
#include "post/PixelProbe.h"
#include "post/PostTypes.h"
#include "post/tonemap/ToneCapabilities.h"
#include "tone/LocalToneSettings.h"

#include <glm/vec2.hpp>

#include <string>
#include <vector>

namespace post {

class StateReadback;

/// The "tile mean" key values that arrived (the key value of both local operators for `bench flicker`):
/// log2 of the mean over tiles of each tile curve's mean, from the uint[2] state ClaheCurves.comp and
/// WardLocalSmooth.comp add to (the sum of round(mean x 2^20) over tiles, the tile count).
std::vector<KeyValueSample> tileMeanKeyValues(StateReadback* readback);

/// Two tile-curve buffers used in turn (ping-pong): each frame's curves go into the one not written
/// last frame, so the previous frame's curves, which the temporal smoothing reads and --verify checks
/// it against, stay where they are (no 1 MB copy per frame at 8x8 tiles).
class TileCurveBuffer
{
public:
    /// Makes the other buffer current (the frame's curves go there; previous() keeps the last frame's),
    /// sizes it for the grid `settings` give on a `frame`-sized image and writes its header (only where
    /// it changed: no upload in a steady frame).
    void prepare(glm::ivec2 frame, const LocalTileSettings& settings, float gainViewRangeEv = 2.0f);
    gl::Buffer& buffer() { return mBuffers[mCurrent]; }
    /// The curves of the frame before (its tile blocks; valid where the operator had them on this grid).
    const gl::Buffer& previous() const { return mBuffers[1 - mCurrent]; }
    const LocalTileCurves& curves() const { return mCurves; }
    LocalTileCurves& curves() { return mCurves; }
    glm::ivec2 tiles() const { return mCurves.tiles; }
    glm::ivec2 tileSize() const { return mCurves.tileSize; }
    std::uint32_t tileCount() const { return std::uint32_t(mCurves.tiles.x * mCurves.tiles.y); }
    /// The words of the header and every tile (a synchronous readback: --verify, tests).
    std::vector<float> read() const;

private:
    gl::Buffer mBuffers[2];
    std::vector<float> mHeaders[2];  ///< what each buffer's header holds
    int mCurrent = 0;
    LocalTileCurves mCurves;
};

/// The tile grid's widgets (tiles across and down, strength); true when one changed.
bool localTileUi(LocalTileSettings& settings);
/// The keys "<id>.tiles_x", "<id>.tiles_y", "<id>.strength" bound to `settings`.
void appendLocalTileParameters(ParameterList& list, const std::string& id, LocalTileSettings& settings);
class ToneOperator;

/// The probe's line for a local operator: the pixel's four tiles (column, row in texel coordinates,
/// row 0 the frame's first texel row) and their bilinear weights; where the probe pass had the tile
/// curves (ProbeSample::tiles), each tile curve's value at the pixel's L, their blend and the global
/// curve's value (display-linear, [0, 1]); empty when the
/// operator has no tile curves (or the sample is outside the frame).
std::string describeProbeTiles(const ProbeSample& sample, const ToneOperator& op);

/// "8x8 tiles of 240x135, strength 1".
std::string describeTiles(const TileCurveBuffer& buffer, const LocalTileSettings& settings);

}  // namespace post
