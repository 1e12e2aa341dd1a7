// compute-replicated: R padded copies of the histogram per workgroup in shared memory (after
// Gomez-Luna et al., "An optimized approach to histogram computation on GPU", 2013): invocation i
// adds into copy i % R, so invocations that hit the same bin at once mostly hit different words.
// Copy r starts at r * uStride with uStride = binCount + 1 (odd), so the same bin of neighbouring
// copies lies in different shared-memory banks. The copies are summed at the end and merged into the
// global buffer with one atomic per non-zero bin. SHARED_WORDS (a define) sizes the shared array;
// the host picks R so that R * uStride <= SHARED_WORDS.
#include "histogram/HistogramCommon.glsl"

#ifndef SHARED_WORDS
#define SHARED_WORDS 8192
#endif
#define TILE 64

const uint kGroupSize = kHistogramGroupX * kHistogramGroupY;
layout(local_size_x = kHistogramGroupX * kHistogramGroupY) in;

layout(binding = kTextureUnitInput) uniform sampler2D uInput;
layout(std430, binding = kBindingHistogram) buffer HistogramBuffer { uint histogram[]; };
layout(location = 0) uniform ivec2 uSize;
layout(location = 1) uniform uint uReplicas;
layout(location = 2) uniform uint uStride;

shared uint sCopies[SHARED_WORDS];
shared uint sCounters[kCounterCount];

void main()
{
    const uint local = gl_LocalInvocationIndex;
    const uint binCount = paramBinCount();
    const uint used = uReplicas * uStride;
    for (uint i = local; i < used; i += kGroupSize)
        sCopies[i] = 0u;
    if (local < kCounterCount)
        sCounters[local] = 0u;
    barrier();

    // The workgroup covers a TILE x TILE block; consecutive invocations read consecutive texels.
    const uint copyBase = (local % uReplicas) * uStride;
    const ivec2 origin = ivec2(gl_WorkGroupID.xy) * TILE;
    for (uint k = local; k < TILE * TILE; k += kGroupSize) {
        ivec2 texel = origin + ivec2(k % TILE, k / TILE);
        if (any(greaterThanEqual(texel, uSize)))
            continue;
        int code = binOfColor(texelFetch(uInput, texel, 0));
        if (code >= 0)
            atomicAdd(sCopies[copyBase + min(uint(code), uStride - 2u)], 1u);
        else
            atomicAdd(sCounters[hdCounterOfCode(code)], 1u);
    }
    barrier();

    for (uint bin = local; bin < binCount; bin += kGroupSize) {
        uint sum = 0u;
        for (uint r = 0u; r < uReplicas; ++r)
            sum += sCopies[r * uStride + bin];
        if (sum != 0u)
            atomicAdd(histogram[bin], sum);
    }
    if (local < kCounterCount && sCounters[local] != 0u)
        atomicAdd(histogram[kHistogramCountersOffset + local], sCounters[local]);
}
