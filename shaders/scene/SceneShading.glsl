// SceneShading.glsl: the scene's surface shading, shared by the forward path (Scene.frag shades each
// fragment) and the deferred path (Scene.frag with SCENE_GBUFFER writes the surface's inputs,
// DeferredLighting.comp shades them per pixel), so both paths evaluate the same code: Lambert diffuse
// plus GGX specular (Smith height-correlated visibility, Schlick Fresnel) for the sun (two shadow
// cascades, 5x5 tent PCF) and up to 16 unshadowed point lights; an ambient term blended from the
// indoor to the outdoor constant (or, with SCENE_ENVIRONMENT, the environment's image-based light) by
// the open sky fraction marched over the two sky-occlusion maps, the indoor one raised inside a room
// by its indirect light through the openings (InteriorLight.glsl); emission. Everything here samples
// with explicit or base-level LOD, so it runs unchanged in a compute shader.
// Limits: indirect light only as the ambient constants, the environment and an interior's estimate;
// no point-light shadows.
#ifndef SCENE_SHADING_GLSL
#define SCENE_SHADING_GLSL

#include "scene/SceneFrame.glsl"
#ifdef SCENE_ENVIRONMENT
#include "scene/EnvironmentLighting.glsl"
#endif
#include "scene/InteriorLight.glsl"

layout(binding = 0) uniform sampler2DShadow uSunShadowMap;
layout(binding = 1) uniform sampler2DShadow uSkyOcclusionMap;
layout(binding = 7) uniform sampler2DShadow uSkyUndersideMap;
layout(binding = 8) uniform sampler2DShadow uSunNearShadowMap;

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

// vDotH may round to just above 1 when the light lies behind the viewer on the view ray (v = l, the
// opposition point); pow of the negative base is NaN, which stored as 0 made a black speck there.
vec3 schlickFresnel(vec3 f0, float vDotH)
{
    return f0 + (1.0 - f0) * pow(clamp(1.0 - vDotH, 0.0, 1.0), 5.0);
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

// Sun visibility: a 5x5-texel tent filter (Castaño's separable tent, nine bilinear 2x2 comparison
// taps whose weights and sub-texel offsets reproduce the tent exactly). The tent is smooth and has no
// per-pixel noise, so a straight shadow edge fades monotonically over about four texels (about the
// sun's physical penumbra a few metres behind a window sill at 2-3 cm texels) with no staircase.
float tentVisibility(sampler2DShadow map, vec3 coord, float texel)
{
    if (any(lessThan(coord, vec3(0.0))) || any(greaterThan(coord, vec3(1.0))))
        return 1.0; // outside the map: nothing there to occlude
    float mapSize = 1.0 / texel;
    vec2 uv = coord.xy * mapSize;
    vec2 base = floor(uv + 0.5);
    vec2 st = uv + 0.5 - base;
    base = (base - 0.5) * texel;
    // Per axis: three bilinear taps with weights w and offsets u (Castaño 2013, 5x5 kernel).
    vec3 wx = vec3(4.0 - 3.0 * st.x, 7.0, 1.0 + 3.0 * st.x);
    vec3 wy = vec3(4.0 - 3.0 * st.y, 7.0, 1.0 + 3.0 * st.y);
    vec3 ux = vec3((3.0 - 2.0 * st.x) / wx.x - 2.0, (3.0 + st.x) / wx.y, st.x / wx.z + 2.0);
    vec3 uy = vec3((3.0 - 2.0 * st.y) / wy.x - 2.0, (3.0 + st.y) / wy.y, st.y / wy.z + 2.0);
    float sum = 0.0;
    for (int y = 0; y < 3; ++y)
        for (int x = 0; x < 3; ++x)
            sum += wx[x] * wy[y] * texture(map, vec3(base + vec2(ux[x], uy[y]) * texel, coord.z));
    return sum / 144.0;
}

// Two cascades: the near map (fitted to the camera) where it covers the point, faded into the far
// map (the whole shadow bounds) over the outer 15% of the near map, so there is no seam.
// `slopeOffset` scales the normal offsets: the rasteriser's slope-scaled polygon offset biases the
// maps' depth, this keeps the tent's outer taps off the receiver itself.
float sunVisibility(vec3 position, vec3 n, float slopeOffset)
{
    float nearWeight = 0.0;
    float nearVisibility = 1.0;
    if (uNearShadowParams.z > 0.5) {
        vec3 nearCoord = (uSunNearShadowMatrix * vec4(position + n * uNearShadowParams.y * slopeOffset, 1.0)).xyz;
        vec2 inset = min(nearCoord.xy, 1.0 - nearCoord.xy);
        float margin = 3.0 * uNearShadowParams.x; // the tent reaches 2.5 texels
        nearWeight = clamp((min(inset.x, inset.y) - margin) / 0.15, 0.0, 1.0);
        if (nearCoord.z < 0.0 || nearCoord.z > 1.0)
            nearWeight = 0.0;
        if (nearWeight > 0.0)
            nearVisibility = tentVisibility(uSunNearShadowMap, nearCoord, uNearShadowParams.x);
    }
    if (nearWeight >= 1.0)
        return nearVisibility;
    vec3 farCoord = (uSunShadowMatrix * vec4(position + n * uShadowParams.z * slopeOffset, 1.0)).xyz;
    return mix(tentVisibility(uSunShadowMap, farCoord, uShadowParams.x), nearVisibility, nearWeight);
}

// 1 where `p` is free space: above the casters' top surface (top-down map) or below their underside
// (bottom-up map); between the two it counts as solid. Bilinear comparisons make it soft.
float freeSpace(vec3 p)
{
    vec3 top = (uSkyOcclusionMatrix * vec4(p, 1.0)).xyz;
    if (any(lessThan(top, vec3(0.0))) || any(greaterThan(top, vec3(1.0))))
        return 1.0; // outside the maps: nothing there
    float aboveTop = texture(uSkyOcclusionMap, top);
    if (aboveTop >= 1.0)
        return 1.0;
    vec3 bottom = (uSkyUndersideMatrix * vec4(p, 1.0)).xyz;
    float belowUnderside = texture(uSkyUndersideMap, bottom);
    return 1.0 - (1.0 - aboveTop) * (1.0 - belowUnderside);
}

// Cosine-weighted fraction of the sky that `position` sees: nine rays (zenith, four at 60 and four at
// 25 degrees elevation) marched through the two-layer occlusion maps of everything that casts
// shadows. Rays escape from under a tree crown or an eave but not from a roofed room, so a crown's
// underside gets sky light while the room stays dark. Downward-facing points weigh every ray about
// alike. Limits: two layers (a room under a tree counts its gap as solid), three steps per ray.
float skyOpenness(vec3 position, vec3 n)
{
    // A point in an enclosed space (a roofed room counts as solid from its floor's underside to its
    // roof) sees no sky: most indoor pixels stop here after two taps.
    vec3 origin = position + n * 0.1;
    if (freeSpace(origin) <= 0.0)
        return 0.0;
    const float kSteps[3] = float[](0.4, 1.2, 4.0); // metres along each ray
    float open = 0.0;
    float weight = 0.0;
    for (int i = 0; i < 9; ++i) {
        float elevation = i == 0 ? 1.5707963 : (i < 5 ? 1.0471976 : 0.4363323);
        float azimuth = float(i) * 1.5707963 + (i < 5 ? 0.0 : 0.7853982);
        vec3 d = vec3(cos(elevation) * cos(azimuth), sin(elevation), cos(elevation) * sin(azimuth));
        float w = max(dot(n, d), 0.0) + 0.05;
        float visible = 1.0;
        for (int s = 0; s < 3 && visible > 0.0; ++s) // a blocked ray needs no further steps
            visible = min(visible, freeSpace(origin + d * kSteps[s]));
        open += w * visible;
        weight += w;
    }
    return open / weight;
}

// Directional albedo of the GGX specular lobe under uniform light (Karis 2014's fit of the split-sum
// table): F0 scale and bias. Keeps rough metals lit by the ambient instead of black.
vec2 ambientSpecularScaleBias(float nDotV, float roughness)
{
    const vec4 c0 = vec4(-1.0, -0.0275, -0.572, 0.022);
    const vec4 c1 = vec4(1.0, 0.0425, 1.04, -0.04);
    vec4 r = roughness * c0 + c1;
    float a004 = min(r.x * r.x, exp2(-9.28 * nDotV)) * r.x + r.y;
    return vec2(-1.04, 1.04) * a004 + r.zw;
}

// What shading needs to know about a visible surface point; the G-buffer stores exactly this.
struct SurfacePoint
{
    vec3 position;   // world (m)
    vec3 normal;     // unit, facing the viewer's side, normal map applied
    vec3 toViewer;   // unit
    vec3 baseColor;  // linear
    float roughness; // perceptual, already clamped to [0.045, 1]
    float metalness;
    float occlusion; // ambient occlusion factor (1: none)
};

// Reflected radiance (cd/m²) of `s` under the sun, the point lights and the ambient (no emission).
vec3 reflectedRadiance(SurfacePoint s)
{
    vec3 n = s.normal;
    vec3 v = s.toViewer;
    float alpha = s.roughness * s.roughness;
    vec3 diffuseColor = s.baseColor * (1.0 - s.metalness);
    vec3 f0 = mix(vec3(0.04), s.baseColor, s.metalness);

    vec3 radiance = vec3(0.0);
    vec3 sunBrdf = shade(n, v, uSunDirection.xyz, diffuseColor, f0, alpha);
    if (any(greaterThan(sunBrdf, vec3(0.0)))) {
        // Normal offset grows with the slope to the light, the usual cure for shadow acne.
        float nDotL = clamp(dot(n, uSunDirection.xyz), 0.0, 1.0);
        float visibility = sunVisibility(s.position, n, 0.3 + sqrt(1.0 - nDotL * nDotL));
        radiance += sunBrdf * uSunIlluminance.rgb * visibility;
    }

    for (int i = 0; i < uLightCount.x; ++i) {
        vec3 toLight = uLights[i].positionRange.xyz - s.position;
        float distance2 = max(dot(toLight, toLight), 1e-4);
        float range = uLights[i].positionRange.w;
        float falloff = clamp(1.0 - distance2 * distance2 / (range * range * range * range), 0.0, 1.0);
        vec3 illuminance = uLights[i].intensity.rgb * falloff * falloff / distance2;
        radiance += shade(n, v, toLight * inversesqrt(distance2), diffuseColor, f0, alpha) * illuminance;
    }

    float openSky = skyOpenness(s.position, n);
    vec2 specularScaleBias = ambientSpecularScaleBias(max(dot(n, v), 1e-4), s.roughness);
    vec3 ambientReflectance = diffuseColor + f0 * specularScaleBias.x + specularScaleBias.y;
    // Covered points: the indoor constant plus, inside an interior's room, its indirect light.
    vec3 indoor = uAmbientIndoor.rgb + interiorIndirectRadiance(s.position, n);
#ifdef SCENE_ENVIRONMENT
    // Image-based light replaces the outdoor constant.
    radiance += mix(ambientReflectance * indoor,
                    environmentRadiance(n, v, diffuseColor, f0, s.roughness), openSky) * s.occlusion;
#else
    float skyFacing = 0.6 + 0.4 * n.y; // downward-facing surfaces see the ground, not the sky
    vec3 ambient = mix(indoor, uAmbientOutdoor.rgb * skyFacing, openSky);
    radiance += ambientReflectance * ambient * s.occlusion;
#endif
    return radiance;
}

#endif
