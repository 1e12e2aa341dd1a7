// ApplyPixel.glsl: one pixel of the tone-curve apply (the mapping Apply.comp documents: the curve
// at the pixel's luminance, RGB scaled by Ld/Lw, each channel through its own curve, or the exposed
// colour through an RGB display transform; clamped to [0, 1] and sRGB-encoded), shared by the apply
// pass and the one-pass histogram (SharedAtomic.comp APPLY), so both make the same bytes. The
// includer declares the curve SSBO as `float curve[]` and includes tonemap/CurveLookup.glsl and
// tonemap/DisplayTransform.glsl first.

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

// The display value of one pixel, looked up at Lw x `shift` (local adaptation; HDR10's highlights):
// `weights` are the params' luminance weights, `cdPerUnit` the params' cd/m^2 per channel unit,
// `transform` 0 for the curve's luminance path, else a post::DisplayCurve code of an RGB transform.
vec3 mapColour(Curve c, vec3 rgb, bool perChannel, float shift, vec3 weights, float cdPerUnit, uint transform)
{
    // One exit, the luminance path's lookup nested, as before the transforms came (PERF_NOTE).
    vec3 display = vec3(0.0);
    if (perChannel) {
        for (uint ch = 0u; ch < 3u; ++ch)
            display[ch] = isUsable(rgb[ch]) ? evaluateCurve(c, ch, rgb[ch] * cdPerUnit * shift) : 0.0;
    } else {
        float Lw = hdLuminanceWeighted(rgb.r, rgb.g, rgb.b, weights.x, weights.y, weights.z);
        if (isUsable(Lw)) {
            // An RGB display transform maps the exposed colour (x cd/m^2 per unit x 2^E from the header).
            if (transform != 0u && !isinf(Lw)) {
                display = displayTransform(rgb * (cdPerUnit * c.scale * shift), transform);
            } else {
                float Ld = evaluateCurve(c, 0u, Lw * shift);
                // Lw is in cd/m^2, rgb in the input's units: the ratio takes Lw back to those (x cd/m^2 per unit).
                display = isinf(Lw) ? vec3(Ld) : rgb * (Ld * cdPerUnit / Lw);
            }
        }
    }
    return display;
}

bool isPerChannel(Curve c)
{
    return int(curve[kCurveChannels]) == 3 && !c.linearScale;
}

// The SDR display pixel, sRGB-encoded, of input `rgb`.
vec4 displayPixel(Curve c, vec3 rgb, vec3 weights, float cdPerUnit, float shift, uint transform)
{
    const vec3 display = mapColour(c, rgb, isPerChannel(c), shift, weights, cdPerUnit, transform);
    return vec4(encodeSrgb(display.r), encodeSrgb(display.g), encodeSrgb(display.b), 1.0);
}
