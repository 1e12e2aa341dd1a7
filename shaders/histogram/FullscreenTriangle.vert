// FullscreenTriangle.vert: one triangle covering the viewport, from gl_VertexID (no vertex buffer).
// The per-pixel histogram passes (Green's bin passes, Kubias' depth pass) read the input texel
// under gl_FragCoord, so the viewport is set to the input size.
void main()
{
    vec2 p = vec2(float((gl_VertexID & 1) << 2) - 1.0, float((gl_VertexID & 2) << 1) - 1.0);
    gl_Position = vec4(p, 0.0, 1.0);
}
