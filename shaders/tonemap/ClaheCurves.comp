// ClaheCurves.comp: the tile curves of "clahe" (contrast-limited adaptive histogram equalization,
// Zuiderveld 1994, with OpenCV clahe.cpp's integer clip and redistribution; shared/research/
// local-methods.md section 1) on the log2-luminance histograms of the tiles (TileHistogram.comp), and
// the global curve (the same on the pipeline's histogram) that the strength blends toward.
// One 256-invocation workgroup per tile, and one more (the last) for the global curve:
//  1. N = the histogram's total; clip limit = max(1, floor(clip * N / bins)) with clip in 1/256
//     steps (uClipSteps; 0: no clipping), in exact integers (the quotient through doubles, corrected);
//  2. every bin above the limit is cut to it; the excess E is spread: batch = E / bins to every bin,
//     the residual r = E - batch bins one each to the bins t with t % step == 0 and t / step < r,
//     step = max(bins / r, 1) (OpenCV's loop);
//  3. the inclusive CDF S (a chunk of bins per invocation, a Hillis-Steele scan of the chunks' sums);
//     level = S / N (hdDivide: correctly rounded), 0.5 for an empty histogram; display = the level,
//     or its sRGB EOTF with uEncoded (the level is an encoded display level, as OpenCV equalizes
//     8-bit encoded values). One sample per bin centre over the histogram range.
//  4. temporal smoothing (uAlpha < 1; clahe.smoothing, time constant tau: alpha = 1 - exp(-dt / tau)):
//     each tile sample moves from the previous frame's tile curve, evaluated at the sample's log2 L
//     (tonemap/TileCurveLookup.glsl, so a moved range or bin count resamples it), by alpha toward the
//     new value: v = p + alpha (v - p). The previous curves are the other buffer of the ping-pong pair
//     (bound as tileCurves, read only; LocalTileCurves.h), so no copy is taken.
// Output: the global curve into the curve buffer; tile t's into this frame's tile-curve buffer
// (outCurves) at hdTileCurveBase(t) (LUT, bins samples, the params' range). CPU reference: ref::claheCurveValues
// (and ref::smoothTileCurve for step 4).
#include "shared/HostDevice.h"
#include "shared/LocalTiles.h"

layout(local_size_x = 256) in;

layout(std430, binding = kBindingHistogramParams) readonly buffer Params { uint params[]; };
layout(std430, binding = kBindingHistogram) readonly buffer Histogram { uint histogram[]; };
layout(std430, binding = kBindingScratch0) readonly buffer TileHistograms { uint tileHistograms[]; };
layout(std430, binding = kBindingCurve) writeonly buffer Curve { float curve[]; };
layout(std430, binding = kBindingLocalAdaptation) readonly buffer TileCurves { float tileCurves[]; }; // previous
layout(std430, binding = kBindingScratch1) writeonly buffer OutCurves { float outCurves[]; }; // this frame's
layout(location = 0) uniform uint uTiles;
layout(location = 1) uniform uint uClipSteps;
layout(location = 2) uniform uint uEncoded;
layout(location = 3) uniform float uAlpha; // weight of this frame's tile curve (1: no smoothing)
// The key value's state (uint[2], zeroed by the host): the sum over tiles of round(tile mean x 2^20)
// (the mean of the tile's final LUT values) and the number of tiles.
layout(std430, binding = kBindingOperatorState) buffer KeyState { uint keyState[]; };
shared float sMean[256];

#include "tonemap/TileCurveLookup.glsl"

const uint kMaxPerInvocation = kMaxHistogramBins / 256u;

shared uint sH[kMaxHistogramBins];
shared uint sChunk[256];
shared uint sTotal;
shared uint sClipped;

uint clipLimit(uint total, uint bins)
{
    if (uClipSteps == 0u)
        return 0u;
    // clipSteps * total < 2^53 and 256 bins are exact doubles; the quotient's floor is corrected to the
    // integer one whatever the division's rounding.
    double x = double(uClipSteps) * double(total);
    double d = double(kClaheClipScale * bins);
    uint k = uint(floor(x / d));
    if (double(k + 1u) * d <= x)
        ++k;
    if (k > 0u && double(k) * d > x)
        --k;
    return max(k, 1u);
}

float displayOf(uint sum, uint total)
{
    float level = total == 0u ? 0.5 : hdDivide(float(sum), float(total));
    if (uEncoded == 0u)
        return level;
    return level <= 0.04045 ? level / 12.92 : pow((level + 0.055) / 1.055, 2.4);
}

void main()
{
    uint tid = gl_LocalInvocationID.x;
    uint group = gl_WorkGroupID.x;
    bool global = group == uTiles;
    uint bins = clamp(params[kParamBinCount], 1u, kMaxHistogramBins);
    if (tid == 0u) {
        sTotal = 0u;
        sClipped = 0u;
    }
    barrier();
    uint mine = 0u;
    for (uint i = tid; i < bins; i += 256u) {
        uint v = global ? histogram[i] : tileHistograms[group * bins + i];
        sH[i] = v;
        mine += v;
    }
    atomicAdd(sTotal, mine);
    memoryBarrierShared();
    barrier();
    uint total = sTotal;
    uint limit = clipLimit(total, bins);
    if (limit > 0u) {
        uint cut = 0u;
        for (uint i = tid; i < bins; i += 256u)
            cut += sH[i] > limit ? sH[i] - limit : 0u;
        atomicAdd(sClipped, cut);
        memoryBarrierShared();
        barrier();
        // OpenCV's clip and batch + residual-step redistribution (shared/Clahe.h, the lead's one copy).
        int clipped = int(sClipped);
        for (uint i = tid; i < bins; i += 256u)
            sH[i] = uint(hdClaheRedistributed(int(sH[i]), int(i), int(bins), int(limit), clipped));
        memoryBarrierShared();
        barrier();
    }
    // Inclusive CDF: contiguous chunks per invocation, their sums scanned across the workgroup.
    uint per = (bins + 255u) / 256u;
    uint begin = min(tid * per, bins);
    uint end = min(begin + per, bins);
    uint chunk = 0u;
    for (uint i = begin; i < end; ++i)
        chunk += sH[i];
    sChunk[tid] = chunk;
    memoryBarrierShared();
    barrier();
    for (uint offset = 1u; offset < 256u; offset <<= 1u) {
        uint add = tid >= offset ? sChunk[tid - offset] : 0u;
        barrier();
        sChunk[tid] += add;
        memoryBarrierShared();
        barrier();
    }
    uint running = sChunk[tid] - chunk;
    float logMin = uintBitsToFloat(params[kParamLogMin]);
    float logMax = uintBitsToFloat(params[kParamLogMax]);
    uint base = global ? 0u : hdTileCurveBase(group);
    float values[kMaxPerInvocation];
    for (uint i = begin; i < end; ++i) {
        running += sH[i];
        values[i - begin] = displayOf(running, total);
    }
    if (!global && uAlpha < 1.0) {
        float span = logMax > logMin ? logMax - logMin : 1.0;
        for (uint i = begin; i < end; ++i) {
            float log2L = logMin + (float(i) + 0.5) * span / float(bins);
            float previous = evaluateTileCurve(base, exp2(log2L));
            values[i - begin] = previous + uAlpha * (values[i - begin] - previous);
        }
    }
    // The tile's mean value, for the key value (bench flicker): a tree over the invocations' sums.
    float partial = 0.0;
    for (uint i = begin; i < end; ++i)
        partial += values[i - begin];
    sMean[tid] = partial;
    memoryBarrierShared();
    barrier();
    for (uint s = 128u; s > 0u; s >>= 1u) {
        if (tid < s)
            sMean[tid] += sMean[tid + s];
        memoryBarrierShared();
        barrier();
    }
    if (tid == 0u && !global) {
        atomicAdd(keyState[0], uint(clamp(sMean[0] / float(bins), 0.0, 1.0) * 1048576.0 + 0.5));
        atomicAdd(keyState[1], 1u);
    }
    for (uint i = begin; i < end; ++i) {
        if (global)
            curve[kCurveHeaderWords + i] = values[i - begin];
        else
            outCurves[base + kCurveHeaderWords + i] = values[i - begin];
    }
    if (tid == 0u) {
        float header[6] = float[6](logMin, logMax, float(bins), 1.0, kCurveModeLut, 0.0);
        for (uint w = 0u; w < 6u; ++w) {
            if (global)
                curve[w] = header[w];
            else
                outCurves[base + w] = header[w];
        }
    }
}
