// EnvironmentLighting.glsl: the scene's image-based lighting lookups (split-sum): diffuse from the
// irradiance map, specular from the roughness-indexed prefiltered map times the BRDF table's
// F0 scale and bias. Bindings match scene::EnvironmentLighting (src/scene/EnvironmentLighting.h).
#ifndef ENVIRONMENT_LIGHTING_GLSL
#define ENVIRONMENT_LIGHTING_GLSL

#include "scene/EnvironmentSampling.glsl"
#include "scene/SceneFrame.glsl"

layout(std140, binding = 5) uniform EnvironmentFrame
{
    vec4 uEnvironmentRotation; // x cos(yaw), y sin(yaw), z last prefiltered level,
                               // w cos(radius of the map's masked sun cone about uSunDirection), 2: none
};

layout(binding = 12) uniform sampler2D uEnvironmentIrradiance;
layout(binding = 13) uniform sampler2D uEnvironmentSpecular;
layout(binding = 14) uniform sampler2D uEnvironmentBrdf;
layout(binding = 15) uniform sampler2D uEnvironmentBackground;

// World direction -> the map's frame (the map is turned by its yaw about +Y).
vec2 environmentUv(vec3 worldDirection)
{
    float c = uEnvironmentRotation.x;
    float s = uEnvironmentRotation.y;
    vec3 d = vec3(worldDirection.x * c + worldDirection.z * s, worldDirection.y,
                  worldDirection.z * c - worldDirection.x * s);
    return equirectUv(d);
}

// The map as the background. While the analytic sun is the key light, the map's own sun (inside the
// cone the lighting copy masks) is replaced by the sky at the cone's rim along the same bearing, and
// the analytic disc is drawn where uSunDisc asks for it: the visible sun is the one that lights the
// scene, and drawSunDisc = false removes it from view.
vec3 environmentBackground(vec3 worldDirection)
{
    vec3 d = normalize(worldDirection);
    vec3 sun = uSunDirection.xyz;
    float cosToSun = dot(d, sun);
    if (cosToSun >= uEnvironmentRotation.w) {
        if (uSunDisc.w > 0.5 && cosToSun >= uSunDirection.w)
            return uSunDisc.rgb;
        vec3 across = d - cosToSun * sun;
        float acrossLength = length(across);
        // Any bearing at the very centre; normalize(sun x up) unless the sun is at the zenith.
        vec3 bearing = acrossLength > 1e-6 ? across / acrossLength
                                           : normalize(abs(sun.y) < 0.99 ? cross(sun, vec3(0, 1, 0)) : vec3(1, 0, 0));
        // One map texel beyond the rim, so bilinear filtering takes nothing from inside the cone.
        float rim = acos(clamp(uEnvironmentRotation.w, -1.0, 1.0)) +
                    3.14159265 / float(textureSize(uEnvironmentBackground, 0).y);
        d = cos(rim) * sun + sin(rim) * bearing;
    }
    return textureLod(uEnvironmentBackground, environmentUv(d), 0.0).rgb;
}

// Outgoing radiance towards `v` from the environment's light: Lambert diffuse plus GGX specular.
vec3 environmentRadiance(vec3 n, vec3 v, vec3 diffuseColor, vec3 f0, float roughness)
{
    float nDotV = clamp(dot(n, v), 1e-4, 1.0);
    vec3 r = reflect(-v, n);
    vec3 irradiance = textureLod(uEnvironmentIrradiance, environmentUv(n), 0.0).rgb;
    vec3 prefiltered = textureLod(uEnvironmentSpecular, environmentUv(r), roughness * uEnvironmentRotation.z).rgb;
    vec2 brdf = textureLod(uEnvironmentBrdf, vec2(nDotV, roughness), 0.0).rg;
    return diffuseColor * irradiance + prefiltered * (f0 * brdf.x + brdf.y);
}

#endif
