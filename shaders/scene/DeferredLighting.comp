// DeferredLighting.comp: the deferred path's lighting pass: one invocation per pixel reads the thin
// G-buffer (GBuffer.glsl), rebuilds the surface point and shades it with the forward path's own code
// (SceneShading.glsl), adding the emission the G-buffer pass left in the colour target; pixels whose
// depth is still the clear value get the sky (the analytic model with its sun disc, or the
// environment map), as the forward path's sky pass gives them. Why:
// on GPUs whose fragment shading is narrow (data-centre Hopper shades fragments on two graphics
// TPCs but runs compute on every SM) the shadow, sky-light and light-loop work moves to all SMs.
// The result is stored pre-exposed and clamped (PreExposure.glsl), and every workgroup adds its
// pixels to the frame's statistics (clip count, peak) in shared memory, one global atomic each.
// Defines: SCENE_TARGET_FORMAT (rgba16f or rgba32f, the colour target's), SCENE_ENVIRONMENT;
// FUSED_HISTOGRAM (with FUSED_FOVEAL, FUSED_HALF_TARGET): the "fused-lighting" histogram method's
// variant, which also bins every pixel as it is stored (histogram/FusedLighting.glsl; the stored,
// pre-exposed value, binned with the params' weights, which carry 2^-k).
// Limits: 8x8 tiles with no tile light culling (at most 16 point lights, all tested per pixel).
#define PRE_EXPOSURE_WORKGROUP
#include "scene/PreExposure.glsl"
#include "scene/GBuffer.glsl"
#include "scene/SceneShading.glsl"
#include "scene/SkyModel.glsl"
#ifdef FUSED_HISTOGRAM
#include "histogram/FusedLighting.glsl"
#endif

layout(local_size_x = 8, local_size_y = 8) in;

layout(binding = 9) uniform sampler2D uDepth;

// The pixel's radiance (cd/m^2): the sky where no geometry was drawn, else the emission the
// G-buffer pass left plus the light the surface reflects.
vec3 pixelRadiance(ivec2 pixel, ivec2 size)
{
    // The pixel centre's view ray, as the forward sky pass sees it.
    vec2 ndc = (vec2(pixel) + 0.5) / vec2(size) * 2.0 - 1.0;
    vec4 farPoint = uInverseViewProjection * vec4(ndc, 1.0, 1.0);
    vec4 nearPoint = uInverseViewProjection * vec4(ndc, -1.0, 1.0);
    vec3 direction = farPoint.xyz / farPoint.w - nearPoint.xyz / nearPoint.w;

    if (texelFetch(uDepth, pixel, 0).r == 1.0) { // the clear value: no geometry drawn here
#ifdef SCENE_ENVIRONMENT
        vec3 sky = environmentBackground(direction);
#else
        vec3 sky = skyRadiance(direction, true);
#endif
        return sky;
    }
    uvec4 surface = imageLoad(uSurfaceImage, pixel);
    vec4 material = imageLoad(uMaterialImage, pixel);
    vec2 roughnessOcclusion = unpackUnorm2x16(surface.w);
    SurfacePoint s;
    s.position = uintBitsToFloat(surface.xyz);
    s.normal = octahedralDecode(imageLoad(uNormalImage, pixel).xy);
    s.toViewer = normalize(uCameraPosition.xyz - s.position);
    s.baseColor = material.rgb;
    s.metalness = material.a;
    s.roughness = roughnessOcclusion.x;
    s.occlusion = roughnessOcclusion.y;
    vec3 emission = unexposedRadiance(imageLoad(uColorImage, pixel).rgb); // the G-buffer pass stored it
    return emission + reflectedRadiance(s);
}

void main()
{
    const ivec2 pixel = ivec2(gl_GlobalInvocationID.xy);
    const ivec2 size = imageSize(uColorImage);
    const bool inside = all(lessThan(pixel, size));
#ifdef FUSED_HISTOGRAM
    fusedBegin();
#endif
    vec3 radiance = vec3(0.0);
    vec3 stored = vec3(0.0);
    if (inside) {
        radiance = pixelRadiance(pixel, size);
        stored = storedRadiance(radiance);
#ifdef FUSED_HISTOGRAM
        stored = fusedStoredValue(pixel, size, stored);
#endif
        imageStore(uColorImage, pixel, vec4(stored, 1.0));
    }
    noteStoredPixel(inside, radiance); // every invocation: it holds barriers
#ifdef FUSED_HISTOGRAM
    fusedEnd(inside, pixel, size, stored); // every invocation: it holds barriers
#endif
}
