// ApplyTiles.comp: the tiled apply of the local histogram tone operators (clahe, ward-local;
// shared/LocalTiles.h): the modes kApplyTiles, kApplyTilesGrid and kApplyViewLocalGain of Apply.comp,
// the same arithmetic per value (TileCurveLookup.glsl's lookup and clamp, OpenCV's blend geometry,
// hdTileLerp), in a program of its own and arranged for the GPU:
//  - each workgroup copies every tile's curve header into shared memory once (mode, scale, samples,
//    log2 range as samples per EV): Apply.comp read 4 to 5 header words of each of the pixel's four
//    tiles from the storage buffer per pixel (16 dependent loads at per-pixel tile addresses, and a
//    division per tile), ahead of the two LUT loads each tile needs;
//  - log2 Lw once per pixel (not once per tile); the column's blend (tiles, weight) once per invocation
//    (its ROWS pixels share x), the row's per pixel;
//  - strength 1 (the default) needs no global curve: hdTileLerp(global, local, 1) is local.
// Experiments (TILE_APPLY_VARIANT, HDRLAB_LOCAL_TILES apply=..., post/tonemap/LocalTileSwitches.h;
// wrong pictures on purpose): 1 the first tile's curve alone (one lookup, no blend), 2 the tiles and
// weights computed but the global curve looked up and "blended" with itself (the cost of the blend
// geometry without the tile LUTs). 0 is the method.
// Limits: SDR only, the luminance path (no RGB display transform), as Apply.comp's tiled modes.
#include "shared/HostDevice.h"
#include "shared/LocalTiles.h"

#ifndef ROWS
#define ROWS 4
#endif
#ifndef TILE_APPLY_VARIANT
#define TILE_APPLY_VARIANT 0
#endif

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

// Per tile: log2 range start, samples per EV, sample count (0: LinearScale), scale.
shared vec4 sTileHeader[kMaxTilesPerAxis * kMaxTilesPerAxis];

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

// evaluateTileCurve (TileCurveLookup.glsl) with the header from shared memory and log2 Lw given.
float tileValue(uint tile, float Lw, float logL)
{
    vec4 h = sTileHeader[tile];
    if (h.z == 0.0)
        return tiledDisplayClamp(h.w * Lw);
    int samples = int(h.z);
    uint lut = hdTileCurveBase(tile) + kCurveHeaderWords;
    if (isinf(Lw))
        return tiledDisplayClamp(tileCurves[lut + uint(samples - 1)]);
    float position = (logL - h.x) * h.y - 0.5;
    if (position < 0.0)
        return tiledDisplayClamp(tileCurves[lut] * exp2(position / h.y));
    position = min(position, float(samples - 1));
    int below = int(floor(position));
    int above = min(below + 1, samples - 1);
    return tiledDisplayClamp(mix(tileCurves[lut + uint(below)], tileCurves[lut + uint(above)], position - float(below)));
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
float localValue(Axis ax, Axis ay, int tilesX, float Lw, float logL, float global)
{
#if TILE_APPLY_VARIANT == 1
    return tileValue(uint(ay.first * tilesX + ax.first), Lw, logL);
#elif TILE_APPLY_VARIANT == 2
    float v11 = global, v21 = global, v12 = global, v22 = global;
#else
    float v11 = tileValue(uint(ay.first * tilesX + ax.first), Lw, logL);
    float v21 = ax.second == ax.first ? v11 : tileValue(uint(ay.first * tilesX + ax.second), Lw, logL);
    float v12 = ay.second == ay.first ? v11 : tileValue(uint(ay.second * tilesX + ax.first), Lw, logL);
    float v22 = ay.second == ay.first ? v21 : tileValue(uint(ay.second * tilesX + ax.second), Lw, logL);
#endif
#if TILE_APPLY_VARIANT != 1
    return hdTileLerp(hdTileLerp(v11, v21, ax.weight), hdTileLerp(v12, v22, ax.weight), ay.weight);
#endif
}

void main()
{
    const int tilesX = int(tileCurves[kTileTilesX]);
    const int tilesY = int(tileCurves[kTileTilesY]);
    for (uint t = gl_LocalInvocationIndex; t < uint(tilesX * tilesY); t += 256u)
        sTileHeader[t] = loadTileHeader(t);
    barrier(); // before any early return: every invocation reaches it

    const ivec2 first = ivec2(gl_WorkGroupID.x * 32u + gl_LocalInvocationID.x,
                              gl_WorkGroupID.y * (8u * ROWS) + gl_LocalInvocationID.y);
    if (first.x >= uSize.x || first.y >= uSize.y)
        return;
    vec3 rgb[ROWS];
    for (int k = 0; k < ROWS; ++k) {
        const ivec2 texel = first + ivec2(0, 8 * k);
        rgb[k] = texel.y < uSize.y ? texelFetch(uInput, texel, 0).rgb : vec3(0.0);
    }
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
            float local = localValue(ax, blendAxis(texel.y, invHeight, tilesY), tilesX, Lw, logL, global);
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
