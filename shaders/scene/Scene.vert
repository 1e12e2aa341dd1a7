// Scene.vert: world-space mesh vertices (pre-transformed on the CPU) to clip space for the opaque
// pass; passes the world position, normal, texture coordinates, tangent and material index on.
#include "scene/SceneFrame.glsl"

layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec3 aNormal;
layout(location = 2) in float aMaterial;
layout(location = 3) in vec2 aTexcoord;
layout(location = 4) in vec4 aTangent;

layout(location = 0) out vec3 vWorldPosition;
layout(location = 1) out vec3 vNormal;
layout(location = 2) flat out int vMaterial;
layout(location = 3) out vec2 vTexcoord;
layout(location = 4) out vec4 vTangent;
// The deferred path's depth pre-pass (DepthPrepass.frag) and G-buffer pass must agree to the bit.
invariant gl_Position;

void main()
{
    vWorldPosition = aPosition;
    vNormal = aNormal;
    vMaterial = int(aMaterial + 0.5);
    vTexcoord = aTexcoord;
    vTangent = aTangent;
    gl_Position = uViewProjection * vec4(aPosition, 1.0);
}
