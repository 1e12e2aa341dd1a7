// FusionReduce.comp: the fusion pyramid's base (post/localexposure/ExposureFusion.h): for each block of
// uReduction x uReduction frame pixels (the pixels that exist at the right and bottom edges), the mean
// EV relative to middle grey, then the three synthetic exposures' display values (highlights, the
// frame, shadows) and their well-exposedness weights, normalised. Writes display (rgb; a: the EV) and
// weights (rgb). The one pass that reads the frame.
#include "localexposure/FusionCommon.glsl"

layout(binding = 0) uniform sampler2D uFrame;
layout(binding = 0, rgba32f) writeonly uniform image2D uDisplay;
layout(binding = 1, rgba32f) writeonly uniform image2D uWeight;
layout(location = 0) uniform ivec2 uFrameSize;
layout(location = 1) uniform ivec2 uBaseSize;
layout(location = 2) uniform int uReduction;
layout(location = 3) uniform vec3 uLuma;
layout(location = 4) uniform float uEvOffset;
layout(location = 5) uniform vec2 uBracket;  // highlight EV, shadow EV
#ifdef EXPOSURE_FROM_BUFFER
// In the pipeline: the exposure metered on the GPU (FusionMeter.comp); uEvOffset holds the middle grey
// bias, and the offset is fusionEvOffset's (exposure - log2(0.18)) - bias, in the same order.
layout(std430, binding = kBindingFusionExposure) readonly buffer Exposure { float fusionExposure[]; };
#endif

void main()
{
    ivec2 texel = ivec2(gl_GlobalInvocationID.xy);
    if (any(greaterThanEqual(texel, uBaseSize)))
        return;
#ifdef EXPOSURE_FROM_BUFFER
    precise float offset = (fusionExposure[0] - kFusionLog2MiddleGrey) - uEvOffset;
#else
    float offset = uEvOffset;
#endif
    ivec2 begin = texel * uReduction;
    ivec2 end = min(begin + ivec2(uReduction), uFrameSize);
    precise float sum = 0.0;
    for (int y = begin.y; y < end.y; ++y)
        for (int x = begin.x; x < end.x; ++x) {
            vec4 p = texelFetch(uFrame, ivec2(x, y), 0);
            sum = sum + hdFusionPixelEv(p.r, p.g, p.b, uLuma.r, uLuma.g, uLuma.b, offset);
        }
    ivec2 extent = end - begin;
    float ev = hdFusionMean(sum, float(extent.x * extent.y));
    precise float evHighlight = ev - uBracket.x;
    precise float evShadow = ev + uBracket.y;
    vec3 d = vec3(hdFusionEncode(evHighlight), hdFusionEncode(ev), hdFusionEncode(evShadow));
    vec3 w = vec3(hdFusionWeight(d.x), hdFusionWeight(d.y), hdFusionWeight(d.z));
    precise float total = (w.x + w.y) + w.z;
    vec3 normalised = vec3(hdDivide(w.x, total), hdDivide(w.y, total), hdDivide(w.z, total));
    imageStore(uDisplay, texel, vec4(d, ev));
    imageStore(uWeight, texel, vec4(normalised, 0.0));
}
