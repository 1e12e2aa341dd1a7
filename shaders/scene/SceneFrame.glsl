// SceneFrame.glsl: the per-frame uniform block shared by the scene's shaders (std140, binding
// kSceneFrameBinding), mirrored by SceneFrameBlock in src/scene/SceneRenderer.cpp. Units: radiance and
// luminance in cd/m², illuminance in lux. Also the material buffer layout. How a radiance is stored
// in the colour target (pre-exposure, clamp, the frame's statistics): PreExposure.glsl.
#ifndef SCENE_FRAME_GLSL
#define SCENE_FRAME_GLSL

#define SCENE_MAX_POINT_LIGHTS 16

struct PointLight
{
    vec4 positionRange;     // xyz position (m), w range (m)
    vec4 intensity;         // rgb intensity (cd), w unused
};

layout(std140, binding = 0) uniform SceneFrame
{
    mat4 uViewProjection;
    mat4 uInverseViewProjection;
    mat4 uSunShadowMatrix;       // world -> shadow map [0,1]^3
    mat4 uSkyOcclusionMatrix;    // world -> top-down occlusion map [0,1]^3
    mat4 uSkyUndersideMatrix;    // world -> bottom-up occlusion map [0,1]^3
    mat4 uSunNearShadowMatrix;   // world -> the near sun cascade [0,1]^3 (fitted to the camera)
    vec4 uCameraPosition;        // xyz
    vec4 uSunDirection;          // xyz towards the sun, w = cos(angular radius)
    vec4 uSunIlluminance;        // rgb lux (colour * illuminance, 0 below the horizon)
    vec4 uSunDisc;               // rgb disc luminance (already clamped), w = 1 to draw the disc
    vec4 uSkyZenith;             // rgb zenith colour (luminance 1), w = zenith luminance
    vec4 uSkyHorizon;            // rgb horizon colour (luminance 1), w = model (0 clear, 1 overcast)
    vec4 uSkyGround;             // rgb luminance shown below the horizon, w = 1 / (f(theta_s) * phi(0))
    vec4 uAmbientOutdoor;        // rgb radiance
    vec4 uAmbientIndoor;         // rgb radiance
    vec4 uShadowParams;          // x shadow texel size (uv), y occlusion texel size (uv), z normal offset (m)
    vec4 uOutputRange;           // x largest value stored (65504 pre-exposed RGBA16F, 60000 plain RGBA16F, 1e12 RGBA32F),
                                 // y 2^k the pre-exposure (1 unless pre-exposed), z 2^-k, w the stored value
                                 // above which a pixel counts as clipped (0: no frame statistics)
    vec4 uNearShadowParams;      // x near cascade texel size (uv), y its normal offset (m), z 1 when drawn
    ivec4 uLightCount;           // x
    PointLight uLights[SCENE_MAX_POINT_LIGHTS];
};

// Materials: three vec4 per material (GpuMaterial in SceneRenderer.cpp).
struct MaterialData
{
    vec4 baseColorRoughness;     // rgb base colour, w perceptual roughness
    vec4 emissionMetalness;      // rgb emitted luminance (cd/m²), w metalness
    vec4 normalOcclusionCutoffAlpha; // x normal-map scale (0: none), y occlusion strength, z alpha cutoff, w alpha
};

// Material textures (units 2-6, a white 1x1 texture where a material has none, so sampling them
// unconditionally leaves untextured materials unchanged).
layout(binding = 2) uniform sampler2D uBaseColorMap;         // sRGB: rgb colour, a coverage
layout(binding = 3) uniform sampler2D uMetallicRoughnessMap; // g roughness, b metalness
layout(binding = 4) uniform sampler2D uNormalMap;            // tangent-space normal
layout(binding = 5) uniform sampler2D uEmissiveMap;          // sRGB
layout(binding = 6) uniform sampler2D uOcclusionMap;         // r ambient occlusion

layout(std430, binding = 0) readonly buffer SceneMaterials
{
    MaterialData uMaterials[];
};

#endif
