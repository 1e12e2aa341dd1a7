// EnvironmentPrefilter.comp: one mip level of the GGX-prefiltered radiance map (split sum, n = v =
// r): importance-sampled GGX half vectors weighted by n.l (Karis 2013), each sample read from the
// source mip whose texel solid angle matches the sample's (filtered importance sampling, Krivanek
// and Colbert 2008, without their +1 level bias, which blurred a linear test sky 4% off at
// roughness 1), so few samples give a smooth result. Roughness 0 is a plain lookup.
#include "scene/EnvironmentSampling.glsl"

layout(local_size_x = 8, local_size_y = 8) in;

layout(binding = 0) uniform sampler2D uSource;
layout(rgba32f, binding = 0) uniform writeonly image2D uPrefiltered;
layout(location = 0) uniform float uRoughness;
layout(location = 1) uniform int uSampleCount;

void main()
{
    ivec2 size = imageSize(uPrefiltered);
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (any(greaterThanEqual(p, size)))
        return;
    vec3 n = equirectDirection((vec2(p) + 0.5) / vec2(size));
    vec2 sourceSize = vec2(textureSize(uSource, 0));
    float maxLevel = float(textureQueryLevels(uSource) - 1);
    vec3 result;
    if (uRoughness <= 0.0) {
        // A mirror: the source averaged over this output texel's footprint.
        result = textureLod(uSource, equirectUv(n), clamp(log2(sourceSize.x / float(size.x)), 0.0, maxLevel)).rgb;
    } else {
        float alpha = uRoughness * uRoughness;
        float sourceTexelSolidAngle = 4.0 * ENVIRONMENT_PI / (sourceSize.x * sourceSize.y);
        mat3 frame = frameAround(n);
        vec3 sum = vec3(0.0);
        float weight = 0.0;
        for (int i = 0; i < uSampleCount; ++i) {
            vec3 h = frame * sampleGgxHalfVector(hammersley(uint(i), uint(uSampleCount)), alpha);
            float nDotH = dot(n, h);
            vec3 l = 2.0 * nDotH * h - n;
            float nDotL = dot(n, l);
            if (nDotL <= 0.0)
                continue;
            // pdf(l) = D * n.h / (4 v.h) = D / 4 since v = n.
            float pdf = ggxD(nDotH, alpha) * 0.25;
            float sampleSolidAngle = 1.0 / (float(uSampleCount) * pdf + 1e-6);
            float level = clamp(0.5 * log2(sampleSolidAngle / sourceTexelSolidAngle), 0.0, maxLevel);
            sum += textureLod(uSource, equirectUv(l), level).rgb * nDotL;
            weight += nDotL;
        }
        result = sum / max(weight, 1e-6);
    }
    imageStore(uPrefiltered, p, vec4(result, 1.0));
}
