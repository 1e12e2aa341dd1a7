// Scene.frag: physically based shading of the opaque geometry: Lambert diffuse plus GGX specular
// (Smith height-correlated visibility, Schlick Fresnel) for the sun (shadow-mapped, 3x3 PCF) and up
// to 16 unshadowed point lights, a constant ambient term chosen by the top-down sky-occlusion map
// (outdoor under open sky, indoor under cover), and emission. glTF materials add textures (base
// colour, metallic-roughness, tangent-space normal map, emissive, occlusion on the ambient term) and,
// with SCENE_ALPHA_MASK, the alpha cut-out (a separate program, so opaque draws keep early depth
// testing). With SCENE_ENVIRONMENT, image-based light (EnvironmentLighting.glsl) replaces the
// outdoor ambient constant. Output is scene-linear radiance (cd/m²) clamped to the half-float range.
// Limits: no indirect light besides the ambient constants or the environment, no point-light shadows.
#include "scene/SceneFrame.glsl"
#ifdef SCENE_ENVIRONMENT
#include "scene/EnvironmentLighting.glsl"
#endif

layout(location = 0) in vec3 vWorldPosition;
layout(location = 1) in vec3 vNormal;
layout(location = 2) flat in int vMaterial;
layout(location = 3) in vec2 vTexcoord;
layout(location = 4) in vec4 vTangent;

layout(binding = 0) uniform sampler2DShadow uSunShadowMap;
layout(binding = 1) uniform sampler2DShadow uSkyOcclusionMap;

layout(location = 0) out vec4 oColor;

const float kPi = 3.14159265;

float ggxDistribution(float nDotH, float alpha)
{
    float a2 = alpha * alpha;
    float d = nDotH * nDotH * (a2 - 1.0) + 1.0;
    return a2 / (kPi * d * d);
}

float smithVisibility(float nDotV, float nDotL, float alpha)
{
    float a2 = alpha * alpha;
    float v = nDotL * sqrt(nDotV * nDotV * (1.0 - a2) + a2);
    float l = nDotV * sqrt(nDotL * nDotL * (1.0 - a2) + a2);
    return 0.5 / max(v + l, 1e-6);
}

vec3 schlickFresnel(vec3 f0, float vDotH)
{
    return f0 + (1.0 - f0) * pow(1.0 - vDotH, 5.0);
}

// BRDF times cos(theta_l): multiply by illuminance (lux) to get radiance (cd/m²).
vec3 shade(vec3 n, vec3 v, vec3 l, vec3 diffuseColor, vec3 f0, float alpha)
{
    float nDotL = dot(n, l);
    if (nDotL <= 0.0)
        return vec3(0.0);
    float nDotV = max(dot(n, v), 1e-4);
    vec3 h = normalize(v + l);
    float nDotH = max(dot(n, h), 0.0);
    vec3 specular = ggxDistribution(nDotH, alpha) * smithVisibility(nDotV, nDotL, alpha) *
                    schlickFresnel(f0, max(dot(v, h), 0.0));
    return (diffuseColor / kPi + specular) * nDotL;
}

// Fraction of a 3x3 neighbourhood of the map that passes the depth comparison (each tap is itself a
// bilinear 2x2 comparison).
float filteredVisibility(sampler2DShadow map, vec3 coord, float texel)
{
    if (any(lessThan(coord, vec3(0.0))) || any(greaterThan(coord, vec3(1.0))))
        return 1.0; // outside the map: nothing there to occlude
    float sum = 0.0;
    for (int y = -1; y <= 1; ++y)
        for (int x = -1; x <= 1; ++x)
            sum += texture(map, coord + vec3(vec2(x, y) * texel, 0.0));
    return sum / 9.0;
}

void main()
{
    MaterialData material = uMaterials[vMaterial];
    vec4 params = material.normalOcclusionCutoffAlpha;
    vec4 baseSample = texture(uBaseColorMap, vTexcoord);
#ifdef SCENE_ALPHA_MASK
    if (params.w * baseSample.a < params.z)
        discard;
#endif
    vec4 metallicRoughness = texture(uMetallicRoughnessMap, vTexcoord);
    vec3 baseColor = material.baseColorRoughness.rgb * baseSample.rgb;
    float roughness = clamp(material.baseColorRoughness.w * metallicRoughness.g, 0.045, 1.0);
    float metalness = material.emissionMetalness.w * metallicRoughness.b;
    float alpha = roughness * roughness;
    vec3 diffuseColor = baseColor * (1.0 - metalness);
    vec3 f0 = mix(vec3(0.04), baseColor, metalness);

    vec3 n = normalize(vNormal);
    if (!gl_FrontFacing)
        n = -n; // double-sided materials: the back face's own normal
    vec3 tangentNormal = texture(uNormalMap, vTexcoord).xyz * 2.0 - 1.0;
    if (params.x != 0.0 && vTangent.w != 0.0) {
        vec3 t = vTangent.xyz - n * dot(n, vTangent.xyz);
        if (dot(t, t) > 1e-12) {
            t = normalize(t);
            vec3 b = cross(n, t) * vTangent.w;
            vec3 mapped = mat3(t, b, n) * vec3(tangentNormal.xy * params.x, tangentNormal.z);
            if (dot(mapped, mapped) > 1e-12)
                n = normalize(mapped);
        }
    }
    vec3 v = normalize(uCameraPosition.xyz - vWorldPosition);

    vec3 radiance = material.emissionMetalness.rgb * texture(uEmissiveMap, vTexcoord).rgb;
    float occlusion = 1.0 + params.y * (texture(uOcclusionMap, vTexcoord).r - 1.0);

    vec3 sunBrdf = shade(n, v, uSunDirection.xyz, diffuseColor, f0, alpha);
    if (any(greaterThan(sunBrdf, vec3(0.0)))) {
        // Normal offset grows with the slope to the light, the usual cure for shadow acne.
        float nDotL = clamp(dot(n, uSunDirection.xyz), 0.0, 1.0);
        vec3 offsetPosition = vWorldPosition + n * uShadowParams.z * (1.0 - nDotL + 0.2);
        vec4 shadowCoord = uSunShadowMatrix * vec4(offsetPosition, 1.0);
        float visibility = filteredVisibility(uSunShadowMap, shadowCoord.xyz, uShadowParams.x);
        radiance += sunBrdf * uSunIlluminance.rgb * visibility;
    }

    for (int i = 0; i < uLightCount.x; ++i) {
        vec3 toLight = uLights[i].positionRange.xyz - vWorldPosition;
        float distance2 = max(dot(toLight, toLight), 1e-4);
        float range = uLights[i].positionRange.w;
        float falloff = clamp(1.0 - distance2 * distance2 / (range * range * range * range), 0.0, 1.0);
        vec3 illuminance = uLights[i].intensity.rgb * falloff * falloff / distance2;
        radiance += shade(n, v, toLight * inversesqrt(distance2), diffuseColor, f0, alpha) * illuminance;
    }

    // Open sky above (looked up 0.15 m off the surface so outer walls count as outdoor).
    vec4 occlusionCoord = uSkyOcclusionMatrix * vec4(vWorldPosition + n * 0.15, 1.0);
    float openSky = filteredVisibility(uSkyOcclusionMap, occlusionCoord.xyz, uShadowParams.y);
#ifdef SCENE_ENVIRONMENT
    // Image-based light replaces the outdoor constant; covered points keep the indoor one.
    radiance += mix((diffuseColor + f0 * (1.0 - roughness)) * uAmbientIndoor.rgb,
                    environmentRadiance(n, v, diffuseColor, f0, roughness), openSky) * occlusion;
#else
    float skyFacing = 0.6 + 0.4 * n.y; // downward-facing surfaces see the ground, not the sky
    vec3 ambient = mix(uAmbientIndoor.rgb, uAmbientOutdoor.rgb * skyFacing, openSky);
    radiance += (diffuseColor + f0 * (1.0 - roughness)) * ambient * occlusion;
#endif

    oColor = vec4(clampRadiance(radiance), 1.0);
}
