// compute-shared-atomic-linear: the first compute-shared-atomic, kept because its costs teach:
// every pixel's position from a linear index (index % width, index / width), one workgroup per
// 4096 pixels (2025 workgroups at 4K, each merging all its non-zero bins into the same global
// words), and one pixel in flight per thread. 105 us at 4K on the H200 against 15.6 us to read the
// frame once; compute-shared-atomic (SharedAtomic.comp) fixes all three.
//
// Log-luminance histogram with one private histogram per workgroup in shared
// memory, run aggregation (Bugetti, "Histogram Equalization", 2.2: a thread adds a run of equal
// consecutive bins with one atomic), then one merge of the non-zero shared bins into the global
// buffer. Range, bin count and policy come from the params buffer (they may be set by the GPU).
//
// Work split: workgroup g owns the contiguous pixel range [g * N, (g + 1) * N), N = group size *
// PIXELS_PER_THREAD; thread t reads pixels g*N + t + k * group size, so neighbouring threads read
// neighbouring pixels and each thread's consecutive pixels are close in the image (long runs).
#include "shared/HostDevice.h"

#ifndef PIXELS_PER_THREAD
#define PIXELS_PER_THREAD 16
#endif

const uint kGroupSize = kHistogramGroupX * kHistogramGroupY;
layout(local_size_x = kHistogramGroupX * kHistogramGroupY) in;

layout(binding = kTextureUnitInput) uniform sampler2D uInput;
layout(std430, binding = kBindingHistogram) buffer HistogramBuffer { uint histogram[]; };
layout(std430, binding = kBindingHistogramParams) readonly buffer ParamsBuffer { uint params[]; };
layout(location = 0) uniform ivec2 uSize;

shared uint sBins[kMaxHistogramBins];
shared uint sCounters[kCounterCount];

void addRun(int bin, uint count)
{
    if (count == 0u)
        return;
    if (bin >= 0)
        atomicAdd(sBins[bin], count);
    else
        atomicAdd(sCounters[hdCounterOfCode(bin)], count);
}

void main()
{
    const float logMin = uintBitsToFloat(params[kParamLogMin]);
    const float logMax = uintBitsToFloat(params[kParamLogMax]);
    const uint binCount = clamp(params[kParamBinCount], 1u, kMaxHistogramBins);
    const uint policy = params[kParamOutOfRange];
    const float scale = hdBinScale(logMin, logMax, binCount);
    const vec3 weights = vec3(uintBitsToFloat(params[kParamLumaR]), uintBitsToFloat(params[kParamLumaG]),
                              uintBitsToFloat(params[kParamLumaB]));
    const uint local = gl_LocalInvocationIndex;

    for (uint bin = local; bin < binCount; bin += kGroupSize)
        sBins[bin] = 0u;
    if (local < kCounterCount)
        sCounters[local] = 0u;
    barrier();

    const uint width = uint(uSize.x);
    const uint pixelCount = width * uint(uSize.y);
    const uint first = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * kGroupSize * PIXELS_PER_THREAD + local;
    // Bugetti's aggregation: accumulate while the bin repeats, one atomic per run.
    int runBin = 0;
    uint runLength = 0u;
    for (uint k = 0u; k < PIXELS_PER_THREAD; ++k) {
        uint index = first + k * kGroupSize;
        if (index >= pixelCount)
            break;
        vec3 rgb = texelFetch(uInput, ivec2(index % width, index / width), 0).rgb;
        int bin = hdBinOfScaled(hdLuminanceWeighted(rgb.r, rgb.g, rgb.b, weights.x, weights.y, weights.z), logMin,
                                logMax, scale, binCount, policy);
        if (runLength != 0u && bin == runBin) {
            ++runLength;
        } else {
            addRun(runBin, runLength);
            runBin = bin;
            runLength = 1u;
        }
    }
    addRun(runBin, runLength);
    barrier();

    for (uint bin = local; bin < binCount; bin += kGroupSize) {
        uint count = sBins[bin];
        if (count != 0u)
            atomicAdd(histogram[bin], count);
    }
    if (local < kCounterCount && sCounters[local] != 0u)
        atomicAdd(histogram[kHistogramCountersOffset + local], sCounters[local]);
}
