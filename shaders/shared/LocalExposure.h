// LocalExposure.h: the bilateral local exposure's shared arithmetic (Unreal Engine 5's "Bilateral"
// local exposure as hdrlab builds it; docs/TONE_OPERATORS.md, "Local exposure"), included by C++
// (post/localexposure, reference/LocalExposureRef) and GLSL (shaders/localexposure/).
//
// The grid: the frame in tiles of kLocalExposureTile x kLocalExposureTile pixels (ceil(W / 64) x
// ceil(H / 64), the last ones narrower) x kLocalExposureBins bins of log2 L over the histogram's range
// [logMin, logMax] (the params buffer's). Pixel L (NaN, Inf and L < kMinLuminance are not counted)
// lands in bin floor(p), p = (hdLog2(L) - logMin) * (32 / (logMax - logMin)) clamped to [0, 32) (out of
// range pixels clamp into the end bins, their log2 L clamped to the range), and carries its position
// inside the bin as q = floor((p - bin) * 2048) (0..2047). A cell holds the pixel count and the sum of q
// (uint, exact: every device computes p with the same roundings, hdLog2); the cell's mean log2 L is
// logMin + (bin + (sumQ / count + 0.5) / 2048) / scale. All integer, so GPU and CPU grids are equal.
// Limits: the position is quantized to 1/2048 bin (at most 1/4096 bin of error per pixel, 2.3e-4 EV for a
// 30 EV range); a cell of the fused pass packs count and sum in one word per 32 x 32 block (count < 2^11,
// sum < 2^21), so the histogram pass's block must hold at most 1024 pixels.
#ifndef HDRLAB_LOCAL_EXPOSURE_H
#define HDRLAB_LOCAL_EXPOSURE_H

#include "shared/HostDevice.h"

HD_NAMESPACE_BEGIN

HD_CONST(int, kLocalExposureTile, 64)
HD_CONST(HD_UINT, kLocalExposureBins, 32u)
HD_CONST(float, kLocalExposureFractionSteps, 2048.0f) // q's steps per bin
HD_CONST(HD_UINT, kLocalExposureFractionBits, 11u)
HD_CONST(HD_UINT, kLocalExposureCellWords, 2u)       // per cell: count, sum of q
HD_CONST(float, kLocalExposureMiddleGrey, 0.18f)     // Unreal's middle grey of the exposed luminance
HD_CONST(float, kLocalExposureViewRangeEv, 4.0f)     // the detail and exposure views: +-4 EV over black..white
// Bindings (clear of every other pass's).
HD_CONST(HD_UINT, kBindingLocalExposureGrid, 20u)    // uint[tiles * 32 * 2]
HD_CONST(HD_UINT, kBindingLocalExposureBlur, 21u)    // float: header, then the blurred log2 L per tile
HD_CONST(HD_UINT, kTextureUnitLocalExposure, 5u)     // method fusion: the log2 exposure adjustment texture
// The blur buffer (float): header words, then per tile its blurred log2 L (row-major), then 2 scratch
// words per tile (the horizontal pass: count-weighted sum, weight).
HD_CONST(HD_UINT, kLocalExposureFrameMean, 0u)       // mean log2 L of the counted pixels (NaN: none)
HD_CONST(HD_UINT, kLocalExposureFrameCount, 1u)      // pixels counted (float)
HD_CONST(HD_UINT, kLocalExposureBlurHeaderWords, 4u)
// The apply pass's local exposure modes (uLocalExposureView): the picture or one term as grey.
HD_CONST(HD_UINT, kLocalExposureViewNone, 0u)
HD_CONST(HD_UINT, kLocalExposureViewBase, 1u)        // the base (bilateral and blurred blended), over the range
HD_CONST(HD_UINT, kLocalExposureViewBlurred, 2u)     // the blurred log2 L, over the range
HD_CONST(HD_UINT, kLocalExposureViewDetail, 3u)      // log2 L - base, +-4 EV
HD_CONST(HD_UINT, kLocalExposureViewExposure, 4u)    // the local exposure log2, +-4 EV
// Where mid comes from (uLocalExposureMid): the curve's exposure (kCurveScale = 2^E: 0.18 / 2^E) or
// the frame's mean log2 L (the grid's; operators whose curve carries no exposure).
HD_CONST(HD_UINT, kLocalExposureMidFromCurve, 0u)
HD_CONST(HD_UINT, kLocalExposureMidFromFrame, 1u)
HD_CONST(HD_UINT, kLocalExposureProbeWords, 8u) // localexposure/Probe.comp's record per probe

HD_FUNC int hdLocalExposureTiles(int pixels)
{
    return (pixels + kLocalExposureTile - 1) / kLocalExposureTile;
}

// The pixel's cell code bin * 2048 + q (0..65535), or -1 where the pixel is not counted. `scale` is
// hdBinScale(logMin, logMax, kLocalExposureBins) (0: a degenerate range puts every pixel at bin 0, q 0).
HD_FUNC int hdLocalExposureCode(float L, float logMin, float scale)
{
    if (HD_IS_NAN(L) || HD_IS_INF(L) || !(L >= kMinLuminance))
        return -1;
    if (!(scale > 0.0f))
        return 0;
    HD_PRECISE float position = HD_MUL(HD_SUB(hdLog2(L), logMin), scale);
    if (!(position > 0.0f))
        return 0; // below the range (or at its start)
    if (position >= float(kLocalExposureBins))
        return int(kLocalExposureBins) * 2048 - 1; // above: the last bin's top step
    int bin = int(position);
    HD_PRECISE float fraction = HD_MUL(HD_SUB(position, float(bin)), kLocalExposureFractionSteps);
    int q = int(fraction);
    return bin * 2048 + (q < 2047 ? q : 2047);
}

// A cell's (or a sum of cells') mean position in bins from its count and its sums: sum of bins and of q.
HD_FUNC float hdLocalExposurePosition(float count, float binSum, float qSum)
{
    return (binSum + (qSum + 0.5f * count) / kLocalExposureFractionSteps) / count;
}

// One axis of the spatial blend between tile centres: f = (x + 0.5) / 64 - 0.5 tiles (exact).
HD_FUNC float hdLocalExposureTilePosition(int x)
{
    return (float(x) + 0.5f) / float(kLocalExposureTile) - 0.5f;
}

// Mirrored index (period 2n: ..., 1, 0 | 0, 1, ..., n-1 | n-1, ...), any i.
HD_FUNC int hdLocalExposureMirror(int i, int n)
{
    int period = 2 * n;
    int j = i >= 0 ? i % period : period - 1 - ((-i - 1) % period); // no % of a negative (undefined in GLSL)
    return j < n ? j : period - 1 - j;
}

// The blur's sigma in tiles: its +-3 sigma spans kernelPercent of the view's width.
HD_FUNC float hdLocalExposureSigmaTiles(int width, float kernelPercent)
{
    return float(width) * kernelPercent * 0.01f / 6.0f / float(kLocalExposureTile);
}

// The local exposure's log2 (Unreal's formula): target - log2 L.
HD_FUNC float hdLocalExposureEv(float logL,
                                float base,
                                float mid,
                                float highlightScale,
                                float shadowScale,
                                float detailStrength)
{
    float scale = base > mid ? highlightScale : shadowScale;
    float target = mid + (base - mid) * scale + (logL - base) * detailStrength;
    return target - logL;
}

HD_NAMESPACE_END

#endif
