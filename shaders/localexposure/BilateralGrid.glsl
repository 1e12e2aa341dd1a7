// BilateralGrid.glsl: the bilateral local exposure's grid (shared/LocalExposure.h: 64 x 64-pixel tiles
// x 32 log2-luminance bins, a pixel count and a sum of in-bin positions per cell), built in the
// histogram pass's own read of the frame (histogram/SharedAtomic.comp with LOCAL_EXPOSURE_GRID 1).
// The pass's blocks (32 x 8*PIXELS pixels, at most 1024) nest in the grid's tiles, so a block's pixels
// all go to one tile: each is added to a shared cell of its bin (one shared atomic: count << 21 + q),
// and after the block the non-empty cells go to the grid with two global atomics each (the grid is
// cleared before the pass). The includer has included shared/HostDevice.h and binds the grid at
// kBindingLocalExposureGrid.
#include "shared/LocalExposure.h"

layout(std430, binding = kBindingLocalExposureGrid) coherent buffer LocalExposureGrid { uint leGrid[]; };
shared uint sLeCells[kLocalExposureBins];
float gLeScale; // hdBinScale(logMin, logMax, 32), once per invocation

void leGridBegin(uint local, float logMin, float logMax)
{
    gLeScale = hdBinScale(logMin, logMax, kLocalExposureBins);
    if (local < kLocalExposureBins)
        sLeCells[local] = 0u;
}

// One pixel of the block (L its luminance under the params' weights).
void leGridAdd(float L, float logMin)
{
    const int code = hdLocalExposureCode(L, logMin, gLeScale);
    if (code >= 0)
        atomicAdd(sLeCells[uint(code) >> 11u], (1u << 21u) + (uint(code) & 2047u));
}

// After the block at `origin` (uniform control flow: every invocation of the workgroup calls it).
void leGridFlush(uint local, uvec2 origin, uvec2 size)
{
    barrier();
    if (local < kLocalExposureBins) {
        const uint cellSum = sLeCells[local];
        if (cellSum != 0u) {
            const uint tilesX = (size.x + uint(kLocalExposureTile) - 1u) / uint(kLocalExposureTile);
            const uvec2 tile = origin / uint(kLocalExposureTile);
            const uint cell = (tile.y * tilesX + tile.x) * kLocalExposureBins + local;
            atomicAdd(leGrid[cell * 2u], cellSum >> 21u);
            atomicAdd(leGrid[cell * 2u + 1u], cellSum & 0x1fffffu);
        }
        sLeCells[local] = 0u;
    }
    barrier();
}
