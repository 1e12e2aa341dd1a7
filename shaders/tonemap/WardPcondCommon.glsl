// WardPcondCommon.glsl: what the pcond-sampling passes share (post/tonemap/WardPcondPlan.h): a pixel
// as a Radiance picture holds it, pcond's luminance (plum) and the texel of a scanline position.

layout(location = 10) uniform vec3 uWeights;       // Radiance's rgblum weights (or the picture's)
layout(location = 11) uniform double uEfficacy;    // 179 for Radiance pictures (times ward.scene_scale)
layout(location = 12) uniform double uExposure;    // the EXPOSURE product
layout(location = 13) uniform ivec2 uPictureSize;  // scanline length, scanline count
layout(location = 14) uniform uint uTopDownRows;   // texel row 0 is scanline 0

// A channel as a Radiance picture holds it: negative, non-finite and denormal values are 0.
float pcondChannel(float c)
{
    return (isnan(c) || isinf(c) || !(c >= 1.17549435e-38)) ? 0.0 : c;
}

vec3 pcondPixel(int x, int scanline)
{
    int row = uTopDownRows != 0u ? scanline : uPictureSize.y - 1 - scanline;
    vec3 rgb = texelFetch(uInput, ivec2(x, row), 0).rgb;
    return vec3(pcondChannel(rgb.r), pcondChannel(rgb.g), pcondChannel(rgb.b));
}

// plum(): efficacy * (w0 r + w1 g + w2 b) / exposure, the weighted sum in float as rgblum has it.
double pcondLuminance(vec3 rgb)
{
    precise float red = uWeights.r * rgb.r;
    precise float green = uWeights.g * rgb.g;
    precise float blue = uWeights.b * rgb.b;
    precise float sum = (red + green) + blue;
    precise double scaled = uEfficacy * double(sum);
    return f64Divide(scaled, uExposure);
}

// ln L for a sample, or a large negative marker for L <= 0 (such samples are below LMIN and never
// binned, but still take part in the minimum).
double pcondLog(double L)
{
    return L > 0.0LF ? f64Log(L) : -1.0e300LF;
}
