// Clahe.h: OpenCV's CLAHE (contrast-limited adaptive histogram equalization, Zuiderveld 1994, as
// modules/imgproc/src/clahe.cpp computes it on x86-64) written once for C++, GLSL and CUDA, so that
// the CPU reference (reference/Clahe.h), the GL compute backend and the CUDA backend produce OpenCV's
// bytes. The steps, each a function below:
//  * geometry (host only): tile size, padding, the integer clip limit and the float LUT scale;
//  * hdClaheReflect101: the padded image's pixel, BORDER_REFLECT_101 (what copyMakeBorder pads with);
//  * hdClaheRedistributed: a clipped bin's count after OpenCV's batch + residual-step redistribution;
//  * hdClaheLutValue: saturate_cast<T>(sum * lutScale), rounding half to even;
//  * hdClaheTilePosition / hdClaheBlend: the bilinear blend of four tile LUTs with OpenCV's
//    coordinate formula, as separate IEEE multiplies and adds (HD_MUL/HD_ADD: no fused multiply-add,
//    which is what x86-64 builds compute; aarch64 builds contract and differ by 1 on some pixels).
// Limits: 8-bit (256 bins) and 16-bit (65536 bins) single-channel images; tile areas and cumulative
// counts below 2^31 (int, as OpenCV's); grids of 1..kClaheMaxTiles tiles on each axis.
// Laid out by hand, not by clang-format (the GLSL compiler reads it).
#ifndef HDRLAB_CLAHE_H
#define HDRLAB_CLAHE_H

#include "shared/HostDeviceMacros.h"

#if defined(__CUDACC__) && defined(__CUDA_ARCH__)
#define HD_ROUND_EVEN(x) rintf(x)          // round half to even (the default rounding mode)
#define HD_INT_TO_FLOAT(i) __int2float_rn(i)
#elif defined(__cplusplus)
#define HD_ROUND_EVEN(x) std::nearbyint(x) // the default rounding mode: to nearest, ties to even (cvRound)
#define HD_INT_TO_FLOAT(i) float(i)
#else // GLSL
#define HD_ROUND_EVEN(x) roundEven(x)
#define HD_INT_TO_FLOAT(i) float(i)
#endif

HD_NAMESPACE_BEGIN

HD_CONST(int, kClaheMaxTiles, 64)         // tiles on one axis (the test range; OpenCV has no bound)
HD_CONST(int, kClaheBins8, 256)
HD_CONST(int, kClaheBins16, 65536)

// ---- Padding ------------------------------------------------------------------------------------
// OpenCV's borderInterpolate for BORDER_REFLECT_101: p < 0 maps to -p, p >= len to 2(len - 1) - p,
// repeated until inside (a pad can be wider than the image); len == 1 maps everything to 0.
HD_FUNC int hdClaheReflect101(int p, int len)
{
    if (len == 1)
        return 0;
    while (p < 0 || p >= len) {
        if (p < 0)
            p = -p;
        else
            p = 2 * (len - 1) - p;
    }
    return p;
}

// ---- Clip and redistribution ---------------------------------------------------------------------
// A bin's count after clipping at `clipLimit` (> 0) and redistributing `clipped` counts (the sum over
// the tile's bins of max(count - clipLimit, 0)): every bin gets clipped / bins; the residual goes one
// each to bins 0, step, 2 step ... while any is left, step = max(bins / residual, 1) (OpenCV's loop).
HD_FUNC int hdClaheRedistributed(int count, int bin, int bins, int clipLimit, int clipped)
{
    const int batch = clipped / bins;
    const int residual = clipped - batch * bins;
    int result = (count > clipLimit ? clipLimit : count) + batch;
    if (residual != 0) {
        int step = bins / residual;
        if (step < 1)
            step = 1;
        if (bin % step == 0 && bin / step < residual)
            result += 1;
    }
    return result;
}

// ---- LUT ----------------------------------------------------------------------------------------
// saturate_cast<T>(sum * lutScale): the int sum converted to float, one float multiply, cvRound
// (half to even), clamped to [0, maxValue].
HD_FUNC int hdClaheLutValue(int cumulative, float lutScale, int maxValue)
{
    HD_PRECISE float scaled = HD_MUL(HD_INT_TO_FLOAT(cumulative), lutScale);
    const float rounded = HD_ROUND_EVEN(scaled);
    if (!(rounded > 0.0f))
        return 0;
    if (rounded >= float(maxValue))
        return maxValue;
    return int(rounded);
}

// ---- Blend --------------------------------------------------------------------------------------
// A pixel's position in tile units along one axis: x * inv_tw - 0.5f (x converted to float; one
// multiply, one subtract). Its lower tile is floor(position) (clamped to 0 by the caller), its upper
// tile floor(position) + 1 (clamped to tiles - 1), its weight towards the upper tile
// position - floor(position) and towards the lower 1 - that.
HD_FUNC float hdClaheTilePosition(int x, float inverseTileSize)
{
    HD_PRECISE float position = HD_SUB(HD_MUL(HD_INT_TO_FLOAT(x), inverseTileSize), 0.5f);
    return position;
}

HD_FUNC float hdClaheUpperWeight(float position)
{
    HD_PRECISE float weight = HD_SUB(position, HD_FLOOR(position));
    return weight;
}

HD_FUNC float hdClaheLowerWeight(float upperWeight)
{
    HD_PRECISE float weight = HD_SUB(1.0f, upperWeight);
    return weight;
}

// (L[y1][x1] * xa1 + L[y1][x2] * xa) * ya1 + (L[y2][x1] * xa1 + L[y2][x2] * xa) * ya, in this order.
HD_FUNC float hdClaheBlend(float l11, float l12, float l21, float l22, float xa, float xa1, float ya, float ya1)
{
    HD_PRECISE float top = HD_ADD(HD_MUL(l11, xa1), HD_MUL(l12, xa));
    HD_PRECISE float bottom = HD_ADD(HD_MUL(l21, xa1), HD_MUL(l22, xa));
    HD_PRECISE float result = HD_ADD(HD_MUL(top, ya1), HD_MUL(bottom, ya));
    return result;
}

// saturate_cast<T>(res) of the blend: rounded half to even, clamped to [0, maxValue].
HD_FUNC int hdClaheSaturate(float value, int maxValue)
{
    const float rounded = HD_ROUND_EVEN(value);
    if (!(rounded > 0.0f))
        return 0;
    if (rounded >= float(maxValue))
        return maxValue;
    return int(rounded);
}

// ---- The blend without conversion instructions (GPU blends) --------------------------------------
// GPUs convert between int and float at a fraction of their float rate (an H200 SM: 16 conversions a
// clock against 128 float adds), and a blended pixel needs six (four LUT values, the rounding and the
// float-to-int). These two give the same values with float adds and integer operations only.
// CUDA only (ClaheBlend.cuh, where __fadd_rn cannot be contracted or reassociated, and the CUDA tests
// pass): the GL blend compiled with them by NVIDIA's GLSL compiler (driver 580.159.04) gave other
// bytes than the reference although every operation here is `precise`, and was no faster, so GLSL
// uses the plain float() and hdClaheSaturate.
// hdClaheSmallFloat(v): float(v) for 0 <= v < 2^23: 2^23 + v has v as its mantissa (exactly), and
// subtracting 2^23 is exact.
HD_FUNC float hdClaheSmallFloat(HD_UINT v)
{
    HD_PRECISE float value = HD_SUB(HD_BITS_FLOAT(0x4B000000u | v), 8388608.0f);
    return value;
}

// hdClaheSaturateBits(value, maxValue) == hdClaheSaturate(value, maxValue) for |value| <= 2^22 (the
// blend's values lie in [0, maxValue]): value + 1.5 * 2^23 lies in [2^23, 2^24), where the float
// spacing is 1, so the add rounds to the nearest integer, ties to even (1.5 * 2^23 is even, so the
// sum's parity is the rounded value's), and that integer r is the low bits: 0x4B400000 + r.
HD_FUNC int hdClaheSaturateBits(float value, int maxValue)
{
    HD_PRECISE float shifted = HD_ADD(value, 12582912.0f);
    const int rounded = int(HD_FLOAT_BITS(shifted)) - 0x4B400000;
    return rounded < 0 ? 0 : (rounded > maxValue ? maxValue : rounded);
}

HD_NAMESPACE_END

#if defined(__cplusplus)
namespace hd {

/// What OpenCV's CLAHE_Impl::apply derives from the image size, the grid and the clip limit before
/// any pixel is read. Host code only (the clip limit is computed in double, as OpenCV does).
struct ClaheGeometry
{
    int width = 0, height = 0;              ///< the image
    int tilesX = 0, tilesY = 0;             ///< the grid
    int paddedWidth = 0, paddedHeight = 0;  ///< the image the tile histograms are taken of
    int tileWidth = 0, tileHeight = 0;
    int bins = 0;                           ///< 256 (8-bit) or 65536 (16-bit)
    int clipLimit = 0;                      ///< 0: no clipping
    float lutScale = 0.0f;                  ///< (bins - 1) / tile area, a float division
    float inverseTileWidth = 0.0f, inverseTileHeight = 0.0f;  ///< 1.0f / tile size, float divisions

    int tileArea() const { return tileWidth * tileHeight; }
    int tileCount() const { return tilesX * tilesY; }
    int maxValue() const { return bins - 1; }
};

/// OpenCV's geometry: no padding when the grid divides both sides; otherwise both sides are padded
/// by tiles - size % tiles (a side that divides gains a whole row of tiles' worth of pixels).
/// `bins` is 256 or 65536; sizes and tile counts must be positive (the caller checks).
inline ClaheGeometry claheGeometry(int width, int height, int tilesX, int tilesY, double clipLimit, int bins)
{
    ClaheGeometry g;
    g.width = width;
    g.height = height;
    g.tilesX = tilesX;
    g.tilesY = tilesY;
    g.bins = bins;
    const bool divides = width % tilesX == 0 && height % tilesY == 0;
    g.paddedWidth = divides ? width : width + tilesX - width % tilesX;
    g.paddedHeight = divides ? height : height + tilesY - height % tilesY;
    g.tileWidth = g.paddedWidth / tilesX;
    g.tileHeight = g.paddedHeight / tilesY;
    const int area = g.tileArea();
    g.lutScale = static_cast<float>(bins - 1) / area;
    if (clipLimit > 0.0) {
        // A limit at or above the tile area clips nothing; taking it as the area keeps the int
        // conversion defined where OpenCV's overflows (x86 builds then clip at 1).
        const double limit = clipLimit * area / bins;
        g.clipLimit = limit >= double(area) ? area : static_cast<int>(limit);
        if (g.clipLimit < 1)
            g.clipLimit = 1;
    }
    g.inverseTileWidth = 1.0f / g.tileWidth;
    g.inverseTileHeight = 1.0f / g.tileHeight;
    return g;
}

}  // namespace hd
#endif

#endif // HDRLAB_CLAHE_H
