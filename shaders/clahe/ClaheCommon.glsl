// ClaheCommon.glsl: what the three CLAHE passes (ClaheHistogram, ClaheLut, ClaheBlend; driven by
// src/post/clahe/ClaheGl.cpp) share: the parameters the host derives from the image size, the grid
// and the clip limit (hd::ClaheGeometry, uploaded as its bits: the float LUT scale and inverse tile
// sizes are the host's float divisions, so no pass divides a float), the bindings, and the packed
// sample layout. SIXTEEN_BIT (0 or 1) is defined by the host.
// Samples are packed little-endian into uints, rows without padding: sample i is bits
// [BITS * (i % PER_WORD), BITS * (i % PER_WORD + 1)) of word i / PER_WORD (4 per word at 8 bits,
// 2 at 16). The LUTs are 16-bit values packed two per uint, tile t's bin b at value t * BINS + b.
#include "shared/HostDevice.h"
#include "shared/Clahe.h"

#ifndef SIXTEEN_BIT
#define SIXTEEN_BIT 0
#endif
#if SIXTEEN_BIT
#define BINS 65536
#define BITS 16u
#define PER_WORD 2
#define SAMPLE_MASK 0xFFFFu
#else
#define BINS 256
#define BITS 8u
#define PER_WORD 4
#define SAMPLE_MASK 0xFFu
#endif
#define MAX_VALUE (BINS - 1)

// The bytes of hd::ClaheGeometry the passes read, in post::ClaheGl's ParamsWords order (std430).
layout(std430, binding = kBindingHistogramParams) readonly buffer ClaheParams
{
    int uWidth;
    int uHeight;
    int uTilesX;
    int uTilesY;
    int uTileWidth;
    int uTileHeight;
    int uSlabRows;     // padded rows per histogram workgroup
    int uClipLimit;    // 0: no clipping
    float uLutScale;   // (BINS - 1) / tile area, divided on the host
    float uInverseTileWidth;
    float uInverseTileHeight;
    int uCopies;       // 8-bit histogram: shared-memory copies (1..8), fewer for small tiles
};

// Sample `index` (row-major, width samples a row) of a packed image.
uint claheSampleOf(uint word, uint index)
{
    return (word >> (BITS * (index % uint(PER_WORD)))) & SAMPLE_MASK;
}
