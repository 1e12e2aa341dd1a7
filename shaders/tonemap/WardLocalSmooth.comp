// WardLocalSmooth.comp: ward-local's temporal smoothing of its tile curves and its key value, one
// workgroup per tile after the tile fits (ToneWardLocal):
//  1. (uAlpha < 1) each LUT sample of the new tile curve moves from the previous frame's tile curve
//     (bound as tileCurves: the ping-pong pair's other buffer, LocalTileCurves.h), at the sample's log2 L with the
//     tiled apply's lookup and clamp (TileCurveLookup.glsl: a moved range resamples it), by alpha
//     toward the new value: v = p + alpha (v - p); a LinearScale tile (Ward's "fits") is kept as is;
//  2. the key value: the mean of the tile curve (after smoothing, the tiled apply's lookup and clamp)
//     at 64 log2 L evenly spaced over the middle half of the histogram's range (fixed points, so a
//     tile range that moves does not count as flicker), summed over tiles in 2^-20 fixed point with
//     the tile count (keyState[0..1]) for `bench flicker`.
// CPU reference of step 1: ref::wardLocalChecks (alpha, previous-tile-curves).
#include "shared/HostDevice.h"
#include "shared/LocalTiles.h"

layout(local_size_x = 256) in;

layout(std430, binding = kBindingLocalAdaptation) readonly buffer TileCurves { float tileCurves[]; }; // previous
layout(std430, binding = kBindingScratch0) buffer Current { float current[]; };
layout(std430, binding = kBindingOperatorState) buffer KeyState { uint keyState[]; };
layout(std430, binding = kBindingHistogramParams) readonly buffer Params { uint params[]; };
layout(location = 0) uniform float uAlpha;

#include "tonemap/TileCurveLookup.glsl"

shared float sSum[256];

// evaluateTileCurve on this frame's curves (the same arithmetic, reading `current`).
float evaluateCurrent(uint base, float Lw)
{
    if (current[base + kCurveMode] == kCurveModeLinearScale)
        return tiledDisplayClamp(current[base + kCurveScale] * Lw);
    int samples = clamp(int(current[base + kCurveSampleCount]), 1, int(kMaxCurveSamples));
    float logMin = current[base + kCurveLogMin];
    float logMax = current[base + kCurveLogMax];
    float samplesPerEv = float(samples) / (logMax > logMin ? logMax - logMin : 1.0);
    uint lut = base + kCurveHeaderWords;
    float position = (log2(Lw) - logMin) * samplesPerEv - 0.5;
    if (position < 0.0)
        return tiledDisplayClamp(current[lut] * exp2(position / samplesPerEv));
    position = min(position, float(samples - 1));
    int below = int(floor(position));
    int above = min(below + 1, samples - 1);
    return tiledDisplayClamp(mix(current[lut + uint(below)], current[lut + uint(above)], position - float(below)));
}

void main()
{
    uint base = hdTileCurveBase(gl_WorkGroupID.x);
    uint tid = gl_LocalInvocationID.x;
    bool lut = current[base + kCurveMode] != kCurveModeLinearScale;
    int samples = clamp(int(current[base + kCurveSampleCount]), 1, int(kMaxCurveSamples));
    float logMin = current[base + kCurveLogMin];
    float logMax = current[base + kCurveLogMax];
    float span = logMax > logMin ? logMax - logMin : 1.0;
    if (lut && uAlpha < 1.0) {
        for (int i = int(tid); i < samples; i += 256) {
            uint at = base + kCurveHeaderWords + uint(i);
            float log2L = logMin + (float(i) + 0.5) * span / float(samples);
            float previous = evaluateTileCurve(base, exp2(log2L));
            current[at] = previous + uAlpha * (current[at] - previous);
        }
    }
    memoryBarrierBuffer();
    barrier();
    float histogramMin = uintBitsToFloat(params[kParamLogMin]);
    float histogramMax = uintBitsToFloat(params[kParamLogMax]);
    float quarter = 0.25 * (histogramMax - histogramMin);
    sSum[tid] = tid < 64u ? evaluateCurrent(base, exp2(histogramMin + quarter + 2.0 * quarter * (float(tid) + 0.5) / 64.0))
                          : 0.0;
    barrier();
    for (uint stride = 128u; stride > 0u; stride >>= 1) {
        if (tid < stride)
            sSum[tid] += sSum[tid + stride];
        barrier();
    }
    if (tid == 0u) {
        float mean = sSum[0] / 64.0;
        atomicAdd(keyState[0], uint(clamp(mean, 0.0, 1.0) * 1048576.0 + 0.5));
        atomicAdd(keyState[1], 1u);
    }
}
