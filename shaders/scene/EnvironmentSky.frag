// EnvironmentSky.frag: the environment map as the background of every pixel the opaque pass left
// at the far plane (its sun region included; values clamped to the target's range, uOutputRange).
#include "scene/EnvironmentLighting.glsl"
#include "scene/SceneFrame.glsl"

layout(location = 0) in vec2 vNdc;
layout(location = 0) out vec4 oColor;

void main()
{
    vec4 farPoint = uInverseViewProjection * vec4(vNdc, 1.0, 1.0);
    vec4 nearPoint = uInverseViewProjection * vec4(vNdc, -1.0, 1.0);
    vec3 direction = farPoint.xyz / farPoint.w - nearPoint.xyz / nearPoint.w;
    oColor = vec4(clampRadiance(environmentBackground(direction)), 1.0);
}
