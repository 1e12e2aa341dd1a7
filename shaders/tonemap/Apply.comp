// The tone-curve apply pass shared by every operator: maps each pixel's world luminance Lw through
// the curve buffer (hd::kCurve*: a LUT over log2 Lw, linear interpolation, linear in Lw below the
// first sample (constant Ld/Lw) and clamped above the last; or Ld = scale * Lw), scales RGB by
// Ld/Lw (keeps chromaticity), clamps to [0, 1] and encodes sRGB (IEC 61966-2-1) into an RGBA8
// UNORM image, so a readback gives the PNG bytes. Lw is in cd/m^2 under the params' luminance
// weights (hd::kParamLuma*); the colour ratio is Ld / (Lw / hd::kParamCdPerUnit), Lw in the input's
// units, so the displayed luminance is Ld whatever the units. Per-channel curves (3 channels) map R, G and B each through their own
// LUT, at the channel times hd::kParamCdPerUnit (the units their histograms were binned in). NaN, Inf and non-positive input never give NaN output: Lw NaN or
// <= 0 is black, Lw = +Inf shows the curve's top value as grey. Mode kApplyLocal looks the curve up
// at Lw * 2^(blend * (reference - localMean)) with the per-pixel local mean log2 L (hd::kCurveLocal*);
// kApplyViewLocalMean shows that local mean as grey over the histogram range. The local histogram
// operators (clahe, ward-local; shared/LocalTiles.h): kApplyTiles blends the pixel's four tile
// curves bilinearly (tonemap/TileCurveLookup.glsl) and that toward the global curve (the curve
// buffer) by the tile buffer's strength, Ld = global + s (local - global), then RGB x Ld / Lw;
// kApplyViewLocalGain shows log2(local / global) as grey (mid-grey 0, white +range EV, black -range);
// kApplyTilesGrid is kApplyTiles with the tile grid's edges drawn in yellow.
// The tiled modes use the luminance path only (no RGB display transform, no HDR10).
// Display transforms (uTransform != 0: AgX, PBR Neutral; tonemap/DisplayTransform.glsl): the pixel's
// exposed RGB (RGB x cd/m^2 per unit x the curve's kCurveScale = 2^E x the local shift) goes through
// the transform instead of the luminance ratio; uTransform is DISPLAY_TRANSFORM, fixed per build.
// HDR10 (compiled with HDR10 defined; tone/DisplayOutput.h): the display value becomes cd/m^2
// (x uHdr.y, + uHdr.z for lit pixels; with uHdr.x > 0 at least the lookup at Lw x uHdr.x times the
// peak), clamped to [0, uHdr.w], converted to BT.2020 primaries and stored linear in uHdrOutput
// (RGBA32F); uOutput then holds an SDR preview (cd/m^2 / 203: BT.2408's reference white at 1,
// highlights clipped; Rec. 709, sRGB).
//
// Work split: a 32x8 workgroup covers 32 x 8*ROWS pixels (a warp reads and writes 32 neighbouring
// pixels of a row); each invocation loads its ROWS texels before mapping any, so several reads are
// in flight, and reads the curve's header once for all of them.
#include "shared/HostDevice.h"
#include "shared/LocalTiles.h"

#ifndef ROWS
#define ROWS 4
#endif

layout(local_size_x = 32, local_size_y = 8) in;

layout(binding = kTextureUnitInput) uniform sampler2D uInput;
layout(binding = kImageUnitOutput, rgba8) writeonly uniform image2D uOutput;
layout(std430, binding = kBindingCurve) readonly buffer CurveBuffer { float curve[]; };
layout(std430, binding = kBindingLocalAdaptation) readonly buffer LocalMean { float localMean[]; };
// The local histogram operators' tile curves, bound at the same point (a frame uses one or the other).
layout(std430, binding = kBindingLocalAdaptation) readonly buffer TileCurves { float tileCurves[]; };
layout(std430, binding = kBindingHistogramParams) readonly buffer Params { uint params[]; };
layout(location = 0) uniform ivec2 uSize;
layout(location = 1) uniform uint uMode; // kApplyGlobal, kApplyLocal, kApplyViewLocalMean, kApplyTiles, kApplyViewLocalGain
// DISPLAY_TRANSFORM: 0 the curve's luminance path, else a post::DisplayCurve code of an RGB display
// transform, fixed per build so the default path carries none of the transforms' code (registers).
#ifndef DISPLAY_TRANSFORM
#define DISPLAY_TRANSFORM 0
#endif
const uint uTransform = uint(DISPLAY_TRANSFORM);
#ifdef HDR10
layout(binding = kImageUnitHdrOutput, rgba32f) writeonly uniform image2D uHdrOutput;
layout(location = 3) uniform vec4 uHdr; // highlights' lookup scale (0: none), cd/m^2 per display unit, offset, peak
#endif

#include "tonemap/CurveLookup.glsl"
#include "tonemap/DisplayTransform.glsl"
#include "tonemap/ApplyPixel.glsl"
#include "tonemap/TileCurveLookup.glsl"
#ifndef LOCAL_EXPOSURE
#define LOCAL_EXPOSURE 0 // 1 bilateral, 2 fusion (localexposure/LocalExposureApply.glsl), per build
#endif
#if LOCAL_EXPOSURE
#define LE_STAGED_CELLS 1 // the block's four tiles of the grid in shared memory (LocalExposureApply.glsl)
#include "localexposure/LocalExposureApply.glsl"
#endif

vec3 gWeights;     // the params' luminance weights, read once per invocation in main()
float gCdPerUnit;  // the params' cd/m^2 per channel unit (per-channel curves)

#ifndef HDR10
// kApplyTiles and kApplyViewLocalGain (the luminance path; SDR).
void applyTiledPixel(Curve c, ivec2 texel, vec3 rgb)
{
    float Lw = hdLuminanceWeighted(rgb.r, rgb.g, rgb.b, gWeights.x, gWeights.y, gWeights.z);
    vec3 display = vec3(0.0);
    if (isUsable(Lw)) {
        float local = tiledLocalValue(texel, Lw);
        float global = tiledDisplayClamp(evaluateCurve(c, 0u, Lw)); // as each tile's value
        if (uMode == kApplyViewLocalGain) {
            float range = max(tileCurves[kTileGainLogRange], 1e-3);
            float gain = log2(max(local, 1e-30) / max(global, 1e-30));
            float grey = clamp(0.5 + 0.5 * gain / range, 0.0, 1.0);
            imageStore(uOutput, texel, vec4(vec3(encodeSrgb(grey)), 1.0));
            return;
        }
        float Ld = hdTileLerp(global, local, tileCurves[kTileStrength]);
        display = isinf(Lw) ? vec3(Ld) : rgb * (Ld * gCdPerUnit / Lw);
    }
    if (uMode == kApplyTilesGrid) {
        // The tile grid's edges (the first texel row and column of every tile but the first), yellow.
        ivec2 tileSize = ivec2(tileCurves[kTileWidth], tileCurves[kTileHeight]);
        ivec2 within = texel % max(tileSize, ivec2(1));
        if ((within.x == 0 && texel.x > 0) || (within.y == 0 && texel.y > 0))
            display = vec3(1.0, 0.85, 0.0);
    }
    imageStore(uOutput, texel, vec4(encodeSrgb(display.r), encodeSrgb(display.g), encodeSrgb(display.b), 1.0));
}
#endif

void applyPixel(Curve c, ivec2 texel, vec3 rgb)
{
#ifndef HDR10
    if (uMode >= kApplyTiles) {
        applyTiledPixel(c, texel, rgb);
        return;
    }
#endif
    float localShift = 1.0; // factor applied to Lw before the curve lookup
    if (uMode != kApplyGlobal) {
        float mean = localMean[uint(texel.y) * uint(uSize.x) + uint(texel.x)];
        if (uMode == kApplyViewLocalMean) {
            float logMin = uintBitsToFloat(params[kParamLogMin]);
            float logMax = uintBitsToFloat(params[kParamLogMax]);
            float grey = clamp((mean - logMin) / max(logMax - logMin, 1e-6), 0.0, 1.0);
            float encoded = isnan(mean) ? 0.0 : encodeSrgb(grey);
            imageStore(uOutput, texel, vec4(encoded, encoded, encoded, 1.0));
            return;
        }
        float shiftEv = curve[kCurveLocalBlend] * (curve[kCurveLocalReference] - mean);
        if (!isnan(shiftEv))
            localShift = exp2(clamp(shiftEv, -kLocalAdaptationMaxShiftEv, kLocalAdaptationMaxShiftEv));
    }
#if LOCAL_EXPOSURE
    if (applyLocalExposure(c, texel, rgb, gWeights, localShift))
        return; // a view of its terms was stored
#endif
#ifdef HDR10
    bool perChannel = isPerChannel(c);
    vec3 display = mapColour(c, rgb, perChannel, localShift, gWeights, gCdPerUnit, uTransform);
    bool lit = perChannel ? isUsable(rgb.r) || isUsable(rgb.g) || isUsable(rgb.b)
                          : isUsable(hdLuminanceWeighted(rgb.r, rgb.g, rgb.b, gWeights.x, gWeights.y, gWeights.z));
    vec3 nits = display * uHdr.y + (lit ? uHdr.z : 0.0);
    // Scene-referred operators: the same mapping looked up lower (x uHdr.x) and scaled to the peak
    // carries the highlights above SDR's white; the larger of the two per channel keeps the SDR
    // mid-tones at reference white and stays continuous and monotonic.
    if (uHdr.x > 0.0)
        nits = max(nits, mapColour(c, rgb, perChannel, localShift * uHdr.x, gWeights, gCdPerUnit, uTransform) * uHdr.w);
    nits = clamp(nits, vec3(0.0), vec3(uHdr.w));
    // Rec. 709 to BT.2020 (ITU-R BT.2087): every coefficient is positive, so clamped input stays >= 0.
    const mat3 toBt2020 = mat3(0.627403895934699, 0.069097289358232, 0.016391438875150, 0.329283038377884,
                               0.919540395075459, 0.088013307877226, 0.043313065687417, 0.011362315566309,
                               0.895595253247624);
    imageStore(uHdrOutput, texel, vec4(toBt2020 * nits, 1.0));
    display = nits * (1.0 / kHdrReferenceWhite);
    vec4 encoded = vec4(encodeSrgb(display.r), encodeSrgb(display.g), encodeSrgb(display.b), 1.0);
#else
    vec4 encoded = displayPixel(c, rgb, gWeights, gCdPerUnit, localShift, uTransform);
#endif
    imageStore(uOutput, texel, encoded);
}

void main()
{
    const ivec2 first = ivec2(gl_WorkGroupID.x * 32u + gl_LocalInvocationID.x,
                              gl_WorkGroupID.y * (8u * ROWS) + gl_LocalInvocationID.y);
#if LOCAL_EXPOSURE == 1
    leStageCells(ivec2(gl_WorkGroupID.xy * uvec2(32u, 8u * ROWS)), gl_LocalInvocationIndex);
#endif
    if (first.x >= uSize.x || first.y >= uSize.y)
        return;
    vec3 rgb[ROWS];
    for (int k = 0; k < ROWS; ++k) {
        const ivec2 texel = first + ivec2(0, 8 * k);
        rgb[k] = texel.y < uSize.y ? texelFetch(uInput, texel, 0).rgb : vec3(0.0);
    }
    const Curve c = loadCurve();
    gWeights = vec3(uintBitsToFloat(params[kParamLumaR]), uintBitsToFloat(params[kParamLumaG]),
                    uintBitsToFloat(params[kParamLumaB]));
    gCdPerUnit = uintBitsToFloat(params[kParamCdPerUnit]);
    for (int k = 0; k < ROWS; ++k) {
        const ivec2 texel = first + ivec2(0, 8 * k);
        if (texel.y < uSize.y)
            applyPixel(c, texel, rgb[k]);
    }
}
