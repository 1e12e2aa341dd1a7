// PixelProbe.comp: reads up to kMaxProbes texels of the frame and writes one record each
// (hd::kProbe* layout): scene-linear RGB (in the input's units: a pre-exposed frame's texel times
// kParamStoredScale = 2^-k, exact), luminance in cd/m^2 (hdLuminanceWeighted with the params'
// weights, which include 2^-k), log2 L (hdLog2), the histogram bin
// (hdBinOf with the histogram's own params, so exactly the bin the histogram counted the pixel in
// at full resolution), the display luminance through the tone curve (CurveLookup.glsl, the apply
// pass's arithmetic, without local adaptation), the tone-mapped output's bytes and the false-colour
// band; with a local operator's tile curves bound (uTiles), the pixel's four tile curves at its L, their
// blend and the global curve's value (TileCurveLookup.glsl, the tiled apply's arithmetic). One invocation per probe: a few hundred loads, nothing to optimise.
#include "shared/HostDevice.h"
#include "shared/LocalTiles.h"

layout(local_size_x = 8) in; // == kMaxProbes

layout(binding = kTextureUnitInput) uniform sampler2D uInput;
layout(binding = kTextureUnitAux) uniform sampler2D uShown; // the tone-mapped output (RGBA8)
layout(std430, binding = kBindingHistogramParams) readonly buffer Params { uint params[]; };
layout(std430, binding = kBindingCurve) readonly buffer CurveBuffer { float curve[]; };
layout(std430, binding = kBindingScratch0) writeonly buffer Records { uint records[]; };
layout(location = 0) uniform ivec2 uSize;
layout(location = 1) uniform int uCount;
layout(location = 2) uniform ivec2 uTexels[kMaxProbes];
layout(location = 10) uniform int uTiles; // 1: tileCurves is bound (the tiled apply's buffer)
layout(std430, binding = kBindingLocalAdaptation) readonly buffer TileCurves { float tileCurves[]; };

#include "tonemap/CurveLookup.glsl"
#include "tonemap/TileCurveLookup.glsl"

float displayOf(float Lw, vec3 rgb)
{
    Curve c = loadCurve();
    if (int(curve[kCurveChannels]) == 3 && !c.linearScale) {
        float cdPerUnit = uintBitsToFloat(params[kParamCdPerUnit]);
        vec3 display = vec3(0.0);
        for (uint ch = 0u; ch < 3u; ++ch)
            display[ch] = (!isnan(rgb[ch]) && rgb[ch] > 0.0) ? evaluateCurve(c, ch, rgb[ch] * cdPerUnit) : 0.0;
        return hdLuminance(display.r, display.g, display.b); // display-referred: Rec. 709, as the display histogram
    }
    return (!isnan(Lw) && Lw > 0.0) ? evaluateCurve(c, 0u, Lw) : 0.0;
}

void main()
{
    int index = int(gl_LocalInvocationID.x);
    if (index >= uCount)
        return;
    ivec2 texel = uTexels[index];
    uint base = uint(index) * kProbeRecordWords;
    bool inside = all(greaterThanEqual(texel, ivec2(0))) && all(lessThan(texel, uSize));
    float logMin = uintBitsToFloat(params[kParamLogMin]);
    float logMax = uintBitsToFloat(params[kParamLogMax]);
    uint binCount = params[kParamBinCount];
    vec3 rgb = inside ? texelFetch(uInput, texel, 0).rgb : vec3(0.0);
    float L = hdLuminanceWeighted(rgb.r, rgb.g, rgb.b, uintBitsToFloat(params[kParamLumaR]),
                                  uintBitsToFloat(params[kParamLumaG]), uintBitsToFloat(params[kParamLumaB]));
    bool logValid = inside && !isnan(L) && !isinf(L) && L >= kMinLuminance;
    int band = hdFalseColourBand(L, logMin, logMax);

    records[base + kProbeX] = uint(texel.x);
    records[base + kProbeY] = uint(texel.y);
    bool tiles = inside && uTiles != 0;
    records[base + kProbeFlags] =
        (inside ? kProbeInside : 0u) | (logValid ? kProbeLogValid : 0u) | (tiles ? kProbeTiles : 0u);
    vec4 tileValues = vec4(0.0);
    float tileLocal = 0.0;
    float tileGlobal = 0.0;
    bool usable = !isnan(L) && L > 0.0; // the tiled apply's isUsable
    if (tiles && usable) {
        int tilesX = int(tileCurves[kTileTilesX]);
        int tilesY = int(tileCurves[kTileTilesY]);
        float fx = hdTileBlendPosition(texel.x, 1.0 / tileCurves[kTileWidth]);
        float fy = hdTileBlendPosition(texel.y, 1.0 / tileCurves[kTileHeight]);
        int x1 = hdTileBlendFirst(fx);
        int x2 = hdTileBlendSecond(fx, tilesX);
        int y1 = hdTileBlendFirst(fy);
        int y2 = hdTileBlendSecond(fy, tilesY);
        tileValues = vec4(evaluateTileCurve(hdTileCurveBase(uint(y1 * tilesX + x1)), L),
                          evaluateTileCurve(hdTileCurveBase(uint(y1 * tilesX + x2)), L),
                          evaluateTileCurve(hdTileCurveBase(uint(y2 * tilesX + x1)), L),
                          evaluateTileCurve(hdTileCurveBase(uint(y2 * tilesX + x2)), L));
        tileLocal = tiledLocalValue(texel, L);
        tileGlobal = tiledDisplayClamp(evaluateCurve(loadCurve(), 0u, L));
    }
    for (uint i = 0u; i < 4u; ++i)
        records[base + kProbeTileValue + i] = floatBitsToUint(tileValues[i]);
    records[base + kProbeTileLocal] = floatBitsToUint(tileLocal);
    records[base + kProbeTileGlobal] = floatBitsToUint(tileGlobal);
    vec3 unexposed = rgb * uintBitsToFloat(params[kParamStoredScale]);
    records[base + kProbeRed] = floatBitsToUint(unexposed.r);
    records[base + kProbeGreen] = floatBitsToUint(unexposed.g);
    records[base + kProbeBlue] = floatBitsToUint(unexposed.b);
    records[base + kProbeLuminance] = floatBitsToUint(L);
    records[base + kProbeLog2] = floatBitsToUint(logValid ? hdLog2(L) : 0.0);
    records[base + kProbeBin] = uint(hdBinOf(L, logMin, logMax, binCount, params[kParamOutOfRange]));
    records[base + kProbeDisplay] = floatBitsToUint(inside ? displayOf(L, rgb) : 0.0);
    records[base + kProbeShown] = inside ? packUnorm4x8(texelFetch(uShown, texel, 0)) : 0u;
    records[base + kProbeLogMin] = params[kParamLogMin];
    records[base + kProbeLogMax] = params[kParamLogMax];
    records[base + kProbeBinCount] = binCount;
    records[base + kProbeBand] = uint(band);
    records[base + kProbeFalseColour] = hdFalseColourOfBand(band, hdFalseColourBandCount(logMin, logMax));
    records[base + kProbeWidth] = uint(uSize.x);
    records[base + kProbeHeight] = uint(uSize.y);
}
