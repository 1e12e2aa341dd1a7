// Automatic histogram range, step 1: min and max of the finite positive luminance over the frame.
// Each workgroup reduces its pixels in shared memory, then one atomicMin/atomicMax per group on the
// float bits: for positive finite floats the bit patterns order like the values, so uint atomics
// give the float min/max (the host clears min to +Inf bits and max to 0 first).
#include "shared/HostDevice.h"

#ifndef PIXELS_PER_THREAD
#define PIXELS_PER_THREAD 16
#endif

layout(local_size_x = kReduceGroupSize) in;

layout(binding = kTextureUnitInput) uniform sampler2D uInput;
layout(std430, binding = kBindingScratch0) buffer RangeBuffer { uint rangeBits[]; }; // [0] min L, [1] max L
layout(std430, binding = kBindingHistogramParams) readonly buffer Params { uint params[]; }; // luminance weights
layout(location = 0) uniform ivec2 uSize;

shared uint sMin[kReduceGroupSize];
shared uint sMax[kReduceGroupSize];

const uint kPositiveInfinityBits = 0x7F800000u;

void main()
{
    const uint local = gl_LocalInvocationIndex;
    const uint width = uint(uSize.x);
    const uint pixelCount = width * uint(uSize.y);
    const uint first = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * kReduceGroupSize * PIXELS_PER_THREAD + local;
    const vec3 weights = vec3(uintBitsToFloat(params[kParamLumaR]), uintBitsToFloat(params[kParamLumaG]),
                              uintBitsToFloat(params[kParamLumaB]));
    uint smallest = kPositiveInfinityBits;
    uint largest = 0u;
    for (uint k = 0u; k < PIXELS_PER_THREAD; ++k) {
        uint index = first + k * kReduceGroupSize;
        if (index >= pixelCount)
            break;
        vec3 rgb = texelFetch(uInput, ivec2(index % width, index / width), 0).rgb;
        float L = hdLuminanceWeighted(rgb.r, rgb.g, rgb.b, weights.x, weights.y, weights.z);
        if (isnan(L) || isinf(L) || !(L >= kMinLuminance))
            continue;
        uint bits = floatBitsToUint(L);
        smallest = min(smallest, bits);
        largest = max(largest, bits);
    }
    sMin[local] = smallest;
    sMax[local] = largest;
    barrier();
    for (uint stride = kReduceGroupSize / 2u; stride > 0u; stride >>= 1u) {
        if (local < stride) {
            sMin[local] = min(sMin[local], sMin[local + stride]);
            sMax[local] = max(sMax[local], sMax[local + stride]);
        }
        barrier();
    }
    if (local == 0u) {
        if (sMin[0] != kPositiveInfinityBits)
            atomicMin(rangeBits[0], sMin[0]);
        if (sMax[0] != 0u)
            atomicMax(rangeBits[1], sMax[0]);
    }
}
