// Shadow.vert: depth-only transform for the sun shadow map and the top-down sky-occlusion map (the
// matrix is a uniform at location 0, so one program renders both). With SCENE_ALPHA_MASK it also
// passes the texture coordinates and material on, for Shadow.frag's cut-out test.
layout(location = 0) in vec3 aPosition;
layout(location = 0) uniform mat4 uLightMatrix;

#ifdef SCENE_ALPHA_MASK
layout(location = 2) in float aMaterial;
layout(location = 3) in vec2 aTexcoord;
layout(location = 0) out vec2 vTexcoord;
layout(location = 1) flat out int vMaterial;
#endif

void main()
{
#ifdef SCENE_ALPHA_MASK
    vTexcoord = aTexcoord;
    vMaterial = int(aMaterial + 0.5);
#endif
    gl_Position = uLightMatrix * vec4(aPosition, 1.0);
}
