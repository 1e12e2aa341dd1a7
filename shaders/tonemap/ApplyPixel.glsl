// ApplyPixel.glsl: one pixel of the tone-curve apply (the mapping Apply.comp documents: the curve
// at the pixel's luminance, RGB scaled by Ld/Lw or each channel through its own curve, clamped to
// [0, 1] and sRGB-encoded), shared by the apply pass and the one-pass histogram (SharedAtomic.comp
// APPLY), so both make the same bytes. The includer declares the curve SSBO as `float curve[]` and
// includes tonemap/CurveLookup.glsl first.

bool isUsable(float value)
{
    return !isnan(value) && value > 0.0;
}

float encodeSrgb(float linear)
{
    if (!(linear > 0.0))
        return 0.0; // also NaN
    linear = min(linear, 1.0);
    return linear <= 0.0031308 ? 12.92 * linear : 1.055 * pow(linear, 1.0 / 2.4) - 0.055;
}

// The encoded display colour of input `rgb` (the input's units): `weights` are the params' luminance
// weights, `cdPerUnit` the params' cd/m^2 per channel unit, `localShift` a factor on Lw before the
// lookup (1 without local adaptation).
vec4 displayPixel(Curve c, vec3 rgb, vec3 weights, float cdPerUnit, float localShift)
{
    vec3 display = vec3(0.0);
    bool perChannel = int(curve[kCurveChannels]) == 3 && !c.linearScale;
    if (perChannel) {
        for (uint ch = 0u; ch < 3u; ++ch)
            display[ch] = isUsable(rgb[ch]) ? evaluateCurve(c, ch, rgb[ch] * cdPerUnit * localShift) : 0.0;
    } else {
        float Lw = hdLuminanceWeighted(rgb.r, rgb.g, rgb.b, weights.x, weights.y, weights.z);
        if (isUsable(Lw)) {
            float Ld = evaluateCurve(c, 0u, Lw * localShift);
            // Lw is in cd/m^2, rgb in the input's units: the ratio takes Lw back to those (x cd/m^2 per unit).
            display = isinf(Lw) ? vec3(Ld) : rgb * (Ld * cdPerUnit / Lw);
        }
    }
    return vec4(encodeSrgb(display.r), encodeSrgb(display.g), encodeSrgb(display.b), 1.0);
}
