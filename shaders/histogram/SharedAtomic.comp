// compute-shared-atomic: the default GL log-luminance histogram, built to read the frame once at
// close to memory speed.
//  - 2-D tiles walked by a persistent grid (grid-stride): a 32x8 workgroup covers a tile of
//    32 x 8*PIXELS (ROWS layout: an invocation's pixels lie 8 rows apart) or 32*PIXELS x 8 (STRIP
//    layout: an invocation's pixels are neighbours in a row, so runs of equal bins are longer). A
//    pixel's position is the tile origin plus the invocation's offset: no per-pixel division.
//  - PIXELS texel loads issued before any of them is binned, so several reads are in flight.
//  - Bit-exact binning at the hardware log2's speed (hdBinOfFast: the polynomial only for pixels
//    next to a bin edge; scale and margin computed once per invocation); with RUN_MERGE, runs of
//    equal bins go in with one shared atomic (Bugetti's aggregation); with SUBGROUP_VOTE, a subgroup whose pixels
//    all share one bin adds them with one atomic; REPLICAS copies of the shared histogram (one per
//    warp modulo REPLICAS, odd stride) spread same-bin atomics of different warps.
//  - APPLY 1 (the pipeline's one-pass mode): the same read of each pixel also maps it through the
//    curve buffer as it stands (the previous frame's curve) and stores the display pixel
//    (tonemap/ApplyPixel.glsl, the apply pass's own arithmetic) to uApplyOutput.
//  - Each workgroup adds its non-zero bins to the global buffer once. SELF_CLEAR 1 (the method):
//    they add into an accumulator instead, and the last group to finish (a ticket) moves the sums
//    into the histogram and zeroes the accumulator, which saves the histogram's clear (a dispatch).
//  - CURVE_KERNEL 1 or 2 (with SELF_CLEAR): the last group also builds the tone operator's curve from
//    the bins it publishes (histogram/CurveInLastGroup.glsl: percentile or equalize), so no curve
//    dispatch follows.
//  - FOVEAL 1: the same histogram, and in the same read of the frame Ward's foveal image (the box
//    filter of WardFoveal.comp): the tiles are then the foveal blocks ([x w/gw, (x+1) w/gw) x ...,
//    so they partition the frame), each walked by the whole workgroup, PIXELS rows of loads in
//    flight; the finite pixels' RGB sums meet in a shared-memory tree and the block's mean goes to
//    uFoveal (an option for benchmarks: slower than FOVEAL 2 on the H200 at 1080p and 4K).
//  - FOVEAL 2 (the method): each row of 32 invocations
//    walks one block by its pixel index (all 32 busy whatever the block's width), 8 blocks per
//    workgroup at a time, and the 32 sums of each row meet in a shared-memory tree.
//  - FOVEAL_KEYS 1 (with FOVEAL; Ward's frame fit then needs no range dispatch): each stored foveal
//    mean is also folded, as Ward's fit reads it back (luminance under uKeyWeights, the fit's weights),
//    into the two range keys of tonemap/WardRangeKeys.glsl: per invocation, then per workgroup in
//    shared memory, then one global atomicMax per key and workgroup into uRangeKeys (zero before the
//    pass; Ward's fit consumes and zeroes them).
//  - TILES 1 (a local tone operator's tile histograms; not with FOVEAL or APPLY): the workgroups walk
//    the tile grid's blocks instead, tile by tile, and also add their bins into each tile's histogram
//    (histogram/TileHistogramsInPass.glsl), in the same read of the frame.
//  - LOCAL_EXPOSURE_GRID 1 (tiles only, 32 x 8*PIXELS blocks nesting in 64 x 64): the same read also
//    builds the bilateral local exposure's grid (localexposure/BilateralGrid.glsl).
// Range, bin count and policy come from the params buffer (they may be set by the GPU).
// Factor experiments (`hdrlab bench histogram-factors`, docs/PERF.md; never set by the method, not
// with FOVEAL): SOURCE 1 reads the frame with imageLoad, 2 from a storage buffer of packed RGBA16F
// texels (row-major, 8 bytes each); BINNING 0 bins with the polynomial log2 for every pixel
// (hdBinOfScaled), 2 with the hardware log2 alone (not bit-exact); RUN_MERGE 0 adds every pixel
// with its own shared atomic; WORK 1 only reads the texels (no
// binning), WORK 2 skips the pixels (the clears and the merge into the global bins alone), WORK 3
// reads and bins but adds nothing (no shared atomics), WORK 4 reads and computes the luminance only.
#ifndef FOVEAL
#define FOVEAL 0
#endif
#ifndef SUBGROUP_VOTE
#define SUBGROUP_VOTE 0
#endif
#if FOVEAL // block edges make trip counts differ between invocations: no subgroup-uniform vote
#undef SUBGROUP_VOTE
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
#ifndef SOURCE
#define SOURCE 0
#endif
#ifndef BINNING
#define BINNING 1 // 0 hdBinOfScaled, 1 hdBinOfFast (the method), 2 hardware log2 (experiment)
#endif
#ifndef RUN_MERGE
#define RUN_MERGE 1
#endif
#ifndef WORK
#define WORK 0
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
#ifndef SELF_CLEAR
#define SELF_CLEAR 0
#endif
#ifndef APPLY
#define APPLY 0
#endif
#ifndef CURVE_KERNEL
#define CURVE_KERNEL 0
#endif
#ifndef CURVE_GATE
#define CURVE_GATE 0 // 1 (an experiment): the curve code compiled in; uCurveGate 0 skips it, 2 runs the scan alone, 3 all but percentile's curve samples
#endif
#if CURVE_GATE
layout(location = 31) uniform uint uCurveGate;
#endif
#if CURVE_KERNEL && !SELF_CLEAR
#error "CURVE_KERNEL runs in the last workgroup of SELF_CLEAR"
#endif
#if APPLY && FOVEAL == 1
#error "APPLY runs with the tiles or FOVEAL 2"
#endif
#ifndef FOVEAL_KEYS
#define FOVEAL_KEYS 0
#endif
#if FOVEAL_KEYS && (!FOVEAL || SOURCE == 2)
#error "FOVEAL_KEYS folds the foveal means (FOVEAL 1 or 2) and binds kBindingScratch0"
#endif

#ifndef TILES
#define TILES 0
#endif
#if TILES && (FOVEAL || APPLY || WORK || SOURCE == 2)
#error "TILES walks the tile grid's blocks: not with FOVEAL, APPLY, WORK or SOURCE 2"
#endif
#ifndef LOCAL_EXPOSURE_GRID
#define LOCAL_EXPOSURE_GRID 0
#endif
#if TILES && LOCAL_EXPOSURE_GRID
#error "TILES and LOCAL_EXPOSURE_GRID are not built together (the local operators ignore local exposure)"
#endif
#if LOCAL_EXPOSURE_GRID
#if FOVEAL || STRIP || WORK != 0 || (64 % (8 * PIXELS)) != 0 || PIXELS > 4
#error "LOCAL_EXPOSURE_GRID needs the tiles of 32 x 8*PIXELS pixels nesting in the grid's 64 x 64"
#endif
#include "localexposure/BilateralGrid.glsl"
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

#if SOURCE == 1
layout(binding = kImageUnitInput, rgba16f) readonly uniform image2D uInputImage;
#elif SOURCE == 2
layout(std430, binding = kBindingScratch0) readonly buffer FrameTexels { uvec2 frameTexels[]; };
#endif
layout(binding = kTextureUnitInput) uniform sampler2D uInput;
layout(std430, binding = kBindingHistogram) buffer HistogramBuffer { uint histogram[]; };
layout(std430, binding = kBindingHistogramParams) readonly buffer ParamsBuffer { uint params[]; };
layout(location = 0) uniform ivec2 uSize;
#if FOVEAL
layout(binding = kImageUnitOutput, rgba32f) writeonly uniform image2D uFoveal;
layout(location = 1) uniform ivec2 uFovealGrid;
layout(location = 2) uniform float uSceneScale;
shared vec4 sFovealSum[kGroupSize]; // rgb sum, finite pixel count

#if FOVEAL_KEYS
#include "tonemap/WardRangeKeys.glsl"
layout(std430, binding = kBindingScratch0) coherent buffer RangeKeys { uint uRangeKeys[]; }; // min key, max key
layout(location = 3) uniform vec3 uKeyWeights;
shared uint sKeys[2];
uvec2 gKeys = uvec2(0u); // this invocation's keys of the means it stored
#define KEYS_PRECISE precise
#else
#define KEYS_PRECISE
#endif

// A foveal sample: the block's mean of finite pixels in cd/m^2, NaN where it has none.
void storeFovealMean(ivec2 cell, vec4 total)
{
    if (!(total.w > 0.0)) {
        imageStore(uFoveal, cell, vec4(uintBitsToFloat(0x7fc00000u)));
        return; // a NaN sample: no key (Ward skips it)
    }
    // With keys, precise: the texel stored and the luminance keyed are one value, however the compiler optimizes.
    KEYS_PRECISE vec3 mean = total.rgb / total.w * uSceneScale;
    imageStore(uFoveal, cell, vec4(mean, 1.0));
#if FOVEAL_KEYS
    gKeys = max(gKeys, wardRangeKeys(hdLuminanceWeighted(mean.r, mean.g, mean.b, uKeyWeights.x, uKeyWeights.y,
                                                         uKeyWeights.z)));
#endif
}
#endif

#if APPLY
layout(std430, binding = kBindingCurve) readonly buffer CurveBuffer { float curve[]; };
layout(binding = kImageUnitApplyOutput, rgba8) writeonly uniform image2D uApplyOutput;
#ifndef DISPLAY_TRANSFORM
#define DISPLAY_TRANSFORM 0 // as Apply.comp's: 0, or an RGB display transform's code, per build
#endif
const uint uTransform = uint(DISPLAY_TRANSFORM);
#include "tonemap/CurveLookup.glsl"
#include "tonemap/DisplayTransform.glsl"
#include "tonemap/ApplyPixel.glsl"
Curve gCurve;       // the curve's header, read once per invocation
float gCdPerUnit;   // the params' cd/m^2 per channel unit

void applyPixel(uvec2 pixel, vec3 rgb, vec3 weights)
{
    imageStore(uApplyOutput, ivec2(pixel), displayPixel(gCurve, rgb, weights, gCdPerUnit, 1.0, uTransform));
}
#endif

#if SELF_CLEAR
// The groups' sums meet here instead of in the histogram (kHistogramBufferWords words, then the
// ticket), so the histogram needs no clear before the dispatch; zero between dispatches.
layout(std430, binding = kBindingScratch1) coherent buffer Accumulator { uint accumulated[]; };
shared uint sTicket;
#endif

// Per copy: bins [0, BIN_CAPACITY), then the no-bin counters.
shared uint sHistogram[REPLICAS * kStride];

#if CURVE_KERNEL
#include "histogram/CurveInLastGroup.glsl"
#endif

uint slotOf(int code)
{
    return code >= 0 ? uint(code) : BIN_CAPACITY + hdCounterOfCode(code);
}

void addRun(uint copy, int code, uint count)
{
    if (count != 0u && code != kNoPixel)
        atomicAdd(sHistogram[copy + slotOf(code)], count);
}

// The invocation's current run of equal bins (RUN_MERGE), flushed when the bin changes and at the end.
int gRunCode = kNoPixel;
uint gRunLength = 0u;

void addPixel(uint copy, int code)
{
#if RUN_MERGE
    if (gRunLength != 0u && code == gRunCode) {
        ++gRunLength;
    } else {
        addRun(copy, gRunCode, gRunLength);
        gRunCode = code;
        gRunLength = 1u;
    }
#else
    addRun(copy, code, 1u);
#endif
}

#if TILES
#include "histogram/TileHistogramsInPass.glsl"
#endif

// One texel of the frame through the source under study (SOURCE).
vec3 frameTexel(uvec2 pixel)
{
#if SOURCE == 1
    return imageLoad(uInputImage, ivec2(pixel)).rgb;
#elif SOURCE == 2
    const uvec2 halves = frameTexels[pixel.y * uint(uSize.x) + pixel.x];
    return vec3(unpackHalf2x16(halves.x), unpackHalf2x16(halves.y).x);
#else
    return texelFetch(uInput, ivec2(pixel), 0).rgb;
#endif
}

// The bin of luminance L: bit-exact (hdBinOfFast, hdBinOfScaled), or with the hardware log2 alone.
int binOf(float L, float logMin, float logMax, float scale, uint binCount, uint policy, float margin)
{
#if BINNING == 2
    if (isnan(L))
        return kBinNaN;
    if (isinf(L))
        return kBinInf;
    if (!(L >= kMinLuminance))
        return kBinNonPositive;
    const float position = (log2(L) - logMin) * scale;
    if (position < 0.0)
        return policy == kOutOfRangeSeparate ? kBinBelow : 0;
    if (position > float(binCount))
        return policy == kOutOfRangeSeparate ? kBinAbove : int(binCount) - 1;
    return min(int(position), int(binCount) - 1);
#elif BINNING == 1
    return hdBinOfFast(L, logMin, logMax, scale, binCount, policy, margin);
#else
    return hdBinOfScaled(L, logMin, logMax, scale, binCount, policy);
#endif
}

void main()
{
    const float logMin = uintBitsToFloat(params[kParamLogMin]);
    const float logMax = uintBitsToFloat(params[kParamLogMax]);
    const uint binCount = clamp(params[kParamBinCount], 1u, uint(BIN_CAPACITY));
    const uint policy = params[kParamOutOfRange];
    const float scale = hdBinScale(logMin, logMax, binCount);
    const float margin = hdBinFastMargin(logMin, logMax, scale, binCount);
    const vec3 weights = vec3(uintBitsToFloat(params[kParamLumaR]), uintBitsToFloat(params[kParamLumaG]),
                              uintBitsToFloat(params[kParamLumaB]));
    const uint local = gl_LocalInvocationIndex;
#if APPLY
    gCurve = loadCurve();
    gCdPerUnit = uintBitsToFloat(params[kParamCdPerUnit]);
#endif
    const uint copy = ((local >> 5u) % uint(REPLICAS)) * kStride;

    for (uint i = local; i < REPLICAS * kStride; i += kGroupSize)
        sHistogram[i] = 0u;
#if LOCAL_EXPOSURE_GRID
    leGridBegin(local, logMin, logMax);
#endif
#if FOVEAL_KEYS
    if (local < 2u)
        sKeys[local] = 0u;
#endif
    barrier();

#if FOVEAL == 1
    const uint blockCount = uint(uFovealGrid.x * uFovealGrid.y);
    for (uint block = gl_WorkGroupID.x; block < blockCount; block += gl_NumWorkGroups.x) {
        const ivec2 cell = ivec2(int(block % uint(uFovealGrid.x)), int(block / uint(uFovealGrid.x)));
        // Integer block bounds (sizes below 2^15, so the products fit in int).
        const ivec2 lo = cell * uSize / uFovealGrid;
        const ivec2 hi = (cell + 1) * uSize / uFovealGrid;
        vec4 sum = vec4(0.0);
        for (int y = lo.y + int(gl_LocalInvocationID.y); y < hi.y; y += 8 * PIXELS) {
            for (int x = lo.x + int(gl_LocalInvocationID.x); x < hi.x; x += 32) {
                vec3 texel[PIXELS];
                for (int k = 0; k < PIXELS; ++k)
                    texel[k] = y + 8 * k < hi.y ? texelFetch(uInput, ivec2(x, y + 8 * k), 0).rgb : vec3(0.0);
                for (int k = 0; k < PIXELS; ++k) {
                    int code = kNoPixel;
                    if (y + 8 * k < hi.y) {
                        const vec3 rgb = texel[k];
                        if (!(any(isnan(rgb)) || any(isinf(rgb))))
                            sum += vec4(rgb, 1.0);
                        code = binOf(hdLuminanceWeighted(rgb.r, rgb.g, rgb.b, weights.x, weights.y, weights.z),
                                     logMin, logMax, scale, binCount, policy, margin);
                    }
                    addPixel(copy, code);
                }
            }
        }
        sFovealSum[local] = sum;
        barrier();
        for (uint stride = kGroupSize / 2u; stride > 0u; stride >>= 1u) {
            if (local < stride)
                sFovealSum[local] += sFovealSum[local + stride];
            barrier();
        }
        if (local == 0u)
            storeFovealMean(cell, sFovealSum[0]);
        barrier(); // sFovealSum is reused by the next block
    }
#elif FOVEAL == 2
    const uint blockCount = uint(uFovealGrid.x * uFovealGrid.y);
    const uint lane = gl_LocalInvocationID.x;
    const uint row = gl_LocalInvocationID.y; // this row's block: the first of the 8 plus row
    for (uint first = gl_WorkGroupID.x * 8u; first < blockCount; first += gl_NumWorkGroups.x * 8u) {
        const uint block = first + row;
        vec4 sum = vec4(0.0);
        ivec2 cell = ivec2(0);
        if (block < blockCount) {
            cell = ivec2(int(block % uint(uFovealGrid.x)), int(block / uint(uFovealGrid.x)));
            const ivec2 lo = cell * uSize / uFovealGrid;
            const ivec2 extent = (cell + 1) * uSize / uFovealGrid - lo;
            const uint width = uint(extent.x);
            const uint pixels = width * uint(extent.y);
            const float inverseWidth = 1.0 / float(width);
            for (uint index = lane; index < pixels; index += 32u * PIXELS) {
                vec3 texel[PIXELS];
                ivec2 at[PIXELS];
                for (uint k = 0u; k < PIXELS; ++k) {
                    const uint p = index + 32u * k;
                    // p / width by a float reciprocal (no integer division per pixel), corrected to the exact quotient.
                    uint y = uint(float(p) * inverseWidth);
                    y = y * width > p ? y - 1u : ((y + 1u) * width <= p ? y + 1u : y);
                    at[k] = lo + ivec2(int(p - y * width), int(y));
                    texel[k] = p < pixels ? texelFetch(uInput, at[k], 0).rgb : vec3(0.0);
                }
                for (uint k = 0u; k < PIXELS; ++k) {
                    int code = kNoPixel;
                    if (index + 32u * k < pixels) {
                        const vec3 rgb = texel[k];
#if APPLY
                        applyPixel(uvec2(at[k]), rgb, weights);
#endif
                        if (!(any(isnan(rgb)) || any(isinf(rgb))))
                            sum += vec4(rgb, 1.0);
                        code = binOf(hdLuminanceWeighted(rgb.r, rgb.g, rgb.b, weights.x, weights.y, weights.z),
                                     logMin, logMax, scale, binCount, policy, margin);
                    }
                    addPixel(copy, code);
                }
            }
        }
        sFovealSum[local] = sum;
        barrier();
        for (uint stride = 16u; stride > 0u; stride >>= 1u) {
            if (lane < stride)
                sFovealSum[local] += sFovealSum[local + stride];
            barrier();
        }
        if (lane == 0u && block < blockCount)
            storeFovealMean(cell, sFovealSum[local]);
        barrier(); // sFovealSum is reused by the next blocks
    }
#else
    const uvec2 size = uvec2(uSize);
    const uint tilesX = (size.x + kTile.x - 1u) / kTile.x;
    const uint tileCount = tilesX * ((size.y + kTile.y - 1u) / kTile.y);
#if WORK == 1 || WORK == 4
    float readSum = 0.0;
#elif WORK == 3
    int codeSum = 0;
#endif
#if TILES
    const uint blockEnd = (gl_WorkGroupID.x + 1u) * uTileBlockCount / gl_NumWorkGroups.x;
    TileWalk walk = tileWalkStart(gl_WorkGroupID.x * uTileBlockCount / gl_NumWorkGroups.x);
    for (uint block = gl_WorkGroupID.x * uTileBlockCount / gl_NumWorkGroups.x; block < blockEnd; ++block) {
        const uvec2 origin = tileWalkNext(walk, binCount); // flushes the bins where it enters the next tile
        const uvec2 bounds = walk.hi;
#else
    for (uint tile = WORK == 2 ? tileCount : gl_WorkGroupID.x; tile < tileCount; tile += gl_NumWorkGroups.x) {
        const uvec2 origin = uvec2(tile % tilesX, tile / tilesX) * kTile;
        const uvec2 bounds = size;
#endif
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
            texel[k] = all(lessThan(pixel, bounds)) ? frameTexel(pixel) : vec3(0.0);
        }
#if WORK == 1
        for (uint k = 0u; k < PIXELS; ++k)
            readSum += texel[k].r + texel[k].g + texel[k].b;
        continue;
#elif WORK == 4
        for (uint k = 0u; k < PIXELS; ++k)
            readSum += hdLuminanceWeighted(texel[k].r, texel[k].g, texel[k].b, weights.x, weights.y, weights.z);
        continue;
#endif
        for (uint k = 0u; k < PIXELS; ++k) {
            const uvec2 pixel = first + k * step;
            const int code = all(lessThan(pixel, bounds))
                                 ? binOf(hdLuminanceWeighted(texel[k].r, texel[k].g, texel[k].b, weights.x, weights.y,
                                                             weights.z),
                                         logMin, logMax, scale, binCount, policy, margin)
                                 : kNoPixel;
#if WORK == 3
            codeSum += code;
            continue;
#endif
#if LOCAL_EXPOSURE_GRID
            if (code != kNoPixel)
                leGridAdd(hdLuminanceWeighted(texel[k].r, texel[k].g, texel[k].b, weights.x, weights.y, weights.z),
                          logMin);
#endif
#if APPLY
            if (code != kNoPixel)
                applyPixel(pixel, texel[k], weights);
#endif
#if SUBGROUP_VOTE
            // Uniform control flow here: the whole subgroup votes. Full subgroups only (the
            // workgroup is a multiple of every NVIDIA/AMD/Intel subgroup size).
            if (subgroupAllEqual(code)) {
                if (subgroupElect())
                    addRun(copy, code, gl_SubgroupSize);
                continue;
            }
#endif
            addPixel(copy, code);
        }
#if LOCAL_EXPOSURE_GRID
        leGridFlush(local, origin, size);
#endif
    }
#if WORK == 1 || WORK == 4
    if (readSum == -1234.5) // never true for a frame of the bench; keeps the reads alive
        atomicAdd(sHistogram[0], 1u);
#elif WORK == 3
    if (codeSum == -123456789) // as above: keeps the binning alive
        atomicAdd(sHistogram[0], 1u);
#endif
#endif
    addRun(copy, gRunCode, gRunLength);
#if FOVEAL_KEYS
    if (gKeys.x != 0u) { // a finite mean stored: both keys set
        atomicMax(sKeys[0], gKeys.x);
        atomicMax(sKeys[1], gKeys.y);
    }
#endif
    barrier();
#if FOVEAL_KEYS
    if (local == 0u && sKeys[0] != 0u) {
        atomicMax(uRangeKeys[0], sKeys[0]);
        atomicMax(uRangeKeys[1], sKeys[1]);
    }
#endif

    for (uint slot = local; slot < BIN_CAPACITY + kCounterCount; slot += kGroupSize) {
        const bool isBin = slot < binCount;
        const bool isCounter = slot >= BIN_CAPACITY;
        if (!isBin && !isCounter)
            continue;
        uint count = 0u;
        for (uint r = 0u; r < uint(REPLICAS); ++r)
            count += sHistogram[r * kStride + slot];
        if (count != 0u) {
            const uint word = isBin ? slot : kHistogramCountersOffset + (slot - BIN_CAPACITY);
#if TILES
            if (isBin)
                tileFinalBin(walk, slot, binCount, count);
#endif
#if SELF_CLEAR
            atomicAdd(accumulated[word], count);
#else
            atomicAdd(histogram[word], count);
#endif
        }
    }
#if SELF_CLEAR
    // The last workgroup to finish publishes the sums and leaves the accumulator zero for the next
    // dispatch: every group's additions are done before it takes its ticket (barrier, memory barrier).
    memoryBarrierBuffer();
    barrier();
    if (local == 0u)
        sTicket = atomicAdd(accumulated[kHistogramBufferWords], 1u);
    barrier();
    if (sTicket == gl_NumWorkGroups.x - 1u) { // uniform in the workgroup (shared): barriers allowed
        for (uint word = local; word < kHistogramBufferWords; word += kGroupSize) {
            const uint count =
                word < binCount || word >= kHistogramCountersOffset ? atomicExchange(accumulated[word], 0u) : 0u;
            histogram[word] = count;
#if CURVE_KERNEL
            if (word < binCount)
                sHistogram[word] = count; // the bins are published: the shared copy becomes the CDF
#endif
        }
        if (local == 0u)
            atomicExchange(accumulated[kHistogramBufferWords], 0u);
#if CURVE_KERNEL
        memoryBarrierShared();
        barrier();
#if CURVE_GATE
#if CURVE_KERNEL == 1
        gWriteSamples = uCurveGate != 3u;
#endif
        if (uCurveGate != 0u)
            buildCurveInLastGroup(local, binCount, uCurveGate != 2u);
#else
        buildCurveInLastGroup(local, binCount, true);
#endif
#endif
    }
#endif
}
