// TileHistogram.comp: the per-tile histograms of the local tone operators (clahe; tile grid in
// shared/LocalTiles.h): every pixel of the histogram image binned with the pipeline's hdBinOf (the
// params' range, bin count, policy and luminance weights) into its tile's bins, in integers, so the
// counts are exactly the CPU reference's (ref::tileHistograms). Out-of-range codes are not counted.
// A 16x16 workgroup covers a 64x64 block (16 pixels an invocation, 16 apart so that a row of
// invocations reads adjacent texels), counts into shared bins for the (at most four) tiles the block
// overlaps, then adds the non-zero ones to the tile histograms (uint[tiles x bins], cleared by the
// host). Blocks of 16x16 pixels (one a thread) measured 199 us at 4K on the H200: clearing and
// flushing 4 x bins shared words and the global atomics for every 256 pixels cost more than the pixels.
// Limits: a tile at least 64 pixels wide and high keeps a block within 2 x 2 tiles; smaller tiles
// take the global atomics path (correct, slower).
#include "histogram/HistogramCommon.glsl"
#include "shared/LocalTiles.h"

layout(local_size_x = 16, local_size_y = 16) in;

layout(binding = kTextureUnitInput) uniform sampler2D uInput;
layout(std430, binding = kBindingScratch0) buffer TileHistograms { uint tileHistograms[]; };
layout(location = 0) uniform ivec2 uSize;
layout(location = 1) uniform ivec4 uGrid; // tilesX, tilesY, tile width, tile height

const uint kSharedBins = 4096u; // 2 x 2 tiles of up to 1024 bins
shared uint sBins[kSharedBins];

const int kBlock = 64; // pixels a workgroup covers on each axis (4 x 4 per invocation)

void countPixel(ivec2 p, ivec2 firstTile, bool sharedPath, uint bins)
{
    if (any(greaterThanEqual(p, uSize)))
        return;
    int code = binOfColor(texelFetch(uInput, p, 0));
    if (code < 0)
        return;
    ivec2 tile = p / uGrid.zw;
    if (sharedPath) {
        ivec2 local = tile - firstTile; // 0 or 1 on each axis
        atomicAdd(sBins[uint(local.y * 2 + local.x) * bins + uint(code)], 1u);
    } else {
        atomicAdd(tileHistograms[uint(tile.y * uGrid.x + tile.x) * bins + uint(code)], 1u);
    }
}

void main()
{
    uint bins = paramBinCount();
    ivec2 origin = ivec2(gl_WorkGroupID.xy) * kBlock;
    ivec2 firstTile = origin / uGrid.zw;
    bool sharedPath = uGrid.z >= kBlock && uGrid.w >= kBlock && bins <= kSharedBins / 4u;
    uint tid = gl_LocalInvocationIndex;
    if (sharedPath) {
        for (uint i = tid; i < 4u * bins; i += 256u)
            sBins[i] = 0u;
        memoryBarrierShared();
        barrier();
    }
    for (int j = 0; j < kBlock; j += 16)
        for (int i = 0; i < kBlock; i += 16)
            countPixel(origin + ivec2(gl_LocalInvocationID.xy) + ivec2(i, j), firstTile, sharedPath, bins);
    if (!sharedPath)
        return;
    memoryBarrierShared();
    barrier();
    for (uint i = tid; i < 4u * bins; i += 256u) {
        uint count = sBins[i];
        if (count == 0u)
            continue;
        uint local = i / bins;
        ivec2 tile = firstTile + ivec2(int(local & 1u), int(local >> 1u));
        atomicAdd(tileHistograms[uint(tile.y * uGrid.x + tile.x) * bins + (i % bins)], count);
    }
}
