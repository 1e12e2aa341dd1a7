// Shadow.frag: fragment stage of the depth-only passes (depth comes from rasterisation). With
// SCENE_ALPHA_MASK (glTF alphaMode MASK) the cut-out parts of a material write no depth, so light
// passes through them as it does in the opaque pass.
#ifdef SCENE_ALPHA_MASK
#include "scene/SceneFrame.glsl"

layout(location = 0) in vec2 vTexcoord;
layout(location = 1) flat in int vMaterial;
#endif

void main()
{
#ifdef SCENE_ALPHA_MASK
    vec4 params = uMaterials[vMaterial].normalOcclusionCutoffAlpha;
    if (params.w * texture(uBaseColorMap, vTexcoord).a < params.z)
        discard;
#endif
}
