// ReferenceHistogram.comp: the reference chain's histogram (`hdrlab bench pipeline`,
// commands/bench/ReferenceChain.h): what a plain kernel does with the frame in a linear buffer, as a
// yardstick for the pipeline's methods, not one of them.
//  - 16-byte loads (uvec4: two RGBA16F pixels unpacked with unpackHalf2x16, or one RGBA32F pixel),
//    ITEMS of them issued per invocation before any is binned, grid-stride over the buffer.
//  - Luminance as a plain dot product and the hardware log2: NOT the bit-exact binning of
//    shared/HostDevice.h (hdBinOf); a pixel within an ulp or so of a bin edge may land in the
//    neighbouring bin. NaN, Inf and non-positive luminance go to their counters as in hdBinOf, and
//    the params' out-of-range policy holds, so the total count is exact.
//  - One shared array per workgroup sized by the bin count (BINS, plus the counters), shared
//    atomicAdd per pixel, then every non-zero entry added to the global bins with one atomicAdd.
// The global bins and counters (hd::kHistogramBufferWords layout) are cleared by the host first.
#include "shared/HostDevice.h"

#ifndef BINS
#define BINS 256
#endif
#ifndef HALF_FRAME
#define HALF_FRAME 1
#endif
#ifndef ITEMS
#define ITEMS 4
#endif
#ifndef GROUP_SIZE
#define GROUP_SIZE 256
#endif

layout(local_size_x = GROUP_SIZE) in;

layout(std430, binding = kBindingScratch0) readonly buffer Frame { uvec4 frame[]; };
layout(std430, binding = kBindingHistogram) buffer HistogramBuffer { uint histogram[]; };
layout(std430, binding = kBindingHistogramParams) readonly buffer ParamsBuffer { uint params[]; };
layout(location = 0) uniform uint uPixels;

const uint kSlots = uint(BINS) + kCounterCount; // bins, then the no-bin counters
shared uint sBins[kSlots];

// Uniform per dispatch, read once per invocation.
uint gBinCount;
uint gPolicy;
float gLogMin;
float gScale; // bins per EV, a plain division
vec3 gWeights;

uint slotOf(vec3 rgb)
{
    const float L = dot(gWeights, rgb);
    if (isnan(L))
        return uint(BINS) + kCounterNaN;
    if (isinf(L))
        return uint(BINS) + kCounterInf;
    if (!(L >= kMinLuminance))
        return uint(BINS) + kCounterNonPositive;
    const float position = (log2(L) - gLogMin) * gScale;
    if (position < 0.0)
        return gPolicy == kOutOfRangeSeparate ? uint(BINS) + kCounterBelow : 0u;
    if (position > float(gBinCount))
        return gPolicy == kOutOfRangeSeparate ? uint(BINS) + kCounterAbove : gBinCount - 1u;
    return min(uint(position), gBinCount - 1u);
}

// The pixels of one 16-byte element (its second half-float pixel only where the frame has it).
void binElement(uvec4 element, uint index)
{
#if HALF_FRAME
    atomicAdd(sBins[slotOf(vec3(unpackHalf2x16(element.x), unpackHalf2x16(element.y).x))], 1u);
    if (index * 2u + 1u < uPixels)
        atomicAdd(sBins[slotOf(vec3(unpackHalf2x16(element.z), unpackHalf2x16(element.w).x))], 1u);
#else
    atomicAdd(sBins[slotOf(uintBitsToFloat(element.xyz))], 1u);
#endif
}

void main()
{
    gBinCount = clamp(params[kParamBinCount], 1u, uint(BINS));
    gPolicy = params[kParamOutOfRange];
    gLogMin = uintBitsToFloat(params[kParamLogMin]);
    gScale = float(gBinCount) / (uintBitsToFloat(params[kParamLogMax]) - gLogMin);
    gWeights = vec3(uintBitsToFloat(params[kParamLumaR]), uintBitsToFloat(params[kParamLumaG]),
                    uintBitsToFloat(params[kParamLumaB]));
    const uint local = gl_LocalInvocationID.x;
    for (uint i = local; i < kSlots; i += uint(GROUP_SIZE))
        sBins[i] = 0u;
    barrier();

#if HALF_FRAME
    const uint elements = (uPixels + 1u) / 2u;
#else
    const uint elements = uPixels;
#endif
    const uint chunk = uint(GROUP_SIZE * ITEMS);
    const uint stride = gl_NumWorkGroups.x * chunk;
    uint base = gl_WorkGroupID.x * chunk + local;
    for (; base + uint((ITEMS - 1) * GROUP_SIZE) < elements; base += stride) {
        uvec4 v[ITEMS];
        for (int k = 0; k < ITEMS; ++k)
            v[k] = frame[base + uint(k * GROUP_SIZE)];
        for (int k = 0; k < ITEMS; ++k)
            binElement(v[k], base + uint(k * GROUP_SIZE));
    }
    for (int k = 0; k < ITEMS; ++k) { // the last, partial step
        const uint i = base + uint(k * GROUP_SIZE);
        if (i < elements)
            binElement(frame[i], i);
    }
    barrier();

    for (uint i = local; i < gBinCount; i += uint(GROUP_SIZE))
        if (sBins[i] != 0u)
            atomicAdd(histogram[i], sBins[i]);
    if (local < kCounterCount && sBins[uint(BINS) + local] != 0u)
        atomicAdd(histogram[kHistogramCountersOffset + local], sBins[uint(BINS) + local]);
}
