// EnvironmentBrdf.comp: the split-sum BRDF table: for n.v (x) and perceptual roughness (y) at texel
// centres, the scale A and bias B with integral(f * cos) = F0 * A + B for the renderer's GGX with
// Smith height-correlated visibility and Schlick Fresnel (Scene.frag), by GGX importance sampling.
#include "scene/EnvironmentSampling.glsl"

layout(local_size_x = 8, local_size_y = 8) in;

layout(rg16f, binding = 0) uniform writeonly image2D uBrdf;
layout(location = 0) uniform int uSampleCount;

float smithVisibility(float nDotV, float nDotL, float alpha)
{
    float a2 = alpha * alpha;
    float v = nDotL * sqrt(nDotV * nDotV * (1.0 - a2) + a2);
    float l = nDotV * sqrt(nDotL * nDotL * (1.0 - a2) + a2);
    return 0.5 / max(v + l, 1e-6);
}

void main()
{
    ivec2 size = imageSize(uBrdf);
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (any(greaterThanEqual(p, size)))
        return;
    float nDotV = (float(p.x) + 0.5) / float(size.x);
    float roughness = (float(p.y) + 0.5) / float(size.y);
    float alpha = roughness * roughness;
    vec3 v = vec3(sqrt(1.0 - nDotV * nDotV), 0.0, nDotV);
    vec2 sum = vec2(0.0);
    for (int i = 0; i < uSampleCount; ++i) {
        vec3 h = sampleGgxHalfVector(hammersley(uint(i), uint(uSampleCount)), alpha);
        float vDotH = dot(v, h);
        vec3 l = 2.0 * vDotH * h - v;
        if (l.z <= 0.0 || vDotH <= 0.0)
            continue;
        // f * cos / pdf with pdf = D * n.h / (4 v.h): D cancels.
        float weight = smithVisibility(nDotV, l.z, alpha) * 4.0 * vDotH * l.z / h.z;
        float fresnel = pow(clamp(1.0 - vDotH, 0.0, 1.0), 5.0); // no NaN where vDotH rounds above 1
        sum += vec2((1.0 - fresnel) * weight, fresnel * weight);
    }
    imageStore(uBrdf, p, vec4(sum / float(uSampleCount), 0.0, 0.0));
}
