// Shadow.vert: depth-only transform for the sun shadow map and the top-down sky-occlusion map (the
// matrix is a uniform at location 0, so one program renders both).
layout(location = 0) in vec3 aPosition;
layout(location = 0) uniform mat4 uLightMatrix;

void main()
{
    gl_Position = uLightMatrix * vec4(aPosition, 1.0);
}
