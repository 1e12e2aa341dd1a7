// FullscreenTriangle.vert: one triangle covering the viewport from gl_VertexID (no vertex buffer),
// placed on the far plane so that the sky only fills pixels no geometry has written.
layout(location = 0) out vec2 vNdc;

void main()
{
    vec2 p = vec2(float((gl_VertexID & 1) << 2) - 1.0, float((gl_VertexID & 2) << 1) - 1.0);
    vNdc = p;
    gl_Position = vec4(p, 1.0, 1.0);
}
