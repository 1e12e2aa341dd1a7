// EnvironmentSampling.glsl: the equirectangular mapping (row 0 = zenith, centre = -Z, yaw towards
// +X to the right; scene/EnvironmentLighting.h has the CPU twin) and GGX importance sampling with a
// Hammersley sequence, shared by the prefilter compute shaders and the scene's lookups.
#ifndef ENVIRONMENT_SAMPLING_GLSL
#define ENVIRONMENT_SAMPLING_GLSL

#define ENVIRONMENT_PI 3.14159265358979

vec3 equirectDirection(vec2 uv)
{
    float yaw = (uv.x - 0.5) * 2.0 * ENVIRONMENT_PI;
    float theta = uv.y * ENVIRONMENT_PI;
    return vec3(sin(theta) * sin(yaw), cos(theta), -sin(theta) * cos(yaw));
}

vec2 equirectUv(vec3 d)
{
    d = normalize(d);
    float yaw = atan(d.x, -d.z);
    return vec2(0.5 + yaw / (2.0 * ENVIRONMENT_PI), acos(clamp(d.y, -1.0, 1.0)) / ENVIRONMENT_PI);
}

vec2 hammersley(uint i, uint count)
{
    return vec2((float(i) + 0.5) / float(count), float(bitfieldReverse(i)) * 2.3283064365386963e-10);
}

// A half vector around +Z distributed as D(h) * n.h for GGX of width `alpha`.
vec3 sampleGgxHalfVector(vec2 xi, float alpha)
{
    float phi = 2.0 * ENVIRONMENT_PI * xi.y;
    float cosTheta = sqrt((1.0 - xi.x) / (1.0 + (alpha * alpha - 1.0) * xi.x));
    float sinTheta = sqrt(max(1.0 - cosTheta * cosTheta, 0.0));
    return vec3(sinTheta * cos(phi), sinTheta * sin(phi), cosTheta);
}

// Orthonormal frame with `n` as its third axis.
mat3 frameAround(vec3 n)
{
    vec3 up = abs(n.y) < 0.999 ? vec3(0.0, 1.0, 0.0) : vec3(1.0, 0.0, 0.0);
    vec3 t = normalize(cross(up, n));
    return mat3(t, cross(n, t), n);
}

float ggxD(float nDotH, float alpha)
{
    float a2 = alpha * alpha;
    float d = nDotH * nDotH * (a2 - 1.0) + 1.0;
    return a2 / (ENVIRONMENT_PI * d * d);
}

#endif
