// ScatterResolve.comp: the gather pass after the scatter (Scheuermann & Hensley 2007, 2.2): output
// bin b sums its uGroup target bins (more than one in "large histogram then reduce") over every
// local histogram and stores the uint count. It also counts the bins with a texel at the render
// target's saturation limit (2048 for R16F) and the total, for the status line.
#include "shared/HostDevice.h"

layout(local_size_x = 256) in;

layout(binding = kTextureUnitAux) uniform sampler2D uTarget;
layout(std430, binding = kBindingHistogram) buffer HistogramBuffer { uint histogram[]; };
layout(std430, binding = kBindingScratch0) buffer StatsBuffer { uint stats[]; }; // saturated, total, in bins
layout(location = 0) uniform uint uBinCount;
layout(location = 1) uniform int uGroup;
layout(location = 2) uniform int uTargetWidth;
layout(location = 3) uniform int uRowsPerHistogram;
layout(location = 4) uniform int uLocalCount;
layout(location = 5) uniform int uChannels;
layout(location = 6) uniform float uSaturation;
layout(location = 7) uniform uint uPixelCount;

void main()
{
    uint bin = gl_GlobalInvocationID.x;
    if (bin == 0u) {
        uint outside = 0u;
        for (uint c = 0u; c < kCounterCount; ++c)
            outside += histogram[kHistogramCountersOffset + c];
        stats[2] = uPixelCount - outside;
    }
    if (bin >= uBinCount)
        return;
    uint sum = 0u;
    bool saturated = false;
    for (int fine = int(bin) * uGroup; fine < int(bin + 1u) * uGroup; ++fine) {
        for (int local = 0; local < uLocalCount; ++local) {
            int group = local / uChannels;
            ivec2 texel = ivec2(fine % uTargetWidth, group * uRowsPerHistogram + fine / uTargetWidth);
            float value = texelFetch(uTarget, texel, 0)[local - group * uChannels];
            sum += uint(value + 0.5);
            saturated = saturated || value >= uSaturation;
        }
    }
    histogram[bin] = sum;
    if (saturated)
        atomicAdd(stats[0], 1u);
    atomicAdd(stats[1], sum);
}
