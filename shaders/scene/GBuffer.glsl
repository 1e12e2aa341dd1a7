// GBuffer.glsl: the deferred path's thin G-buffer (32 bytes per pixel besides depth and the colour
// target), stored by Scene.frag with SCENE_GBUFFER through image stores and read by
// DeferredLighting.comp:
//   surface  RGBA32UI: xyz the world position as float bits, w roughness and occlusion as a unorm16 pair;
//   normal   RG32F: the shading normal, octahedral;
//   material RGBA16 (unorm): linear base colour, metalness;
//   colour   the target itself receives the emission, to which the lighting pass adds.
// Pixels whose depth stayed at the clear value (1) are sky; the G-buffer there is stale, never read.
// Why image stores instead of colour attachments: on the H200 the few graphics units write render
// targets at about 45 GB/s (PERF.md 0.4), so 48 bytes per fragment through them cost more than
// shading did; image stores go through the SMs' memory path like compute.
// Why these encodings: the position and the normal stay exact 32-bit floats because shading is not
// continuous in them: a shadow or sky-occlusion comparison flips when a point crosses a stored depth,
// and a position rebuilt from the distance along the view ray (1e-7 relative error) did flip single
// pixels by several sRGB steps; GGX lobes as narrow as roughness 0.045 also magnify any normal
// error. Base colour, metalness, roughness and occlusion lie in [0, 1], where 16-bit unorm errs by
// under 1e-5.
#ifndef GBUFFER_GLSL
#define GBUFFER_GLSL

layout(binding = 0, SCENE_TARGET_FORMAT) uniform image2D uColorImage;
layout(binding = 1, rgba32ui) uniform uimage2D uSurfaceImage;
layout(binding = 2, rg32f) uniform image2D uNormalImage;
layout(binding = 3, rgba16) uniform image2D uMaterialImage;

vec2 signNotZero(vec2 v)
{
    return vec2(v.x >= 0.0 ? 1.0 : -1.0, v.y >= 0.0 ? 1.0 : -1.0);
}

// Octahedral map of the unit sphere onto [-1, 1]^2 (Cigolle et al. 2014, "A Survey of Efficient
// Representations for Independent Unit Vectors").
vec2 octahedralEncode(vec3 n)
{
    vec2 p = n.xy / (abs(n.x) + abs(n.y) + abs(n.z));
    return n.z >= 0.0 ? p : (1.0 - abs(p.yx)) * signNotZero(p);
}

vec3 octahedralDecode(vec2 p)
{
    vec3 n = vec3(p, 1.0 - abs(p.x) - abs(p.y));
    if (n.z < 0.0)
        n.xy = (1.0 - abs(n.yx)) * signNotZero(n.xy);
    return normalize(n);
}

uvec4 encodeSurface(vec3 position, float roughness, float occlusion)
{
    return uvec4(floatBitsToUint(position), packUnorm2x16(vec2(roughness, occlusion)));
}

#endif
