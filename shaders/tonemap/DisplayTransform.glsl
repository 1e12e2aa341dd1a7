// DisplayTransform.glsl: the per-channel RGB display transforms, applied to exposed linear Rec. 709
// RGB (>= 0) and giving display-linear RGB (0..1 before the apply pass clamps and encodes):
// - AgX (Troy Sobotka; Blender's default view): the inset matrix, log2 encoding over
//   [-12.47393, 4.026069] EV around 1.0 (16.5 EV), a sixth-order polynomial fit of AgX's base
//   contrast sigmoid (Benjamin Wrensch's fit, error about 2e-3 against the sigmoid), an optional
//   ASC CDL look (punchy: power 1.35, saturation 1.4; Rec. 709 luma), the outset matrix (the
//   inset's inverse) and the 2.2 power that takes the sigmoid's display encoding back to linear.
// - Khronos PBR Neutral (2024 specification): subtract a small toe offset, keep colours whose peak
//   is below 0.76 as they are, compress the peak above it toward 1 and desaturate by the
//   compressed amount (desaturation 0.15).
// Codes: post::DisplayCurve (kDisplayAgx ...). CPU reference: reference/DisplayTransformRef.
// Included once (the one-pass histogram takes it through both the apply and the curve code).
#ifndef DISPLAY_TRANSFORM_GLSL
#define DISPLAY_TRANSFORM_GLSL

const uint kDisplayAgx = 4u;
const uint kDisplayAgxPunchy = 5u;
const uint kDisplayPbrNeutral = 6u;

vec3 agxSigmoid(vec3 x)
{
    vec3 x2 = x * x;
    vec3 x4 = x2 * x2;
    return 15.5 * x4 * x2 - 40.14 * x4 * x + 31.96 * x4 - 6.868 * x2 * x + 0.4298 * x2 + 0.1191 * x - 0.00232;
}

vec3 agxTransform(vec3 rgb, bool punchy)
{
    // GLSL mat3 takes columns: these are the columns of the inset and outset matrices.
    const mat3 inset = mat3(0.842479062253094, 0.0423282422610123, 0.0423756549057051, 0.0784335999999992,
                            0.878468636469772, 0.0784336, 0.0792237451477643, 0.0791661274605434,
                            0.879142973793104);
    const mat3 outset = mat3(1.19687900512017, -0.0528968517574562, -0.0529716355144438, -0.0980208811401368,
                             1.15190312990417, -0.0980434501171241, -0.0990297440797205, -0.0989611768448433,
                             1.15107367264116);
    const float minEv = -12.47393;
    const float maxEv = 4.026069;
    vec3 v = inset * max(rgb, vec3(0.0));
    v = (clamp(log2(max(v, vec3(1e-10))), minEv, maxEv) - minEv) / (maxEv - minEv);
    v = agxSigmoid(v);
    if (punchy) {
        v = pow(max(v, vec3(0.0)), vec3(1.35));
        float luma = dot(v, vec3(0.2126, 0.7152, 0.0722));
        v = luma + 1.4 * (v - luma);
    }
    v = outset * v;
    return pow(max(v, vec3(0.0)), vec3(2.2));
}

vec3 pbrNeutralTransform(vec3 rgb)
{
    const float startCompression = 0.8 - 0.04;
    const float desaturation = 0.15;
    vec3 c = max(rgb, vec3(0.0));
    float x = min(c.r, min(c.g, c.b));
    float offset = x < 0.08 ? x - 6.25 * x * x : 0.04;
    c -= offset;
    float peak = max(c.r, max(c.g, c.b));
    if (peak < startCompression)
        return c;
    const float d = 1.0 - startCompression;
    float newPeak = 1.0 - d * d / (peak + d - startCompression);
    c *= newPeak / peak;
    float g = 1.0 - 1.0 / (desaturation * (peak - newPeak) + 1.0);
    return mix(c, vec3(newPeak), g);
}

// `kind` is an RGB transform's code; anything else returns the colour unchanged.
vec3 displayTransform(vec3 rgb, uint kind)
{
    if (kind == kDisplayPbrNeutral)
        return pbrNeutralTransform(rgb);
    if (kind == kDisplayAgx || kind == kDisplayAgxPunchy)
        return agxTransform(rgb, kind == kDisplayAgxPunchy);
    return rgb;
}
#endif // DISPLAY_TRANSFORM_GLSL
