// FusedLighting.glsl: the producer half of the "fused-lighting" histogram method
// (src/post/histogram/HistogramFusedLighting.h), included by scene/DeferredLighting.comp when it is
// built with FUSED_HISTOGRAM. The lighting pass hands over each pixel's value as it stores it, so the
// histogram (and Ward's foveal sums) never read the frame again. Per 8x8 tile (one workgroup):
//  - every pixel's bit-exact bin (hdBinOfScaled with the range, bin count and policy of the pipeline's
//    params buffer; the bins-per-EV scale computed once per workgroup), no-bin pixels in the counters;
//  - no shared histogram (64 pixels against up to 4096 bins would be all clearing and flushing): each
//    invocation looks for an earlier one with its bin; the first of each bin counts its equals and
//    adds them with one global atomic;
//  - the least and largest finite positive luminance (float bits order like the values), one global
//    atomicMin/atomicMax per tile: the pipeline's auto range for the next frame;
//  - FUSED_FOVEAL 1: the finite pixels' RGB sum and count of each of Ward's foveal blocks the tile
//    touches, one vec4 per (tile, block slot), summed per block by the method's finishing pass
//    (shaders/histogram/FusedFoveal.comp).
// What is binned is what is stored: FUSED_HALF_TARGET 1 (an RGBA16F frame) rounds the value to half
// here (half denormals to zero), so the store converts nothing and the histogram of the frame as read
// back is exact; a stress preset's injected NaN/+Inf/negative texels (scene/PixelInjection.h, same
// positions) are written here too, so the counters see them.
// Use: fusedBegin() at the start of main(); fusedStoredValue() on the value to store; fusedEnd() at the
// end of main(), reached by every invocation of the workgroup (it holds barriers).
#include "shared/HostDevice.h"

#ifndef FUSED_FOVEAL
#define FUSED_FOVEAL 0
#endif
#ifndef FUSED_HALF_TARGET
#define FUSED_HALF_TARGET 0
#endif

layout(std430, binding = kBindingFusedParams) readonly buffer FusedParamsBuffer { uint fusedParams[]; };
layout(std430, binding = kBindingFusedHistogram) buffer FusedHistogramBuffer { uint fusedHistogram[]; };
layout(std430, binding = kBindingFusedInjection) readonly buffer FusedInjectionBuffer { uint fusedInjectedTexels[]; };
layout(location = kFusedInjectionLocation) uniform ivec3 uFusedInjection; // NaN, +Inf, negative texel counts
#if FUSED_FOVEAL
layout(std430, binding = kBindingFusedFoveal) writeonly buffer FusedFovealBuffer { vec4 fusedFovealSums[]; };
layout(location = kFusedFovealLocation) uniform ivec4 uFusedFoveal; // grid xy, slots per tile xy
#endif

const uint kFusedTilePixels = kFusedTileSize * kFusedTileSize;
const int kFusedNoPixel = -100; // outside the frame: no bin, no counter
const uint kFusedPositiveInfinityBits = 0x7F800000u;

shared float sFusedScale;
shared uint sFusedMin;
shared uint sFusedMax;
shared int sFusedCode[kFusedTilePixels];
#if FUSED_FOVEAL
shared vec4 sFusedSum[kFusedTilePixels]; // rgb, 1 for a finite pixel
shared int sFusedSlot[kFusedTilePixels];
#endif

/// The luminance every fused bin and range uses: the params buffer's weights (the input's units,
/// post/LuminanceUnits.h), as every other method bins.
float fusedLuminance(vec3 rgb)
{
    return hdLuminanceWeighted(rgb.r, rgb.g, rgb.b, uintBitsToFloat(fusedParams[kParamLumaR]),
                               uintBitsToFloat(fusedParams[kParamLumaG]), uintBitsToFloat(fusedParams[kParamLumaB]));
}

uint fusedBinCount()
{
    return clamp(fusedParams[kParamBinCount], 1u, kMaxHistogramBins);
}

void fusedBegin()
{
    if (gl_LocalInvocationIndex == 0u) {
        sFusedScale = hdBinScale(uintBitsToFloat(fusedParams[kParamLogMin]), uintBitsToFloat(fusedParams[kParamLogMax]),
                                 fusedBinCount());
        sFusedMin = kFusedPositiveInfinityBits;
        sFusedMax = 0u;
    }
}

/// The value the frame will hold at `pixel`: `shaded` as the target stores it, or a stress preset's
/// injected texel (the positions of scene::injectionPositions: NaN texels first, then +Inf, then -1).
vec3 fusedStoredValue(ivec2 pixel, ivec2 size, vec3 shaded)
{
    vec3 stored = shaded;
#if FUSED_HALF_TARGET
    // Rounded to half here, half denormals flushed, so the store's own conversion is exact everywhere.
    stored = vec3(unpackHalf2x16(packHalf2x16(shaded.rg)), unpackHalf2x16(packHalf2x16(vec2(shaded.b, 0.0))).x);
    stored = mix(stored, vec3(0.0), lessThan(abs(stored), vec3(6.103515625e-05)));
#endif
    const int injected = uFusedInjection.x + uFusedInjection.y + uFusedInjection.z;
    if (injected == 0)
        return stored;
    const uint index = uint(pixel.y) * uint(size.x) + uint(pixel.x);
    int lo = 0;
    int hi = injected;
    while (lo < hi) { // the first injected index >= index
        const int mid = (lo + hi) / 2;
        if (fusedInjectedTexels[mid] < index)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo >= injected || fusedInjectedTexels[lo] != index)
        return stored;
    if (lo < uFusedInjection.x)
        return vec3(uintBitsToFloat(0x7fc00000u));
    if (lo < uFusedInjection.x + uFusedInjection.y)
        return vec3(uintBitsToFloat(kFusedPositiveInfinityBits));
    return vec3(-1.0);
}

/// Adds the tile's pixels (`rgb` as stored; `inside` false past the frame's edge) to the fused outputs.
void fusedEnd(bool inside, ivec2 pixel, ivec2 size, vec3 rgb)
{
    const uint local = gl_LocalInvocationIndex;
    barrier(); // fusedBegin's shared values
    int code = kFusedNoPixel;
    if (inside) {
        const float logMin = uintBitsToFloat(fusedParams[kParamLogMin]);
        const float logMax = uintBitsToFloat(fusedParams[kParamLogMax]);
        const float L = fusedLuminance(rgb);
        code = hdBinOfScaled(L, logMin, logMax, sFusedScale, fusedBinCount(), fusedParams[kParamOutOfRange]);
        if (!(isnan(L) || isinf(L)) && L >= kMinLuminance) {
            atomicMin(sFusedMin, floatBitsToUint(L));
            atomicMax(sFusedMax, floatBitsToUint(L));
        }
    }
    sFusedCode[local] = code;
#if FUSED_FOVEAL
    const ivec2 grid = uFusedFoveal.xy;
    const ivec2 span = uFusedFoveal.zw;
    const ivec2 tileOrigin = ivec2(gl_WorkGroupID.xy) * int(kFusedTileSize);
    const ivec2 firstBlock =
        ivec2(hdFovealBlockOf(tileOrigin.x, size.x, grid.x), hdFovealBlockOf(tileOrigin.y, size.y, grid.y));
    int slot = -1;
    vec4 value = vec4(0.0);
    if (inside) {
        const ivec2 block = ivec2(hdFovealBlockOf(pixel.x, size.x, grid.x), hdFovealBlockOf(pixel.y, size.y, grid.y));
        slot = (block.y - firstBlock.y) * span.x + (block.x - firstBlock.x);
        if (!(any(isnan(rgb)) || any(isinf(rgb))))
            value = vec4(rgb, 1.0);
    }
    sFusedSlot[local] = slot;
    sFusedSum[local] = value;
#endif
    barrier();

    if (code != kFusedNoPixel) {
        bool first = true;
        for (uint k = 0u; k < local; ++k) {
            if (sFusedCode[k] == code) {
                first = false;
                break;
            }
        }
        if (first) {
            uint count = 1u;
            for (uint k = local + 1u; k < kFusedTilePixels; ++k)
                count += sFusedCode[k] == code ? 1u : 0u;
            atomicAdd(fusedHistogram[code >= 0 ? uint(code) : kHistogramCountersOffset + hdCounterOfCode(code)], count);
        }
    }
    if (local == 0u) {
        if (sFusedMin != kFusedPositiveInfinityBits)
            atomicMin(fusedHistogram[kFusedMinBits], sFusedMin);
        if (sFusedMax != 0u)
            atomicMax(fusedHistogram[kFusedMaxBits], sFusedMax);
    }
#if FUSED_FOVEAL
    // One invocation per block the tile touches sums that block's pixels in a fixed order.
    const ivec2 lastPixel = min(tileOrigin + int(kFusedTileSize) - 1, size - 1);
    const ivec2 lastBlock =
        ivec2(hdFovealBlockOf(lastPixel.x, size.x, grid.x), hdFovealBlockOf(lastPixel.y, size.y, grid.y));
    const ivec2 used = lastBlock - firstBlock + 1;
    if (int(local) < used.x * used.y) {
        const int target = (int(local) / used.x) * span.x + int(local) % used.x;
        vec4 sum = vec4(0.0);
        for (uint k = 0u; k < kFusedTilePixels; ++k)
            if (sFusedSlot[k] == target)
                sum += sFusedSum[k];
        const uint tile = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
        fusedFovealSums[tile * uint(span.x * span.y) + uint(target)] = sum;
    }
#endif
}
