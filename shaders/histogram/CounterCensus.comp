// CounterCensus.comp: counts the pixels that go in no bin (NaN, Inf, L <= 0, below/above under the
// "separate" policy) into the histogram buffer's counters. The raster methods (occlusion queries,
// blending, tiles) only count bins; this small pass fills the counters beside them.
#include "histogram/HistogramCommon.glsl"

layout(local_size_x = kHistogramGroupX, local_size_y = kHistogramGroupY) in;

layout(binding = kTextureUnitInput) uniform sampler2D uInput;
layout(std430, binding = kBindingHistogram) buffer HistogramBuffer { uint histogram[]; };
layout(location = 0) uniform ivec2 uSize;

shared uint sCounters[kCounterCount];

void main()
{
    const uint local = gl_LocalInvocationIndex;
    if (local < kCounterCount)
        sCounters[local] = 0u;
    barrier();
    ivec2 texel = ivec2(gl_GlobalInvocationID.xy);
    if (all(lessThan(texel, uSize))) {
        int code = binOfColor(texelFetch(uInput, texel, 0));
        if (code < 0)
            atomicAdd(sCounters[hdCounterOfCode(code)], 1u);
    }
    barrier();
    if (local < kCounterCount && sCounters[local] != 0u)
        atomicAdd(histogram[kHistogramCountersOffset + local], sCounters[local]);
}
