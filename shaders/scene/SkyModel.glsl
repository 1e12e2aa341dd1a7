// SkyModel.glsl: the analytic sky radiance: CIE standard clear sky (the luminance distribution of
// CIE S 011 type 12, a = -1, b = -0.32, c = 10, d = -3, e = 0.45) or CIE overcast, with colour blended
// from horizon to zenith, a flat ground below the horizon and the sun disc. Limits: no
// atmospheric scattering spectrum, no twilight; luminance scales linearly with the zenith value.
#ifndef SKY_MODEL_GLSL
#define SKY_MODEL_GLSL

#include "scene/SceneFrame.glsl"

float cieGradation(float cosTheta)
{
    return 1.0 - exp(-0.32 / max(cosTheta, 1e-3));
}

float cieIndicatrix(float gamma)
{
    float c = cos(gamma);
    return 1.0 + 10.0 * (exp(-3.0 * gamma) - exp(-3.0 * 1.5707963)) + 0.45 * c * c;
}

vec3 skyRadiance(vec3 direction, bool withSunDisc)
{
    vec3 d = normalize(direction);
    if (d.y < 0.0)
        return uSkyGround.rgb;
    float cosTheta = d.y;
    float luminance;
    if (uSkyHorizon.w < 0.5) {
        float gamma = acos(clamp(dot(d, uSunDirection.xyz), -1.0, 1.0));
        luminance = uSkyZenith.w * cieIndicatrix(gamma) * cieGradation(cosTheta) * uSkyGround.w;
    } else {
        luminance = uSkyZenith.w * (1.0 + 2.0 * cosTheta) / 3.0;
    }
    vec3 color = mix(uSkyHorizon.rgb, uSkyZenith.rgb, sqrt(cosTheta));
    vec3 radiance = color * luminance;
    if (withSunDisc && uSunDisc.w > 0.5 && dot(d, uSunDirection.xyz) >= uSunDirection.w)
        radiance = uSunDisc.rgb;
    return radiance;
}

#endif
