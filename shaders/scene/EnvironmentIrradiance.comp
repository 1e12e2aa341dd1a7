// EnvironmentIrradiance.comp: diffuse irradiance of an equirectangular map by direct summation:
// every output texel (a normal n) sums L * max(n.l, 0) * solid angle over all texels of one source
// mip level (chosen at most 128 wide, where irradiance's low frequency loses nothing), divided by
// pi, so a constant map of radiance L gives L. One invocation per output texel.
#include "scene/EnvironmentSampling.glsl"

layout(local_size_x = 8, local_size_y = 8) in;

layout(binding = 0) uniform sampler2D uSource;
layout(rgba32f, binding = 0) uniform writeonly image2D uIrradiance;
layout(location = 0) uniform int uSourceLevel;

void main()
{
    ivec2 size = imageSize(uIrradiance);
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (any(greaterThanEqual(p, size)))
        return;
    vec3 n = equirectDirection((vec2(p) + 0.5) / vec2(size));
    ivec2 sourceSize = textureSize(uSource, uSourceLevel);
    float deltaYaw = 2.0 * ENVIRONMENT_PI / float(sourceSize.x);
    vec3 sum = vec3(0.0);
    for (int y = 0; y < sourceSize.y; ++y) {
        float solidAngle = deltaYaw * (cos(float(y) * ENVIRONMENT_PI / float(sourceSize.y)) -
                                       cos(float(y + 1) * ENVIRONMENT_PI / float(sourceSize.y)));
        for (int x = 0; x < sourceSize.x; ++x) {
            vec3 l = equirectDirection((vec2(x, y) + 0.5) / vec2(sourceSize));
            float cosine = dot(n, l);
            if (cosine > 0.0)
                sum += texelFetch(uSource, ivec2(x, y), uSourceLevel).rgb * (cosine * solidAngle);
        }
    }
    imageStore(uIrradiance, p, vec4(sum / ENVIRONMENT_PI, 1.0));
}
