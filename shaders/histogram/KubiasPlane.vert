// KubiasPlane.vert: one plane of Kubias et al. 2007, a full-viewport triangle parallel to the view
// plane at normalised-device depth uPlaneDepthNdc (orthographic: the same depth at every pixel).
layout(location = 0) uniform float uPlaneDepthNdc;

flat out float vWindowDepth;

void main()
{
    vec2 p = vec2(float((gl_VertexID & 1) << 2) - 1.0, float((gl_VertexID & 2) << 1) - 1.0);
    gl_Position = vec4(p, uPlaneDepthNdc, 1.0);
    vWindowDepth = uPlaneDepthNdc * 0.5 + 0.5; // depth range [0, 1]
}
