// compute-shared-atomic: the default GL log-luminance histogram, built to read the frame once at
// close to memory speed.
//  - 2-D tiles walked by a persistent grid (grid-stride): a 32x8 workgroup covers a tile of
//    32 x 8*PIXELS (ROWS layout: an invocation's pixels lie 8 rows apart) or 32*PIXELS x 8 (STRIP
//    layout: an invocation's pixels are neighbours in a row, so runs of equal bins are longer). A
//    pixel's position is the tile origin plus the invocation's offset: no per-pixel division.
//  - PIXELS texel loads issued before any of them is binned, so several reads are in flight.
//  - Bit-exact binning (hdBinOfScaled, scale computed once per invocation); runs of equal bins go
//    in with one shared atomic (Bugetti's aggregation); with SUBGROUP_VOTE, a subgroup whose pixels
//    all share one bin adds them with one atomic; REPLICAS copies of the shared histogram (one per
//    warp modulo REPLICAS, odd stride) spread same-bin atomics of different warps.
//  - Each workgroup adds its non-zero bins to the global buffer once.
// Range, bin count and policy come from the params buffer (they may be set by the GPU).
#ifndef SUBGROUP_VOTE
#define SUBGROUP_VOTE 0
#endif
#if SUBGROUP_VOTE
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#endif
#include "shared/HostDevice.h"

#ifndef PIXELS
#define PIXELS 4
#endif
#ifndef STRIP
#define STRIP 0
#endif
#ifndef BIN_CAPACITY
#define BIN_CAPACITY 4096
#endif
#ifndef REPLICAS
#define REPLICAS 1
#endif

#if STRIP
const uvec2 kTile = uvec2(32u * PIXELS, 8u);
#else
const uvec2 kTile = uvec2(32u, 8u * PIXELS);
#endif
const uint kGroupSize = 256u;
const uint kStride = REPLICAS > 1 ? BIN_CAPACITY + kCounterCount + 1u : BIN_CAPACITY + kCounterCount; // odd: banks
const int kNoPixel = -100; // outside the image: no bin, no counter
layout(local_size_x = 32, local_size_y = 8) in;

layout(binding = kTextureUnitInput) uniform sampler2D uInput;
layout(std430, binding = kBindingHistogram) buffer HistogramBuffer { uint histogram[]; };
layout(std430, binding = kBindingHistogramParams) readonly buffer ParamsBuffer { uint params[]; };
layout(location = 0) uniform ivec2 uSize;

// Per copy: bins [0, BIN_CAPACITY), then the no-bin counters.
shared uint sHistogram[REPLICAS * kStride];

uint slotOf(int code)
{
    return code >= 0 ? uint(code) : BIN_CAPACITY + hdCounterOfCode(code);
}

void addRun(uint copy, int code, uint count)
{
    if (count != 0u && code != kNoPixel)
        atomicAdd(sHistogram[copy + slotOf(code)], count);
}

void main()
{
    const float logMin = uintBitsToFloat(params[kParamLogMin]);
    const float logMax = uintBitsToFloat(params[kParamLogMax]);
    const uint binCount = clamp(params[kParamBinCount], 1u, uint(BIN_CAPACITY));
    const uint policy = params[kParamOutOfRange];
    const float scale = hdBinScale(logMin, logMax, binCount);
    const uint local = gl_LocalInvocationIndex;
    const uint copy = ((local >> 5u) % uint(REPLICAS)) * kStride;

    for (uint i = local; i < REPLICAS * kStride; i += kGroupSize)
        sHistogram[i] = 0u;
    barrier();

    const uvec2 size = uvec2(uSize);
    const uint tilesX = (size.x + kTile.x - 1u) / kTile.x;
    const uint tileCount = tilesX * ((size.y + kTile.y - 1u) / kTile.y);
    int runCode = kNoPixel;
    uint runLength = 0u;
    for (uint tile = gl_WorkGroupID.x; tile < tileCount; tile += gl_NumWorkGroups.x) {
        const uvec2 origin = uvec2(tile % tilesX, tile / tilesX) * kTile;
#if STRIP
        const uvec2 first = origin + uvec2(gl_LocalInvocationID.x * PIXELS, gl_LocalInvocationID.y);
        const uvec2 step = uvec2(1u, 0u);
#else
        const uvec2 first = origin + gl_LocalInvocationID.xy;
        const uvec2 step = uvec2(0u, 8u);
#endif
        vec3 texel[PIXELS];
        for (uint k = 0u; k < PIXELS; ++k) {
            const uvec2 pixel = first + k * step;
            texel[k] = all(lessThan(pixel, size)) ? texelFetch(uInput, ivec2(pixel), 0).rgb : vec3(0.0);
        }
        for (uint k = 0u; k < PIXELS; ++k) {
            const uvec2 pixel = first + k * step;
            const int code = all(lessThan(pixel, size))
                                 ? hdBinOfScaled(hdLuminance(texel[k].r, texel[k].g, texel[k].b), logMin, logMax,
                                                 scale, binCount, policy)
                                 : kNoPixel;
#if SUBGROUP_VOTE
            // Uniform control flow here: the whole subgroup votes. Full subgroups only (the
            // workgroup is a multiple of every NVIDIA/AMD/Intel subgroup size).
            if (subgroupAllEqual(code)) {
                if (subgroupElect())
                    addRun(copy, code, gl_SubgroupSize);
                continue;
            }
#endif
            if (runLength != 0u && code == runCode) {
                ++runLength;
            } else {
                addRun(copy, runCode, runLength);
                runCode = code;
                runLength = 1u;
            }
        }
    }
    addRun(copy, runCode, runLength);
    barrier();

    for (uint slot = local; slot < BIN_CAPACITY + kCounterCount; slot += kGroupSize) {
        const bool isBin = slot < binCount;
        const bool isCounter = slot >= BIN_CAPACITY;
        if (!isBin && !isCounter)
            continue;
        uint count = 0u;
        for (uint r = 0u; r < uint(REPLICAS); ++r)
            count += sHistogram[r * kStride + slot];
        if (count != 0u)
            atomicAdd(histogram[isBin ? slot : kHistogramCountersOffset + (slot - BIN_CAPACITY)], count);
    }
}
