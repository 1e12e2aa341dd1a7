// 8-bit equalization, step 1: the 256-bin histogram of an 8-bit grey image packed 4 pixels per
// uint (byte i of word w is pixel 4w + i). Bugetti's CalculateHistogram: a shared-memory histogram
// per workgroup, run aggregation (one atomic per run of equal values), one merge per group.
#include "shared/HostDevice.h"

#define LEVELS 256u
#define GROUP_SIZE 256u
#define WORDS_PER_THREAD 8u

layout(local_size_x = GROUP_SIZE) in;

layout(std430, binding = kBindingScratch0) readonly buffer Pixels { uint packedPixels[]; };
layout(std430, binding = kBindingHistogram) buffer HistogramBuffer { uint histogram[]; };
layout(location = 0) uniform uint uPixelCount;

shared uint sBins[LEVELS];

void main()
{
    const uint local = gl_LocalInvocationIndex;
    sBins[local] = 0u;
    barrier();

    const uint wordCount = (uPixelCount + 3u) / 4u;
    const uint first = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * GROUP_SIZE * WORDS_PER_THREAD + local;
    uint runValue = 0u;
    uint runLength = 0u;
    for (uint k = 0u; k < WORDS_PER_THREAD; ++k) {
        uint word = first + k * GROUP_SIZE;
        if (word >= wordCount)
            break;
        uint bits = packedPixels[word];
        for (uint i = 0u; i < 4u; ++i) {
            if (word * 4u + i >= uPixelCount)
                break;
            uint value = (bits >> (8u * i)) & 0xFFu;
            if (runLength != 0u && value == runValue) {
                ++runLength;
            } else {
                if (runLength != 0u)
                    atomicAdd(sBins[runValue], runLength);
                runValue = value;
                runLength = 1u;
            }
        }
    }
    if (runLength != 0u)
        atomicAdd(sBins[runValue], runLength);
    barrier();
    if (sBins[local] != 0u)
        atomicAdd(histogram[local], sBins[local]);
}
