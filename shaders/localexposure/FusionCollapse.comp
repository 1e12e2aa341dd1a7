// FusionCollapse.comp: one level of the fusion pyramid's collapse (post/localexposure/ExposureFusion.h),
// coarsest first. With a coarser level: R = sum_i W_i (D_i - expand(D'_i)) + expand(R'), the Laplacian
// of each exposure blended by its Gaussian-pyramid weight plus the expanded coarser result (expand:
// [1 6 1] / 8 at even, [1 1] / 2 at odd positions, rows first, clamped); at the coarsest level
// R = sum_i W_i D_i. At the base (uFinal) it writes the log2 adjustment instead of R: the decoded
// fused EV minus the block's EV, within the bracket.
#include "localexposure/FusionCommon.glsl"

layout(binding = 0) uniform sampler2D uDisplay;
layout(binding = 1) uniform sampler2D uWeight;
layout(binding = 2) uniform sampler2D uCoarseDisplay;
layout(binding = 3) uniform sampler2D uCoarseCollapsed;
layout(binding = 0, r32f) writeonly uniform image2D uOut;
layout(location = 0) uniform ivec2 uSize;
layout(location = 1) uniform ivec2 uCoarseSize;
layout(location = 2) uniform int uHasCoarser;
layout(location = 3) uniform int uFinal;
layout(location = 4) uniform vec2 uBracket;  // highlight EV, shadow EV

vec4 expandRow(sampler2D plane, int x, int row)
{
    if ((x & 1) == 0) {
        int c = x >> 1;
        vec4 a = fetchClamped(plane, ivec2(c - 1, row), uCoarseSize);
        vec4 b = fetchClamped(plane, ivec2(c, row), uCoarseSize);
        vec4 d = fetchClamped(plane, ivec2(c + 1, row), uCoarseSize);
        return vec4(hdFusionExpandEven(a.x, b.x, d.x), hdFusionExpandEven(a.y, b.y, d.y),
                    hdFusionExpandEven(a.z, b.z, d.z), hdFusionExpandEven(a.w, b.w, d.w));
    }
    int c = (x - 1) >> 1;
    vec4 a = fetchClamped(plane, ivec2(c, row), uCoarseSize);
    vec4 b = fetchClamped(plane, ivec2(c + 1, row), uCoarseSize);
    return vec4(hdFusionExpandOdd(a.x, b.x), hdFusionExpandOdd(a.y, b.y), hdFusionExpandOdd(a.z, b.z),
                hdFusionExpandOdd(a.w, b.w));
}

vec4 expandAt(sampler2D plane, ivec2 texel)
{
    if ((texel.y & 1) == 0) {
        int c = texel.y >> 1;
        vec4 a = expandRow(plane, texel.x, c - 1);
        vec4 b = expandRow(plane, texel.x, c);
        vec4 d = expandRow(plane, texel.x, c + 1);
        return vec4(hdFusionExpandEven(a.x, b.x, d.x), hdFusionExpandEven(a.y, b.y, d.y),
                    hdFusionExpandEven(a.z, b.z, d.z), hdFusionExpandEven(a.w, b.w, d.w));
    }
    int c = (texel.y - 1) >> 1;
    vec4 a = expandRow(plane, texel.x, c);
    vec4 b = expandRow(plane, texel.x, c + 1);
    return vec4(hdFusionExpandOdd(a.x, b.x), hdFusionExpandOdd(a.y, b.y), hdFusionExpandOdd(a.z, b.z),
                hdFusionExpandOdd(a.w, b.w));
}

void main()
{
    ivec2 texel = ivec2(gl_GlobalInvocationID.xy);
    if (any(greaterThanEqual(texel, uSize)))
        return;
    vec4 d = texelFetch(uDisplay, texel, 0);
    vec4 w = texelFetch(uWeight, texel, 0);
    precise float collapsed;
    if (uHasCoarser != 0) {
        vec4 up = expandAt(uCoarseDisplay, texel);
        float upCollapsed = expandAt(uCoarseCollapsed, texel).r;
        precise vec3 lap = d.xyz - up.xyz;
        precise float detail = (w.x * lap.x + w.y * lap.y) + w.z * lap.z;
        collapsed = detail + upCollapsed;
    } else {
        collapsed = (w.x * d.x + w.y * d.y) + w.z * d.z;
    }
    float result = uFinal != 0 ? hdFusionAdjustment(collapsed, d.w, uBracket.x, uBracket.y) : collapsed;
    imageStore(uOut, texel, vec4(result, 0.0, 0.0, 0.0));
}
