// WardFoveal.comp: the foveal adaptation image of Ward's histogram adjustment (pcond getfovimg, i.e.
// "pfilt -1 -b"): a one-pass box filter of the frame down to about one sample per degree. Sample
// (x, y) is the mean of the finite pixels of [x*w/gw, (x+1)*w/gw) x [y*h/gh, (y+1)*h/gh), scaled by
// the scene scale (scene units -> cd/m^2); NaN when the block has no finite pixel (then it is
// neither in the range nor in the histogram).
#include "shared/HostDevice.h"

layout(local_size_x = 8, local_size_y = 8) in;

layout(binding = kTextureUnitInput) uniform sampler2D uInput;
layout(binding = kImageUnitOutput, rgba32f) writeonly uniform image2D uOutput;
layout(location = 0) uniform ivec2 uInputSize;
layout(location = 1) uniform ivec2 uGridSize;
layout(location = 2) uniform float uSceneScale;

void main()
{
    ivec2 cell = ivec2(gl_GlobalInvocationID.xy);
    if (any(greaterThanEqual(cell, uGridSize)))
        return;
    // Integer block bounds (64-bit-free: sizes are below 2^15, so the products fit in int).
    ivec2 lo = cell * uInputSize / uGridSize;
    ivec2 hi = (cell + 1) * uInputSize / uGridSize;
    vec3 sum = vec3(0.0);
    int count = 0;
    for (int y = lo.y; y < hi.y; ++y) {
        for (int x = lo.x; x < hi.x; ++x) {
            vec3 rgb = texelFetch(uInput, ivec2(x, y), 0).rgb;
            if (any(isnan(rgb)) || any(isinf(rgb)))
                continue;
            sum += rgb;
            ++count;
        }
    }
    vec4 value = count > 0 ? vec4(sum / float(count) * uSceneScale, 1.0) : vec4(uintBitsToFloat(0x7fc00000u));
    imageStore(uOutput, cell, value);
}
