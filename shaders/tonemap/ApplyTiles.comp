// ApplyTiles.comp: the tiled apply of the local histogram tone operators (clahe, ward-local;
// shared/LocalTiles.h): the modes kApplyTiles, kApplyTilesGrid and kApplyViewLocalGain of Apply.comp,
// the same arithmetic per value (TileCurveLookup.glsl's lookup and clamp, OpenCV's blend geometry,
// hdTileLerp), in a program of its own and arranged for the GPU:
//  - the tiles a workgroup's pixels blend are few: the blend is monotone in x and y, so the 32 x 8*ROWS
//    pixels of a workgroup use only the tiles between the first tile of its first pixel and the second
//    tile of its last, per axis: 2 where the workgroup lies between two tile-centre lines, 3 where it
//    straddles one (tiles of at least 32 x 8*ROWS pixels; 1 at the frame's edges). Each workgroup stages
//    those tiles' headers (mode, scale, samples, log2 range as samples per EV) and, with STAGE_LUTS,
//    their LUTs (at most STAGE_FLOATS samples in all) into shared memory once, and every lookup of
//    every pixel is then a shared-memory read (ApplyTiles before this read the LUTs from the storage
//    buffer at per-pixel, per-tile addresses: 52 us more than one tile's lookups at 4K on the H200).
//    Where the span is more than 3 x 3 tiles (tiles narrower than the workgroup) or the LUTs do not fit,
//    the workgroup reads the storage buffer as before (a uniform branch): the same floats either way,
//    so the picture is bit for bit the same (test LocalChainGl.StagedTiledApplyIsBitExact...);
//  - the texels are fetched before the staging, so the reads are in flight while it runs;
//  - log2 Lw once per pixel (not once per tile); the column's blend (tiles, weight) once per invocation
//    (its ROWS pixels share x), the row's per pixel;
//  - strength 1 (the default) needs no global curve: hdTileLerp(global, local, 1) is local.
// Experiments (TILE_APPLY_VARIANT, HDRLAB_LOCAL_TILES apply=..., post/tonemap/LocalTileSwitches.h;
// wrong pictures on purpose): 1 the first tile's curve alone (one lookup, no blend), 2 the tiles and
// weights computed but the global curve looked up and "blended" with itself (the cost of the blend
// geometry without the tile LUTs). 0 is the method. STAGE_LUTS 0 (apply=unstaged): headers staged,
// LUTs read from the storage buffer (the build before the staging; a correct picture).
// Limits: SDR only, the luminance path (no RGB display transform), as Apply.comp's tiled modes.
#include "shared/HostDevice.h"
#include "shared/LocalTiles.h"

#ifndef ROWS
#define ROWS 4
#endif
#ifndef TILE_APPLY_VARIANT
#define TILE_APPLY_VARIANT 0
#endif
#ifndef STAGE_LUTS
#define STAGE_LUTS 1
#endif
#ifndef STAGE_FLOATS
#define STAGE_FLOATS 4608 // 18 KB: 4 tiles of 1152 samples, 9 of 512
#endif
const uint kMaxStagedTiles = 9u; // 3 x 3: a workgroup straddling a tile-centre line on both axes

layout(local_size_x = 32, local_size_y = 8) in;

layout(binding = kTextureUnitInput) uniform sampler2D uInput;
layout(binding = kImageUnitOutput, rgba8) writeonly uniform image2D uOutput;
layout(std430, binding = kBindingCurve) readonly buffer CurveBuffer { float curve[]; };
layout(std430, binding = kBindingLocalAdaptation) readonly buffer TileCurves { float tileCurves[]; };
layout(std430, binding = kBindingHistogramParams) readonly buffer Params { uint params[]; };
layout(location = 0) uniform ivec2 uSize;
layout(location = 1) uniform uint uMode; // kApplyTiles, kApplyViewLocalGain, kApplyTilesGrid
const uint uTransform = 0u;

#include "tonemap/CurveLookup.glsl"
#include "tonemap/DisplayTransform.glsl"
#include "tonemap/ApplyPixel.glsl"
#include "tonemap/TileCurveLookup.glsl"

// The workgroup's tiles (span columns lo.x..lo.x+n.x-1, rows alike), local index k = row * n.x + column:
// header (log2 range start, samples per EV, sample count (0: LinearScale), scale) and LUT offset in sLut.
shared vec4 sHeader[kMaxStagedTiles];
shared uint sOffset[kMaxStagedTiles];
shared uint sStagedFloats;
shared float sLut[STAGE_FLOATS];

vec4 loadTileHeader(uint tile)
{
    uint base = hdTileCurveBase(tile);
    if (tileCurves[base + kCurveMode] == kCurveModeLinearScale)
        return vec4(0.0, 0.0, 0.0, tileCurves[base + kCurveScale]);
    // As evaluateTileCurve computes them.
    int samples = clamp(int(tileCurves[base + kCurveSampleCount]), 1, int(kMaxCurveSamples));
    float logMin = tileCurves[base + kCurveLogMin];
    float logMax = tileCurves[base + kCurveLogMax];
    float span = logMax > logMin ? logMax - logMin : 1.0;
    return vec4(logMin, float(samples) / span, float(samples), 0.0);
}

uint tileSamples(uint tile)
{
    uint base = hdTileCurveBase(tile);
    return tileCurves[base + kCurveMode] == kCurveModeLinearScale
               ? 0u
               : uint(clamp(int(tileCurves[base + kCurveSampleCount]), 1, int(kMaxCurveSamples)));
}

// The workgroup's span of tiles and where their data are (workgroup-uniform).
struct Span
{
    ivec2 lo;
    ivec2 n;
    int tilesX;
    bool headers; // sHeader holds the span's headers (at most kMaxStagedTiles tiles)
    bool luts;    // sLut holds their LUTs
};

// Tile (column tx, row ty) of the span: its value at Lw, the LUT from shared memory where `staged` (a
// literal at each call of localValue, so each inlined copy reads one memory only: no load of the
// other kind issued on speculation).
float tileValue(const bool staged, Span span, int tx, int ty, float Lw, float logL)
{
    const uint tile = uint(ty * span.tilesX + tx);
    const uint k = uint((ty - span.lo.y) * span.n.x + (tx - span.lo.x));
    const vec4 h = span.headers ? sHeader[k] : loadTileHeader(tile);
    if (h.z == 0.0)
        return tiledDisplayClamp(h.w * Lw);
    const int samples = int(h.z);
    const uint lut = hdTileCurveBase(tile) + kCurveHeaderWords;
    const uint offset = staged ? sOffset[k] : 0u;
#define TILE_LUT(i) (staged ? sLut[offset + uint(i)] : tileCurves[lut + uint(i)])
    if (isinf(Lw))
        return tiledDisplayClamp(TILE_LUT(samples - 1));
    float position = (logL - h.x) * h.y - 0.5;
    if (position < 0.0)
        return tiledDisplayClamp(TILE_LUT(0) * exp2(position / h.y));
    position = min(position, float(samples - 1));
    int below = int(floor(position));
    int above = min(below + 1, samples - 1);
    return tiledDisplayClamp(mix(TILE_LUT(below), TILE_LUT(above), position - float(below)));
#undef TILE_LUT
}

// One axis of the blend: the two tiles and the second's weight.
struct Axis
{
    int first;
    int second;
    float weight;
};

Axis blendAxis(int x, float invSize, int tiles)
{
    float f = hdTileBlendPosition(x, invSize);
    return Axis(hdTileBlendFirst(f), hdTileBlendSecond(f, tiles), hdTileBlendWeight(f));
}

// The four tiles' values at Lw blended (tiledLocalValue's order and shortcuts).
float localValue(const bool staged, Span span, Axis ax, Axis ay, float Lw, float logL, float global)
{
#if TILE_APPLY_VARIANT == 1
    return tileValue(staged, span, ax.first, ay.first, Lw, logL);
#elif TILE_APPLY_VARIANT == 2
    float v11 = global, v21 = global, v12 = global, v22 = global;
#else
    float v11 = tileValue(staged, span, ax.first, ay.first, Lw, logL);
    float v21 = ax.second == ax.first ? v11 : tileValue(staged, span, ax.second, ay.first, Lw, logL);
    float v12 = ay.second == ay.first ? v11 : tileValue(staged, span, ax.first, ay.second, Lw, logL);
    float v22 = ay.second == ay.first ? v21 : tileValue(staged, span, ax.second, ay.second, Lw, logL);
#endif
#if TILE_APPLY_VARIANT != 1
    return hdTileLerp(hdTileLerp(v11, v21, ax.weight), hdTileLerp(v12, v22, ax.weight), ay.weight);
#endif
}

// The tiles the pixels [lo, hi] of one axis blend: the first tile of lo to the second of hi (the blend
// position, its floor and so both tiles are non-decreasing in the pixel coordinate).
ivec2 axisSpan(int lo, int hi, float invSize, int tiles)
{
    const float a = hdTileBlendPosition(lo, invSize);
    const float b = hdTileBlendPosition(hi, invSize);
    const int first = min(hdTileBlendFirst(a), hdTileBlendSecond(a, tiles));
    const int last = max(hdTileBlendFirst(b), hdTileBlendSecond(b, tiles));
    return ivec2(first, last - first + 1);
}

// Stages the span's headers and LUTs (where they fit) into shared memory; workgroup-uniform control flow.
Span stageSpan(int tilesX, int tilesY)
{
    const ivec2 groupLo = ivec2(gl_WorkGroupID.xy) * ivec2(32, 8 * ROWS);
    const ivec2 groupHi = min(groupLo + ivec2(32, 8 * ROWS), uSize) - 1;
    const ivec2 sx = axisSpan(groupLo.x, groupHi.x, 1.0 / tileCurves[kTileWidth], tilesX);
    const ivec2 sy = axisSpan(groupLo.y, groupHi.y, 1.0 / tileCurves[kTileHeight], tilesY);
    Span span = Span(ivec2(sx.x, sy.x), ivec2(sx.y, sy.y), tilesX, false, false);
    const uint count = uint(span.n.x * span.n.y);
    span.headers = count <= kMaxStagedTiles;
    if (!span.headers)
        return span;
    const uint k = gl_LocalInvocationIndex;
    if (k < count) {
        const uint tile = uint((span.lo.y + int(k) / span.n.x) * tilesX + span.lo.x + int(k) % span.n.x);
        sHeader[k] = loadTileHeader(tile);
        // Its LUT's offset: the samples of the span's tiles before it (at most 8 header reads).
        uint offset = 0u;
        for (uint j = 0u; j < k; ++j)
            offset += tileSamples(uint((span.lo.y + int(j) / span.n.x) * tilesX + span.lo.x + int(j) % span.n.x));
        sOffset[k] = offset;
        if (k == count - 1u)
            sStagedFloats = offset + tileSamples(tile);
    }
    barrier();
#if STAGE_LUTS
    span.luts = sStagedFloats <= uint(STAGE_FLOATS);
    if (span.luts) {
        for (uint j = 0u; j < count; ++j) {
            const uint samples = uint(sHeader[j].z);
            const uint tile = uint((span.lo.y + int(j) / span.n.x) * tilesX + span.lo.x + int(j) % span.n.x);
            const uint lut = hdTileCurveBase(tile) + kCurveHeaderWords;
            for (uint i = gl_LocalInvocationIndex; i < samples; i += 256u)
                sLut[sOffset[j] + i] = tileCurves[lut + i];
        }
        barrier();
    }
#endif
    return span;
}

void main()
{
    const int tilesX = int(tileCurves[kTileTilesX]);
    const int tilesY = int(tileCurves[kTileTilesY]);
    const ivec2 first = ivec2(gl_WorkGroupID.x * 32u + gl_LocalInvocationID.x,
                              gl_WorkGroupID.y * (8u * ROWS) + gl_LocalInvocationID.y);
    // The texels first: their reads are in flight while the tiles are staged.
    vec3 rgb[ROWS];
    for (int k = 0; k < ROWS; ++k) {
        const ivec2 texel = first + ivec2(0, 8 * k);
        rgb[k] = all(lessThan(texel, uSize)) ? texelFetch(uInput, texel, 0).rgb : vec3(0.0);
    }
    const Span span = stageSpan(tilesX, tilesY);
    if (first.x >= uSize.x || first.y >= uSize.y)
        return; // after the staging's barriers
    const Curve c = loadCurve();
    const vec3 weights = vec3(uintBitsToFloat(params[kParamLumaR]), uintBitsToFloat(params[kParamLumaG]),
                              uintBitsToFloat(params[kParamLumaB]));
    const float cdPerUnit = uintBitsToFloat(params[kParamCdPerUnit]);
    const float strength = tileCurves[kTileStrength];
    const ivec2 tileSize = ivec2(tileCurves[kTileWidth], tileCurves[kTileHeight]);
    const float invHeight = 1.0 / tileCurves[kTileHeight];
    const Axis ax = blendAxis(first.x, 1.0 / tileCurves[kTileWidth], tilesX);
    // The global curve: for a strength below 1, the local-gain view and the experiment of variant 2.
    const bool needGlobal = strength != 1.0 || uMode == kApplyViewLocalGain || TILE_APPLY_VARIANT == 2;
    for (int k = 0; k < ROWS; ++k) {
        const ivec2 texel = first + ivec2(0, 8 * k);
        if (texel.y >= uSize.y)
            break;
        float Lw = hdLuminanceWeighted(rgb[k].r, rgb[k].g, rgb[k].b, weights.x, weights.y, weights.z);
        vec3 display = vec3(0.0);
        if (isUsable(Lw)) {
            float logL = log2(Lw);
            float global = needGlobal ? tiledDisplayClamp(evaluateCurve(c, 0u, Lw)) : 0.0;
            const Axis ay = blendAxis(texel.y, invHeight, tilesY);
            float local = span.luts ? localValue(true, span, ax, ay, Lw, logL, global)
                                    : localValue(false, span, ax, ay, Lw, logL, global);
            if (uMode == kApplyViewLocalGain) {
                float range = max(tileCurves[kTileGainLogRange], 1e-3);
                float gain = log2(max(local, 1e-30) / max(global, 1e-30));
                float grey = clamp(0.5 + 0.5 * gain / range, 0.0, 1.0);
                imageStore(uOutput, texel, vec4(vec3(encodeSrgb(grey)), 1.0));
                continue;
            }
            float Ld = strength == 1.0 ? local : hdTileLerp(global, local, strength);
            display = isinf(Lw) ? vec3(Ld) : rgb[k] * (Ld * cdPerUnit / Lw);
        }
        if (uMode == kApplyTilesGrid) {
            // The tile grid's edges (the first texel row and column of every tile but the first), yellow.
            ivec2 within = texel % max(tileSize, ivec2(1));
            if ((within.x == 0 && texel.x > 0) || (within.y == 0 && texel.y > 0))
                display = vec3(1.0, 0.85, 0.0);
        }
        imageStore(uOutput, texel, vec4(encodeSrgb(display.r), encodeSrgb(display.g), encodeSrgb(display.b), 1.0));
    }
}
