// LocalExposureApply.glsl: the per-pixel local exposure of the apply pass (tonemap/Apply.comp with
// LOCAL_EXPOSURE 1 or 2; the probe's terms too), Unreal Engine 5's formula (shared/LocalExposure.h):
//   LOCAL_EXPOSURE 1 (bilateral): the grid sliced at the pixel's own log2 L (trilinear: tile centres
//   across, bin centres in depth; sum of positions over sum of counts, so empty cells weigh nothing)
//   is the bilateral base; the blurred log2 L (GridBlur.comp, bilinear between tile centres) is
//   blended in by uLeSettings.w; then target = mid + (base - mid) * (base > mid ? highlight : shadow)
//   + (log2 L - base) * detail, and the pixel's luminance is multiplied by 2^(target - log2 L) before
//   the curve (so before the operator's display curve, after its exposure: the curve is applied to
//   Lw x 2^E x the local exposure).
//   LOCAL_EXPOSURE 2 (fusion): the log2 adjustment is sampled (bilinear, clamped) from the texture at
//   kTextureUnitLocalExposure that the exposure fusion pass wrote, as the CPU reference samples it
//   (FusionSample.glsl, ref::sampleFusionAdjustment); no base or detail.
// mid: log2(0.18 / 2^E) of the curve's exposure (kCurveScale) where the operator's curve has one
// (uLeMid kLocalExposureMidFromCurve), else the frame's mean log2 L (the grid's); plus uLeBias.
// The includer has included shared/HostDevice.h and declared `float curve[]` and `uint params[]`.
#include "shared/LocalExposure.h"

#if LOCAL_EXPOSURE == 1
layout(std430, binding = kBindingLocalExposureGrid) readonly buffer LeGrid { uint leGrid[]; };
layout(std430, binding = kBindingLocalExposureBlur) readonly buffer LeBlur { float leBlur[]; };
#else
layout(binding = kTextureUnitLocalExposure) uniform sampler2D uLeAdjust;
layout(location = 46) uniform vec2 uLeUvScale; // ExposureFusion::uvScale
#include "localexposure/FusionSample.glsl"
#endif
layout(location = 40) uniform uint uLeView;     // kLocalExposureView*
layout(location = 41) uniform uint uLeMid;      // kLocalExposureMidFrom*
layout(location = 42) uniform vec4 uLeSettings; // highlight, shadow, detail, blurred blend
layout(location = 43) uniform float uLeBias;    // middle grey bias, EV
layout(location = 44) uniform ivec2 uLeTiles;   // the grid's tiles across, down
layout(location = 45) uniform ivec2 uLeSize;    // the frame's size

struct LocalExposureTerms
{
    bool valid;       // the pixel's luminance is usable (else every term is 0 and the exposure 1)
    float logL;       // log2 Lw
    float bilateral;  // the grid's base at the pixel's log2 L
    float blurred;    // the blurred log2 L
    float base;       // bilateral blended toward blurred
    float mid;        // the metered middle grey (+ bias)
    float ev;         // target - log2 L: the local exposure's log2
};

#if LOCAL_EXPOSURE == 1
// The cell's pixel count and sum of bin positions (a float pair, as the blur's stage 0 reads them).
vec2 leCellFromGrid(int tx, int ty, int bin)
{
    const uint cell = (uint(ty * uLeTiles.x + tx) * kLocalExposureBins + uint(bin)) * 2u;
    const float n = float(leGrid[cell]);
    return vec2(n, n * float(bin) + (float(leGrid[cell + 1u]) + 0.5 * n) / kLocalExposureFractionSteps);
}

// The tiles whose centres surround the pixel (clamped at the borders) and the pixel's weights between them.
void leTilesAround(ivec2 texel, out ivec2 t0, out ivec2 t1, out vec2 w)
{
    const vec2 f = vec2(hdLocalExposureTilePosition(texel.x), hdLocalExposureTilePosition(texel.y));
    const vec2 below = floor(f);
    t0 = max(ivec2(below), ivec2(0));
    t1 = min(ivec2(below) + 1, uLeTiles - 1);
    w = f - below;
}

#if LE_STAGED_CELLS
// Apply.comp's blocks (32 x 8*ROWS pixels, aligned) never straddle a tile centre (centres 64 px apart
// at 32 + 64k; TonemapApply.cpp asserts the sizes), so all of a block's pixels slice the same four
// tiles: the workgroup loads their 4 x 32 cells once into shared memory. Each pixel reading its eight
// cells from the grid in global memory, at bins that differ across a warp, made the apply 3.3x the
// apply without local exposure on the H200 (docs/PERF.md).
shared vec2 sLeCells[4 * kLocalExposureBins];

// Every invocation of the workgroup calls it, before any returns (it has a barrier).
void leStageCells(ivec2 blockOrigin, uint local)
{
    ivec2 t0, t1;
    vec2 w;
    leTilesAround(blockOrigin, t0, t1, w);
    if (local < 4u * kLocalExposureBins) {
        const int corner = int(local / kLocalExposureBins);
        const int bin = int(local % kLocalExposureBins);
        sLeCells[local] = leCellFromGrid((corner & 1) != 0 ? t1.x : t0.x, (corner & 2) != 0 ? t1.y : t0.y, bin);
    }
    barrier();
}

vec2 leCell(int corner, int tx, int ty, int bin)
{
    return sLeCells[uint(corner) * kLocalExposureBins + uint(bin)];
}
#else
vec2 leCell(int corner, int tx, int ty, int bin)
{
    return leCellFromGrid(tx, ty, bin);
}
#endif
#endif

LocalExposureTerms localExposureTerms(ivec2 texel, float Lw, float curveScale)
{
    LocalExposureTerms t;
    t.valid = !isnan(Lw) && Lw >= kMinLuminance && !isinf(Lw);
    t.logL = t.bilateral = t.blurred = t.base = t.mid = t.ev = 0.0;
    if (!t.valid)
        return t;
    t.logL = log2(Lw);
#if LOCAL_EXPOSURE == 1
    const float logMin = uintBitsToFloat(params[kParamLogMin]);
    const float scale = hdBinScale(logMin, uintBitsToFloat(params[kParamLogMax]), kLocalExposureBins);
    const float inverseScale = scale > 0.0 ? 1.0 / scale : 0.0;
    // Across: tile centres (clamped at the borders); in depth: bin centres.
    ivec2 t0, t1;
    vec2 w;
    leTilesAround(texel, t0, t1, w);
    const float z = clamp((t.logL - logMin) * scale, 0.0, float(kLocalExposureBins)) - 0.5;
    const float zBelow = floor(z);
    const int b0 = clamp(int(zBelow), 0, int(kLocalExposureBins) - 1);
    const int b1 = clamp(int(zBelow) + 1, 0, int(kLocalExposureBins) - 1);
    const float wz = z - zBelow;
    float count = 0.0;
    float position = 0.0;
    for (int corner = 0; corner < 4; ++corner) {
        const int tx = (corner & 1) != 0 ? t1.x : t0.x;
        const int ty = (corner & 2) != 0 ? t1.y : t0.y;
        const float wxy = ((corner & 1) != 0 ? w.x : 1.0 - w.x) * ((corner & 2) != 0 ? w.y : 1.0 - w.y);
        const vec2 cell0 = leCell(corner, tx, ty, b0);
        const vec2 cell1 = leCell(corner, tx, ty, b1);
        count += wxy * (1.0 - wz) * cell0.x;
        position += wxy * (1.0 - wz) * cell0.y;
        count += wxy * wz * cell1.x;
        position += wxy * wz * cell1.y;
    }
    t.bilateral = count > 0.0 ? logMin + position / count * inverseScale : t.logL;
    const uint blurAt = kLocalExposureBlurHeaderWords;
    const float b00 = leBlur[blurAt + uint(t0.y * uLeTiles.x + t0.x)];
    const float b10 = leBlur[blurAt + uint(t0.y * uLeTiles.x + t1.x)];
    const float b01 = leBlur[blurAt + uint(t1.y * uLeTiles.x + t0.x)];
    const float b11 = leBlur[blurAt + uint(t1.y * uLeTiles.x + t1.x)];
    t.blurred = mix(mix(b00, b10, w.x), mix(b01, b11, w.x), w.y);
    t.base = t.bilateral + uLeSettings.w * (t.blurred - t.bilateral);
    t.mid = (uLeMid == kLocalExposureMidFromCurve && curveScale > 0.0 ? log2(kLocalExposureMiddleGrey / curveScale)
                                                                      : leBlur[kLocalExposureFrameMean]) +
            uLeBias;
    t.ev = hdLocalExposureEv(t.logL, t.base, t.mid, uLeSettings.x, uLeSettings.y, uLeSettings.z);
#else
    t.ev = fusionExposureLog2(uLeAdjust, texel, vec2(uLeSize), uLeUvScale);
    t.base = t.blurred = t.bilateral = t.logL + t.ev;
#endif
    if (isnan(t.ev) || isinf(t.ev))
        t.ev = 0.0;
    return t;
}

// The view of one term as a grey level (not sRGB-encoded: the level is linear in EV): base and
// blurred over the histogram range, detail and exposure over +-kLocalExposureViewRangeEv.
vec4 localExposureView(LocalExposureTerms t)
{
    if (!t.valid)
        return vec4(0.0, 0.0, 0.0, 1.0);
    const float logMin = uintBitsToFloat(params[kParamLogMin]);
    const float span = max(uintBitsToFloat(params[kParamLogMax]) - logMin, 1e-6);
    float grey = 0.0;
    if (uLeView == kLocalExposureViewBase)
        grey = (t.base - logMin) / span;
    else if (uLeView == kLocalExposureViewBlurred)
        grey = (t.blurred - logMin) / span;
    else if (uLeView == kLocalExposureViewDetail)
        grey = 0.5 + 0.5 * (t.logL - t.base) / kLocalExposureViewRangeEv;
    else
        grey = 0.5 + 0.5 * t.ev / kLocalExposureViewRangeEv;
    grey = clamp(grey, 0.0, 1.0);
    return vec4(grey, grey, grey, 1.0);
}

// The apply pass's hook: multiplies `shift` (the factor on Lw before the curve) by the local exposure,
// or stores the view of a term into uOutput and returns true (the includer declares uOutput).
bool applyLocalExposure(Curve c, ivec2 texel, vec3 rgb, vec3 weights, inout float shift)
{
    const LocalExposureTerms t =
        localExposureTerms(texel, hdLuminanceWeighted(rgb.r, rgb.g, rgb.b, weights.x, weights.y, weights.z), c.scale);
    if (uLeView != kLocalExposureViewNone) {
        imageStore(uOutput, texel, localExposureView(t));
        return true;
    }
    if (t.valid)
        shift *= exp2(t.ev);
    return false;
}
