// CurveLookup.glsl: one evaluation of the tone-curve buffer (hd::kCurve* layout), shared by the
// apply pass and the pixel probe so the probe's display value is the apply pass's arithmetic.
// The includer declares the curve SSBO as `float curve[]` before including this file.

// The curve's header, read once per invocation.
struct Curve
{
    bool linearScale;
    float scale;
    int samples;
    float logMin;
    float span;
    float samplesPerEv; // samples / span
};

Curve loadCurve()
{
    Curve c;
    c.linearScale = curve[kCurveMode] == kCurveModeLinearScale;
    c.scale = curve[kCurveScale];
    c.samples = clamp(int(curve[kCurveSampleCount]), 1, int(kMaxCurveSamples));
    c.logMin = curve[kCurveLogMin];
    float logMax = curve[kCurveLogMax];
    c.span = logMax > c.logMin ? logMax - c.logMin : 1.0;
    c.samplesPerEv = float(c.samples) / c.span;
    return c;
}

float evaluateCurve(Curve c, uint channel, float Lw)
{
    if (c.linearScale)
        return c.scale * Lw;
    uint lut = kCurveHeaderWords + channel * kMaxCurveSamples;
    if (isinf(Lw))
        return curve[lut + uint(c.samples - 1)];
    float position = (log2(Lw) - c.logMin) * c.samplesPerEv - 0.5;
    // Below the first sample the curve continues linearly (constant Ld/Lw), so shadows darker than
    // the curve's range keep their gradation instead of being lifted to a flat floor.
    if (position < 0.0)
        return curve[lut] * exp2(position / c.samplesPerEv);
    position = min(position, float(c.samples - 1));
    int below = int(floor(position));
    int above = min(below + 1, c.samples - 1);
    return mix(curve[lut + uint(below)], curve[lut + uint(above)], position - float(below));
}
