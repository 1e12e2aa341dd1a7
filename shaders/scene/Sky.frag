// Sky.frag: the analytic sky (and sun disc) for every pixel the opaque pass left at the far plane.
#include "scene/SkyModel.glsl"

layout(location = 0) in vec2 vNdc;
layout(location = 0) out vec4 oColor;

void main()
{
    vec4 farPoint = uInverseViewProjection * vec4(vNdc, 1.0, 1.0);
    vec4 nearPoint = uInverseViewProjection * vec4(vNdc, -1.0, 1.0);
    vec3 direction = farPoint.xyz / farPoint.w - nearPoint.xyz / nearPoint.w;
    oColor = vec4(clampRadiance(skyRadiance(direction, true)), 1.0);
}
