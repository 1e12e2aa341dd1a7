// LocalTiles.h: the tile grid of hdrlab's local histogram tone operators (clahe, ward-local), shared
// by C++, GLSL and CUDA: the tile geometry, the bilinear blend of four tile curves (OpenCV CLAHE's
// geometry, Zuiderveld 1994 / OpenCV imgproc clahe.cpp, without its padding) and the layout of the
// tile-curve buffer.
//
// Geometry (W x H frame, tilesX x tilesY grid): tile size tw = ceil(W / tilesX), th = ceil(H / tilesY)
// (no padding: the last column and row of tiles may be narrower, or empty when a grid is finer than
// ceil allows; the operators clamp the grid to the frame so that none is). Pixel (x, y) belongs to tile
// (x / tw, y / th). Blend (OpenCV's, float): txf = x * (1 / tw) - 0.5, tx1 = floor(txf), tx2 =
// min(tx1 + 1, tilesX - 1), xa = txf - tx1, then tx1 = max(tx1, 0); rows alike. The four curves'
// values are blended as a + t (b - a) (not OpenCV's a (1 - t) + b t), so four equal values blend to
// exactly that value: a 1x1 grid gives the one tile's curve bit for bit.
// The position and weight formulas are shared/Clahe.h's (OpenCV's arithmetic, written once).
// Limits: 1..kMaxTilesPerAxis tiles per axis.
#ifndef HDRLAB_LOCAL_TILES_H
#define HDRLAB_LOCAL_TILES_H

#include "shared/Clahe.h"
#include "shared/HostDeviceMacros.h"

HD_NAMESPACE_BEGIN

HD_CONST(HD_UINT, kMaxTilesPerAxis, 16u)
HD_CONST(HD_UINT, kClaheClipScale, 256u) // clahe's clip limit is set in 1/256 of the mean count
// The tile-curve buffer (float): a header, then per tile a block laid out as a curve buffer's first
// channel (hd::kCurve* header words + up to 4096 LUT samples), its stride a multiple of 256 bytes so
// that a block can be bound as a range of its own (GL's storage-buffer offset alignment).
HD_CONST(HD_UINT, kTileCurvesHeaderWords, 64u)
HD_CONST(HD_UINT, kTileCurveStride, 4160u) // >= 16 + 4096, x 4 bytes a multiple of 256
HD_CONST(HD_UINT, kTileTilesX, 0u)         // header words (floats)
HD_CONST(HD_UINT, kTileTilesY, 1u)
HD_CONST(HD_UINT, kTileWidth, 2u)          // tw, th in pixels of the frame applied
HD_CONST(HD_UINT, kTileHeight, 3u)
HD_CONST(HD_UINT, kTileStrength, 4u)       // 0: the global curve, 1: the local curves
HD_CONST(HD_UINT, kTileGainLogRange, 5u)   // the local-gain view's +- EV range

// Apply modes of the tile curves (tonemap/Apply.comp uMode, with hd::kApply*).
HD_CONST(HD_UINT, kApplyTiles, 3u)         // blend the four tile curves, then toward the global curve
HD_CONST(HD_UINT, kApplyViewLocalGain, 4u) // show log2(local / global display value) as a ramp
HD_CONST(HD_UINT, kApplyTilesGrid, 5u)     // kApplyTiles with the tile grid's edges drawn over the picture

HD_FUNC int hdTileSize(int size, int tiles)
{
    return (size + tiles - 1) / tiles;
}

HD_FUNC HD_UINT hdTileCurveBase(HD_UINT tile)
{
    return kTileCurvesHeaderWords + tile * kTileCurveStride;
}

// One axis of the blend for pixel `x` of tiles `invSize` = 1.0f / (tile size) wide: the position
// f = x / size - 0.5 in tiles; its floor, clamped, is the first tile, floor + 1 clamped to the grid the
// second, and f - floor the second's weight.
HD_FUNC float hdTileBlendPosition(int x, float invSize)
{
    return hdClaheTilePosition(x, invSize); // OpenCV's formula, shared/Clahe.h
}

HD_FUNC int hdTileBlendFirst(float f)
{
    int lower = int(HD_FLOOR(f));
    return lower > 0 ? lower : 0;
}

HD_FUNC int hdTileBlendSecond(float f, int tiles)
{
    int next = int(HD_FLOOR(f)) + 1;
    return next < tiles - 1 ? next : tiles - 1;
}

HD_FUNC float hdTileBlendWeight(float f)
{
    return hdClaheUpperWeight(f);
}

// a + t (b - a); exactly a for t = 0 or a == b and b for t = 1 (the blend and the strength).
HD_FUNC float hdTileLerp(float a, float b, float t)
{
    HD_PRECISE float value = HD_ADD(a, HD_MUL(t, HD_SUB(b, a)));
    return t == 0.0f || a == b ? a : t == 1.0f ? b : value;
}

HD_NAMESPACE_END

#endif
