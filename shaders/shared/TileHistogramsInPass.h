// TileHistogramsInPass.h: what the host and histogram/TileHistogramsInPass.glsl share for a local tone
// operator's tile histograms counted in the histogram pass's own read of the frame (compute-shared-atomic's
// TILES 1): the buffer's binding, the pass's uniforms (the grid as tilesX, tilesY, tile width, tile
// height; the blocks of every tile in all) and the block count of a tile along one axis.
#ifndef HDRLAB_TILE_HISTOGRAMS_IN_PASS_H
#define HDRLAB_TILE_HISTOGRAMS_IN_PASS_H

#include "shared/HostDeviceMacros.h"

HD_NAMESPACE_BEGIN

HD_CONST(HD_UINT, kBindingTileHistograms, 13u) // SSBO uint[tiles x bins], tile-major
HD_CONST(int, kTileGridUniform, 20)
HD_CONST(int, kTileBlockCountUniform, 21)

// Blocks of `block` pixels a tile needs along one axis: tile `index` of a `size`-pixel axis cut into
// tiles of `tile` pixels (the last one may be narrower or empty), its blocks clipped to it.
HD_FUNC int hdTileBlocksAlong(int index, int tile, int size, int block)
{
    int lo = index * tile;
    int hi = lo + tile < size ? lo + tile : size;
    return hi > lo ? (hi - lo + block - 1) / block : 0;
}

HD_NAMESPACE_END

#endif
