// FusionPyramid.comp: one level down the fusion pyramid (post/localexposure/ExposureFusion.h): the
// Burt-Adelson reduce ([1 4 6 4 1] / 16, separable, rows first, clamped to the edge) of the display
// values and of the weights, to ceil(size / 2).
#include "localexposure/FusionCommon.glsl"

layout(binding = 0) uniform sampler2D uDisplay;
layout(binding = 1) uniform sampler2D uWeight;
layout(binding = 0, rgba32f) writeonly uniform image2D uDisplayOut;
layout(binding = 1, rgba32f) writeonly uniform image2D uWeightOut;
layout(location = 0) uniform ivec2 uFineSize;
layout(location = 1) uniform ivec2 uCoarseSize;

vec4 reduce5(vec4 a, vec4 b, vec4 c, vec4 d, vec4 e)
{
    return vec4(hdFusionReduce5(a.x, b.x, c.x, d.x, e.x), hdFusionReduce5(a.y, b.y, c.y, d.y, e.y),
                hdFusionReduce5(a.z, b.z, c.z, d.z, e.z), hdFusionReduce5(a.w, b.w, c.w, d.w, e.w));
}

vec4 reduceAt(sampler2D plane, ivec2 texel)
{
    ivec2 origin = 2 * texel - ivec2(2);
    vec4 rows[5];
    for (int j = 0; j < 5; ++j) {
        ivec2 at = origin + ivec2(0, j);
        rows[j] = reduce5(fetchClamped(plane, at, uFineSize), fetchClamped(plane, at + ivec2(1, 0), uFineSize),
                          fetchClamped(plane, at + ivec2(2, 0), uFineSize),
                          fetchClamped(plane, at + ivec2(3, 0), uFineSize),
                          fetchClamped(plane, at + ivec2(4, 0), uFineSize));
    }
    return reduce5(rows[0], rows[1], rows[2], rows[3], rows[4]);
}

void main()
{
    ivec2 texel = ivec2(gl_GlobalInvocationID.xy);
    if (any(greaterThanEqual(texel, uCoarseSize)))
        return;
    imageStore(uDisplayOut, texel, reduceAt(uDisplay, texel));
    imageStore(uWeightOut, texel, reduceAt(uWeight, texel));
}
