// TileHistogramsInPass.glsl: the local tone operators' per-tile histograms (clahe; grid in
// shared/LocalTiles.h) counted in the histogram pass's own read of the frame (SharedAtomic.comp with
// TILES 1), so no second read of the frame (tonemap/TileHistogram.comp, the separate pass kept for the
// other methods and as the reference, read the frame again: 135 us at 4K on the H200).
// Walk: the frame is cut into the grid's tiles and each tile into blocks of the pass's kTile (clipped
// to the tile); the blocks of all tiles, tile-major, form one list and workgroup w takes the contiguous
// run [w B / G, (w + 1) B / G) of it (B blocks, G workgroups: balanced to a block). So every pixel a
// workgroup counts between two tile changes is in one tile, and the shared histogram the pass keeps
// anyway is that tile's: when the walk enters the next tile (at most a few times per workgroup), the
// bins go into the global sums and into the tile's histogram and are zeroed; the no-bin counters
// stay for the pass's own final flush, which also adds the last tile's bins (tileFinalBin). Counts are
// integers and every in-range pixel is counted once: exactly ref::tileHistograms. Out-of-range codes
// (NaN, Inf, non-positive, below/above with the separate policy) are in no tile, as in the separate pass.
// The includer defines kTile, uSize, sHistogram, kStride, REPLICAS, kGroupSize, addRun, gRunCode and
// gRunLength, and the sums (SELF_CLEAR's accumulator, else the histogram).
// Limits: B x G < 2^32 (the host lowers G); the tile histograms are cleared by the host before the pass.
#include "shared/TileHistogramsInPass.h"

layout(std430, binding = kBindingTileHistograms) buffer TileHistogramsOut { uint tileHistograms[]; };
layout(location = kTileGridUniform) uniform ivec4 uTileGrid; // tilesX, tilesY, tile width, tile height
layout(location = kTileBlockCountUniform) uniform uint uTileBlockCount; // B: the blocks of all tiles

// The walk's current tile: its index, rectangle [lo, hi) and blocks across / in all.
struct TileWalk
{
    uint tile;
    uint block; // the next block within the tile
    uint blocksX;
    uint blocks;
    uvec2 lo;
    uvec2 hi;
};

void tileWalkEnter(inout TileWalk walk, uint tile)
{
    const ivec2 t = ivec2(int(tile % uint(uTileGrid.x)), int(tile / uint(uTileGrid.x)));
    walk.tile = tile;
    walk.block = 0u;
    walk.blocksX = uint(hdTileBlocksAlong(t.x, uTileGrid.z, uSize.x, int(kTile.x)));
    walk.blocks = walk.blocksX * uint(hdTileBlocksAlong(t.y, uTileGrid.w, uSize.y, int(kTile.y)));
    walk.lo = uvec2(t * uTileGrid.zw);
    walk.hi = min(walk.lo + uvec2(uTileGrid.zw), uvec2(uSize));
}

void addToSums(uint word, uint count)
{
#if SELF_CLEAR
    atomicAdd(accumulated[word], count);
#else
    atomicAdd(histogram[word], count);
#endif
}

// Workgroup-uniform: the tile holding block `first` of the list, and the block within it.
TileWalk tileWalkStart(uint first)
{
    TileWalk walk;
    const uint tiles = uint(uTileGrid.x * uTileGrid.y);
    tileWalkEnter(walk, 0u);
    while (first >= walk.blocks && walk.tile + 1u < tiles) {
        first -= walk.blocks;
        tileWalkEnter(walk, walk.tile + 1u);
    }
    walk.block = first;
    return walk;
}

// The shared bins (the current tile's) into the sums and the tile's histogram, then zeroed.
// Called in workgroup-uniform control flow (barriers).
void flushTileBins(uint tile, uint binCount)
{
    addRun(((gl_LocalInvocationIndex >> 5u) % uint(REPLICAS)) * kStride, gRunCode, gRunLength);
    gRunLength = 0u;
    barrier();
    for (uint slot = gl_LocalInvocationIndex; slot < binCount; slot += kGroupSize) {
        uint count = 0u;
        for (uint r = 0u; r < uint(REPLICAS); ++r) {
            count += sHistogram[r * kStride + slot];
            sHistogram[r * kStride + slot] = 0u;
        }
        if (count != 0u) {
            addToSums(slot, count);
            atomicAdd(tileHistograms[tile * binCount + slot], count);
        }
    }
    barrier();
}

// The origin of the walk's next block, entering the next tile (and flushing) where this one is done.
uvec2 tileWalkNext(inout TileWalk walk, uint binCount)
{
    while (walk.block >= walk.blocks) { // uniform; a tile of no blocks is skipped
        flushTileBins(walk.tile, binCount);
        tileWalkEnter(walk, walk.tile + 1u);
    }
    const uint b = walk.block++;
    return walk.lo + uvec2(b % walk.blocksX, b / walk.blocksX) * kTile;
}

// The pass's final flush of bin `slot`: the last tile's share.
void tileFinalBin(TileWalk walk, uint slot, uint binCount, uint count)
{
    atomicAdd(tileHistograms[walk.tile * binCount + slot], count);
}
