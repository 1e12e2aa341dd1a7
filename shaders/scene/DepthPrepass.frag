// DepthPrepass.frag: the camera's depth-only pre-pass (deferred path), with Scene.vert's interface.
// Depth comes from rasterisation; with SCENE_ALPHA_MASK the cut-out parts write no depth, exactly as
// the G-buffer pass would discard them. Scene.vert's gl_Position is invariant, so the G-buffer pass
// that follows can test GL_EQUAL and write each visible pixel once.
#ifdef SCENE_ALPHA_MASK
#include "scene/SceneFrame.glsl"

layout(location = 2) flat in int vMaterial;
layout(location = 3) in vec2 vTexcoord;
#endif

void main()
{
#ifdef SCENE_ALPHA_MASK
    vec4 params = uMaterials[vMaterial].normalOcclusionCutoffAlpha;
    if (params.w * texture(uBaseColorMap, vTexcoord).a < params.z)
        discard;
#endif
}
