// HistogramDevice.cuh: device-side pieces every CUDA histogram kernel shares: the parameters read
// from the GL params buffer (range, bin count and luminance weights live on the GPU), the "extended bin" of a pixel
// (bins [0, binCount), then one slot per counter of shared/HostDevice.h, so NaN/Inf/non-positive/
// below/above pixels are aggregated exactly like bins), and the two input readers (a texture
// object over the mapped GL texture, or a linear RGBA16F buffer read 16 bytes = 2 pixels at a time).
#pragma once

#include "shared/HostDevice.h"

#include <cuda_fp16.h>

#include <cstdint>

namespace cuda::histogram_detail {

struct Params
{
    float logMin;
    float logMax;
    unsigned binCount;  ///< clamped to [1, capacity]
    unsigned outOfRange;
    float scale;   ///< hd::hdBinScale of the range, once per thread instead of per pixel
    float margin;  ///< hd::hdBinFastMargin of the range
    float lumaR;   ///< the luminance weights (hd::kParamLuma*)
    float lumaG;
    float lumaB;
};

/// Reads the params words; the bin count is clamped to what the launch sized its memory for.
__device__ __forceinline__ Params loadParams(const std::uint32_t* words, unsigned capacity)
{
    Params params;
    params.logMin = __uint_as_float(words[hd::kParamLogMin]);
    params.logMax = __uint_as_float(words[hd::kParamLogMax]);
    const unsigned bins = words[hd::kParamBinCount];
    params.binCount = bins < 1u ? 1u : (bins > capacity ? capacity : bins);
    params.outOfRange = words[hd::kParamOutOfRange];
    params.scale = hd::hdBinScale(params.logMin, params.logMax, params.binCount);
    params.margin = hd::hdBinFastMargin(params.logMin, params.logMax, params.scale, params.binCount);
    params.lumaR = __uint_as_float(words[hd::kParamLumaR]);
    params.lumaG = __uint_as_float(words[hd::kParamLumaG]);
    params.lumaB = __uint_as_float(words[hd::kParamLumaB]);
    return params;
}

/// hd::hdLuminanceWeighted with the params' weights.
__device__ __forceinline__ float luminanceOf(float r, float g, float b, const Params& params)
{
    return hd::hdLuminanceWeighted(r, g, b, params.lumaR, params.lumaG, params.lumaB);
}

/// Slots of the extended histogram: bins, then hd::kCounterCount counters.
__device__ __forceinline__ unsigned extendedSlots(const Params& params)
{
    return params.binCount + hd::kCounterCount;
}

/// The extended slot of one pixel (hdBinOfFast, hdBinOf's bin, on its luminance; counters follow the bins).
__device__ __forceinline__ unsigned extendedSlotOf(float r, float g, float b, const Params& params)
{
    const int bin = hd::hdBinOfFast(luminanceOf(r, g, b, params), params.logMin, params.logMax, params.scale,
                                    params.binCount, params.outOfRange, params.margin);
    return bin >= 0 ? unsigned(bin) : params.binCount + hd::hdCounterOfCode(bin);
}

/// Writes an extended histogram's slot to the GL histogram buffer layout (bins at 0, counters at
/// hd::kHistogramCountersOffset).
__device__ __forceinline__ unsigned bufferWordOfSlot(unsigned slot, const Params& params)
{
    return slot < params.binCount ? slot : hd::kHistogramCountersOffset + (slot - params.binCount);
}

/// The two halves of a 32-bit word as floats.
__device__ __forceinline__ float2 unpackHalf2(unsigned word)
{
    __half2 pair = *reinterpret_cast<__half2*>(&word);
    return __half22float2(pair);
}

}  // namespace cuda::histogram_detail
