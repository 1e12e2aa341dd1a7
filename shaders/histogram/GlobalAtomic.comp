// compute-global-atomic: the naive GPU histogram: one invocation per pixel, one atomicAdd on the
// global histogram buffer per pixel. Every pixel of a uniform image hits the same word, so this is
// the contention worst case the shared-memory and subgroup variants are measured against.
#include "histogram/HistogramCommon.glsl"

layout(local_size_x = kHistogramGroupX, local_size_y = kHistogramGroupY) in;

layout(binding = kTextureUnitInput) uniform sampler2D uInput;
layout(std430, binding = kBindingHistogram) buffer HistogramBuffer { uint histogram[]; };
layout(location = 0) uniform ivec2 uSize;

void main()
{
    ivec2 texel = ivec2(gl_GlobalInvocationID.xy);
    if (any(greaterThanEqual(texel, uSize)))
        return;
    atomicAdd(histogram[slotOfCode(binOfColor(texelFetch(uInput, texel, 0)))], 1u);
}
