// Sky.frag: the analytic sky (and sun disc) for every pixel the opaque pass left at the far plane,
// stored pre-exposed and clamped (PreExposure.glsl). Early fragment tests: the clip note is a side
// effect, and only visible sky may make it (the pass writes no depth, so nothing else changes).
#include "scene/PreExposure.glsl"
#include "scene/SkyModel.glsl"

layout(early_fragment_tests) in;

layout(location = 0) in vec2 vNdc;
layout(location = 0) out vec4 oColor;

void main()
{
    vec4 farPoint = uInverseViewProjection * vec4(vNdc, 1.0, 1.0);
    vec4 nearPoint = uInverseViewProjection * vec4(vNdc, -1.0, 1.0);
    vec3 direction = farPoint.xyz / farPoint.w - nearPoint.xyz / nearPoint.w;
    vec3 radiance = skyRadiance(direction, true);
    oColor = vec4(storedRadiance(radiance), 1.0);
    noteClippedFragment(radiance);
}
