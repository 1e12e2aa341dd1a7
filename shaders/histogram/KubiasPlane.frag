// KubiasPlane.frag: the planes write nothing (colour and depth writes are off); the occlusion query
// around each plane counts the fragments that pass the depth test. The plane's depth is given
// explicitly rather than interpolated by the rasteriser: on the H200 the rasterised depth of
// planes near depth 0 came out low enough to pass pixels up to a few bins nearer.
flat in float vWindowDepth;

void main()
{
    gl_FragDepth = vWindowDepth;
}
