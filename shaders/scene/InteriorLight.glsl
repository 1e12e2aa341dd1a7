// InteriorLight.glsl: indirect light of a room lit through its openings (the scene's "interior";
// scene/InteriorLight.h has the technique, its limits and the CPU twin): per opening the sky
// component (a Lambertian rectangle of the outside radiance) and the sunlit floor patch (a
// Lambertian polygon), each by Lambert's polygon formula clipped to the surface's hemisphere, plus
// the split-flux interreflection. The block is mirrored by InteriorBlock in InteriorLight.cpp.
#ifndef INTERIOR_LIGHT_GLSL
#define INTERIOR_LIGHT_GLSL

#define INTERIOR_MAX_OPENINGS 8
#define INTERIOR_MAX_PATCH_CORNERS 8

layout(std140, binding = 6) uniform InteriorFrame
{
    vec4 uInteriorMin;              // xyz, w opening count (0: no interior)
    vec4 uInteriorMax;              // xyz, w scale
    vec4 uInteriorReflectance;      // rgb, w 1 when the openings' radiance comes from the irradiance map
    vec4 uInteriorInterreflection;  // rgb r / ((1 - r) x area): lux per lumen left in the room
    vec4 uInteriorReflectedSunFlux; // rgb lm
    vec4 uOpeningCorners[INTERIOR_MAX_OPENINGS * 4]; // xyz, counter-clockwise from the room; w of the first: area
    vec4 uOpeningInward[INTERIOR_MAX_OPENINGS];
    vec4 uOpeningRadiance[INTERIOR_MAX_OPENINGS];    // rgb, without an environment map
    vec4 uPatchCorners[INTERIOR_MAX_OPENINGS * INTERIOR_MAX_PATCH_CORNERS];
    vec4 uPatchRadiance[INTERIOR_MAX_OPENINGS];      // rgb, w corner count
};

const float kInteriorMargin = 0.05;       // m: surfaces on the room's walls count as inside
const float kInteriorHorizonOffset = 1e-4; // m: a polygon in the surface's own plane gives nothing

// One edge's share of Lambert's sum: the angle it subtends times the cosine term of its plane
// (a and b relative to the shaded point).
float lambertEdge(vec3 a, vec3 b, vec3 n)
{
    a = normalize(a);
    b = normalize(b);
    vec3 c = cross(a, b);
    float sine = length(c);
    return sine > 1e-7 ? atan(sine, dot(a, b)) / sine * dot(n, c) : 0.0;
}

vec3 interiorCorner(bool sunPatch, int index)
{
    return sunPatch ? uPatchCorners[index].xyz : uOpeningCorners[index].xyz;
}

// Irradiance at `p` (unit normal `n`) from the convex polygon of radiance 1 at corners
// [first, first + count) of the openings' or the patches' list, the part above p's horizon. The
// clipped polygon's edges are summed as they are met (no array): edges above as they are, edges
// crossing the horizon up to the crossing, and the horizon edge from where the polygon leaves the
// hemisphere to where it comes back (scene/InteriorLight.cpp clips explicitly: the CPU twin).
float polygonIrradiance(vec3 p, vec3 n, bool sunPatch, int first, int count)
{
    float sum = 0.0;
    bool left = false;
    bool returned = false;
    vec3 leaving = vec3(0.0);
    vec3 returning = vec3(0.0);
    vec3 a = interiorCorner(sunPatch, first) - p;
    float ka = dot(n, a) - kInteriorHorizonOffset;
    for (int i = 1; i <= count; ++i) {
        vec3 b = interiorCorner(sunPatch, first + i % count) - p;
        float kb = dot(n, b) - kInteriorHorizonOffset;
        if (ka >= 0.0 && kb >= 0.0) {
            sum += lambertEdge(a, b, n);
        } else if (ka >= 0.0) {
            leaving = a + (b - a) * (ka / (ka - kb));
            sum += lambertEdge(a, leaving, n);
            left = true;
        } else if (kb >= 0.0) {
            returning = a + (b - a) * (ka / (ka - kb));
            sum += lambertEdge(returning, b, n);
            returned = true;
        }
        a = b;
        ka = kb;
    }
    if (left && returned)
        sum += lambertEdge(leaving, returning, n);
    return 0.5 * abs(sum);
}

// Radiance the opening lets in: the environment's cosine-weighted mean radiance in its outward
// direction (the irradiance map), or the block's constant.
vec3 openingRadiance(int i)
{
#ifdef SCENE_ENVIRONMENT
    if (uInteriorReflectance.w > 0.5)
        return textureLod(uEnvironmentIrradiance, environmentUv(-uOpeningInward[i].xyz), 0.0).rgb;
#endif
    return uOpeningRadiance[i].rgb;
}

// The ambient radiance (cd/m², irradiance x scale / pi) the room's indirect light gives a surface
// at `p` with normal `n`; zero outside the room's box or without an interior.
vec3 interiorIndirectRadiance(vec3 p, vec3 n)
{
    int openings = int(uInteriorMin.w);
    if (openings == 0 || any(lessThan(p, uInteriorMin.xyz - kInteriorMargin)) ||
        any(greaterThan(p, uInteriorMax.xyz + kInteriorMargin)))
        return vec3(0.0);
    vec3 irradiance = vec3(0.0);
    vec3 daylightFlux = vec3(0.0);
    for (int i = 0; i < openings; ++i) {
        vec3 radiance = openingRadiance(i);
        daylightFlux += radiance * (3.14159265 * uOpeningCorners[i * 4].w);
        if (dot(uOpeningInward[i].xyz, p - uOpeningCorners[i * 4].xyz) > 0.0)
            irradiance += radiance * polygonIrradiance(p, n, false, i * 4, 4);
        int patchCorners = int(uPatchRadiance[i].w);
        if (patchCorners >= 3)
            irradiance += uPatchRadiance[i].rgb *
                          polygonIrradiance(p, n, true, i * INTERIOR_MAX_PATCH_CORNERS, patchCorners);
    }
    irradiance += (daylightFlux + uInteriorReflectedSunFlux.rgb) * uInteriorInterreflection.rgb;
    return irradiance * (uInteriorMax.w / 3.14159265);
}

#endif
