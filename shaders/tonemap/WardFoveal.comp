// WardFoveal.comp: the foveal adaptation image of Ward's histogram adjustment (pcond getfovimg, i.e.
// "pfilt -1 -b"): a one-pass box filter of the frame down to about one sample per degree. Sample
// (x, y) is the mean of the finite pixels of [x*w/gw, (x+1)*w/gw) x [y*h/gh, (y+1)*h/gh), scaled by
// the scene scale (scene units -> cd/m^2); NaN when the block has no finite pixel (then it is
// neither in the range nor in the histogram).
//
// PER_SAMPLE_GROUP 1 (large blocks, e.g. ~1000 pixels at 4K): one 32x8 workgroup per sample, its
// invocations stride over the block (a warp reads 32 neighbouring texels of a row) and sum in a
// shared-memory tree. One invocation per sample looping over its block (PER_SAMPLE_GROUP 0) gives a
// 4K frame only 7 800 invocations, far too few to keep the GPU's memory busy (238 us on the H200),
// but suits small blocks, where a workgroup per sample would be mostly idle.
#include "shared/HostDevice.h"

#ifndef PER_SAMPLE_GROUP
#define PER_SAMPLE_GROUP 1
#endif

#if PER_SAMPLE_GROUP
layout(local_size_x = 32, local_size_y = 8) in;
#else
layout(local_size_x = 8, local_size_y = 8) in;
#endif

layout(binding = kTextureUnitInput) uniform sampler2D uInput;
layout(binding = kImageUnitOutput, rgba32f) writeonly uniform image2D uOutput;
layout(location = 0) uniform ivec2 uInputSize;
layout(location = 1) uniform ivec2 uGridSize;
layout(location = 2) uniform float uSceneScale;

vec4 finiteSum(ivec2 lo, ivec2 hi, ivec2 first, ivec2 step)
{
    vec4 sum = vec4(0.0);
    for (int y = lo.y + first.y; y < hi.y; y += step.y) {
        for (int x = lo.x + first.x; x < hi.x; x += step.x) {
            const vec3 rgb = texelFetch(uInput, ivec2(x, y), 0).rgb;
            if (!(any(isnan(rgb)) || any(isinf(rgb))))
                sum += vec4(rgb, 1.0);
        }
    }
    return sum;
}

void store(ivec2 cell, vec4 total)
{
    const vec4 value = total.w > 0.0 ? vec4(total.rgb / total.w * uSceneScale, 1.0) : vec4(uintBitsToFloat(0x7fc00000u));
    imageStore(uOutput, cell, value);
}

#if PER_SAMPLE_GROUP
shared vec4 sSum[256]; // rgb sum, finite pixel count

void main()
{
    const ivec2 cell = ivec2(gl_WorkGroupID.xy);
    // Integer block bounds (sizes are below 2^15, so the products fit in int).
    const ivec2 lo = cell * uInputSize / uGridSize;
    const ivec2 hi = (cell + 1) * uInputSize / uGridSize;
    const uint local = gl_LocalInvocationIndex;
    sSum[local] = finiteSum(lo, hi, ivec2(gl_LocalInvocationID.xy), ivec2(32, 8));
    barrier();
    for (uint stride = 128u; stride > 0u; stride >>= 1u) {
        if (local < stride)
            sSum[local] += sSum[local + stride];
        barrier();
    }
    if (local == 0u)
        store(cell, sSum[0]);
}
#else
void main()
{
    const ivec2 cell = ivec2(gl_GlobalInvocationID.xy);
    if (any(greaterThanEqual(cell, uGridSize)))
        return;
    const ivec2 lo = cell * uInputSize / uGridSize;
    const ivec2 hi = (cell + 1) * uInputSize / uGridSize;
    store(cell, finiteSum(lo, hi, ivec2(0), ivec2(1)));
}
#endif
