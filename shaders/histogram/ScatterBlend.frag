// ScatterBlend.frag: every point adds 1 to one channel of its bin's texel (blending GL_ONE, GL_ONE).
flat in vec4 vValue;
layout(location = 0) out vec4 oValue;

void main()
{
    oValue = vValue;
}
