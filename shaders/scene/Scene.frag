// Scene.frag: the opaque geometry's fragments. Forward path: the surface is shaded here
// (SceneShading.glsl). Deferred path (SCENE_GBUFFER): after the depth pre-pass, only the visible
// fragment of each pixel runs (early depth test GL_EQUAL, a stencil bit keeps the first of exact
// ties, as GL_LESS does in the forward path); it stores the surface's shading inputs in the thin
// G-buffer (GBuffer.glsl) and its emission in the colour target; DeferredLighting.comp shades them.
// Both paths build the surface the same way here: glTF materials add textures (base colour,
// metallic-roughness, tangent-space normal map, emissive, occlusion on the ambient term) and, with
// SCENE_ALPHA_MASK, the alpha cut-out (a separate program, so opaque draws keep early depth testing).
// Output is scene-linear radiance (cd/m²), stored pre-exposed and clamped (PreExposure.glsl); a value
// that clips records its peak. Early fragment tests wherever the shader does not discard: the clip
// note is a side effect (without them the driver would shade hidden fragments too); the results are
// the same, as the shader writes no depth.
#include "scene/PreExposure.glsl"
#include "scene/SceneShading.glsl"
#ifdef SCENE_GBUFFER
#include "scene/GBuffer.glsl"
#endif
#if defined(SCENE_GBUFFER) || !defined(SCENE_ALPHA_MASK)
layout(early_fragment_tests) in;
#endif

layout(location = 0) in vec3 vWorldPosition;
layout(location = 1) in vec3 vNormal;
layout(location = 2) flat in int vMaterial;
layout(location = 3) in vec2 vTexcoord;
layout(location = 4) in vec4 vTangent;

#ifndef SCENE_GBUFFER
layout(location = 0) out vec4 oColor;
#endif

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
    SurfacePoint s;
    s.position = vWorldPosition;
    s.baseColor = material.baseColorRoughness.rgb * baseSample.rgb;
    s.roughness = clamp(material.baseColorRoughness.w * metallicRoughness.g, 0.045, 1.0);
    s.metalness = material.emissionMetalness.w * metallicRoughness.b;

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
    vec3 emission = material.emissionMetalness.rgb * texture(uEmissiveMap, vTexcoord).rgb;
    s.occlusion = 1.0 + params.y * (texture(uOcclusionMap, vTexcoord).r - 1.0);
#ifdef SCENE_GBUFFER
    ivec2 pixel = ivec2(gl_FragCoord.xy);
    imageStore(uColorImage, pixel, vec4(storedRadiance(emission), 1.0));
    noteClippedFragment(emission);
    imageStore(uSurfaceImage, pixel, encodeSurface(vWorldPosition, s.roughness, s.occlusion));
    imageStore(uNormalImage, pixel, vec4(octahedralEncode(n), 0.0, 0.0));
    imageStore(uMaterialImage, pixel, vec4(s.baseColor, s.metalness));
#else
    s.normal = n;
    s.toViewer = normalize(uCameraPosition.xyz - vWorldPosition);
    vec3 radiance = emission + reflectedRadiance(s);
    oColor = vec4(storedRadiance(radiance), 1.0);
#ifndef SCENE_ALPHA_MASK // a discarding shader keeps late tests: its clips are found by the census alone
    noteClippedFragment(radiance);
#endif
#endif
}
