// FusedLighting.glsl: the producer half of the "fused-lighting" histogram method
// (src/post/histogram/HistogramFusedLighting.h), included by scene/DeferredLighting.comp when it is
// built with FUSED_HISTOGRAM. The lighting pass hands over each pixel's value as it stores it, so the
// histogram (and Ward's foveal sums) never read the frame again. Per 8x8 tile (one workgroup):
//  - every pixel's bit-exact bin (hdBinOfScaled with the range, bin count and policy of the pipeline's
//    params buffer; the bins-per-EV scale computed once per workgroup), no-bin pixels in the counters;
//  - no shared histogram (64 pixels against up to 4096 bins would be all clearing and flushing): a
//    64-slot open-addressing table in shared memory (bin or counter code -> count; at most 64 codes,
//    so a free slot is always found, mostly at the first probe) and one global atomic per distinct
//    code of the tile. Counts are sums of ones, so the result does not depend on the order. (The first
//    version had each invocation scan the tile's earlier codes, up to 63 shared reads per pixel with
//    every warp waiting for its slowest lane: on the H200 it doubled the lighting pass at 4K.)
//  - the least and largest finite positive luminance (float bits order like the values), one global
//    atomicMin/atomicMax per tile: the pipeline's auto range for the next frame;
//  - FUSED_FOVEAL 1: the finite pixels' RGB sum and count of each of Ward's foveal blocks the tile
//    touches, one vec4 per (tile, block slot), summed per block by the method's finishing pass
//    (shaders/histogram/FusedFoveal.comp).
// What is binned is what is stored: FUSED_HALF_TARGET 1 (an RGBA16F frame) rounds the value to a
// half here (hdRoundToHalf, denormal halves kept), so the store converts nothing and the histogram of the frame as read
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
shared int sFusedKey[kFusedTilePixels];    // a code, or kFusedNoPixel: a free slot
shared uint sFusedCount[kFusedTilePixels]; // the tile's pixels with that code
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
    sFusedKey[gl_LocalInvocationIndex] = kFusedNoPixel;
    sFusedCount[gl_LocalInvocationIndex] = 0u;
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
    // Rounded to a half here with integer operations (hdRoundToHalf: ties to even, denormal halves
    // kept, which a frame pre-exposed by 2^-17 has below 8 cd/m^2), so the store converts nothing and
    // the value binned is the value stored on every GPU (packHalf2x16 then the store binned a few
    // values off on the H200).
    stored = vec3(hdRoundToHalf(shaded.r), hdRoundToHalf(shaded.g), hdRoundToHalf(shaded.b));
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
        // The code's slot: a multiplicative hash, then the next slots until one holds it or is free.
        uint slot = (uint(code + 16) * 2654435761u >> 16u) % kFusedTilePixels;
        for (uint probe = 0u; probe < kFusedTilePixels; ++probe) {
            const int held = atomicCompSwap(sFusedKey[slot], kFusedNoPixel, code);
            if (held == kFusedNoPixel || held == code) {
                atomicAdd(sFusedCount[slot], 1u);
                break;
            }
            slot = (slot + 1u) % kFusedTilePixels;
        }
    }
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

    const int held = sFusedKey[local];
    if (held != kFusedNoPixel)
        atomicAdd(fusedHistogram[held >= 0 ? uint(held) : kHistogramCountersOffset + hdCounterOfCode(held)],
                  sFusedCount[local]);
    if (local == 0u) {
        if (sFusedMin != kFusedPositiveInfinityBits)
            atomicMin(fusedHistogram[kFusedMinBits], sFusedMin);
        if (sFusedMax != 0u)
            atomicMax(fusedHistogram[kFusedMaxBits], sFusedMax);
    }
#if FUSED_FOVEAL
    // Each block the tile touches: the sum of its pixels' values, in a fixed order (deterministic).
    const ivec2 lastPixel = min(tileOrigin + int(kFusedTileSize) - 1, size - 1);
    const ivec2 lastBlock =
        ivec2(hdFovealBlockOf(lastPixel.x, size.x, grid.x), hdFovealBlockOf(lastPixel.y, size.y, grid.y));
    const ivec2 used = lastBlock - firstBlock + 1;
    const uint tile = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    if (used.x * used.y == 1) {
        // The whole tile in one block (most tiles: blocks are tens of pixels wide): a tree sum over the
        // 64 values, in a fixed order, 6 steps (the condition is the tile's: uniform, barriers allowed).
        for (uint stride = kFusedTilePixels / 2u; stride > 0u; stride /= 2u) {
            if (local < stride)
                sFusedSum[local] += sFusedSum[local + stride];
            memoryBarrierShared();
            barrier();
        }
        if (local == 0u)
            fusedFovealSums[tile * uint(span.x * span.y)] = sFusedSum[0];
    } else if (int(local) < used.x * used.y) {
        const int target = (int(local) / used.x) * span.x + int(local) % used.x;
        vec4 sum = vec4(0.0);
        for (uint k = 0u; k < kFusedTilePixels; ++k)
            if (sFusedSlot[k] == target)
                sum += sFusedSum[k];
        fusedFovealSums[tile * uint(span.x * span.y) + uint(target)] = sum;
    }
#endif
}
