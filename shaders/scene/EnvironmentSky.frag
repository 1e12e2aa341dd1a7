// EnvironmentSky.frag: the environment map as the background of every pixel the opaque pass left
// at the far plane (its sun region included), stored pre-exposed and clamped (PreExposure.glsl).
// Early fragment tests: as Sky.frag.
#include "scene/EnvironmentLighting.glsl"
#include "scene/PreExposure.glsl"
#include "scene/SceneFrame.glsl"

layout(early_fragment_tests) in;

layout(location = 0) in vec2 vNdc;
layout(location = 0) out vec4 oColor;

void main()
{
    vec4 farPoint = uInverseViewProjection * vec4(vNdc, 1.0, 1.0);
    vec4 nearPoint = uInverseViewProjection * vec4(vNdc, -1.0, 1.0);
    vec3 direction = farPoint.xyz / farPoint.w - nearPoint.xyz / nearPoint.w;
    vec3 radiance = environmentBackground(direction);
    oColor = vec4(storedRadiance(radiance), 1.0);
    noteClippedFragment(radiance);
}
