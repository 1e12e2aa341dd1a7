// FalseColour.comp: the false-colour EV view. Each pixel's luminance (hdLuminanceWeighted with the
// params' weights, as the histogram takes it) is coloured by its whole-EV band over the histogram's current range (hdFalseColourOf in
// shared/HostDevice.h: integer colours, so the CPU reference gives the same bytes); NaN, Inf and
// negative pixels are magenta, zero and under-range black, over-range white. With uLegendRows > 0
// the bottom rows become a legend strip: the bands left to right with the EV at each labelled band's
// lower edge in a 3x5 pixel font (headless screenshots have no ImGui legend).
#include "shared/HostDevice.h"

layout(local_size_x = 16, local_size_y = 16) in;

layout(binding = kTextureUnitInput) uniform sampler2D uInput;
layout(binding = kImageUnitOutput, rgba8) writeonly uniform image2D uOutput;
layout(std430, binding = kBindingHistogramParams) readonly buffer Params { uint params[]; };
layout(location = 0) uniform ivec2 uSize;
layout(location = 1) uniform int uLegendRows; // 0: no legend strip
layout(location = 2) uniform int uTopDownRows; // 1: texel row 0 is the picture's top, the strip at the last rows

const uint kStripEdge = 0x202020u; // the strip's top row and the band separators

vec4 unpackRgb(uint rgb)
{
    return vec4(float((rgb >> 16u) & 0xFFu), float((rgb >> 8u) & 0xFFu), float(rgb & 0xFFu), 255.0) / 255.0;
}

// 3x5 glyphs, row-major from the top, bit 14 first: the digits 0..9 and '-' (index 10).
uint glyph(int index)
{
    const uint glyphs[11] = uint[11](0x7B6Fu, 0x2C97u, 0x73E7u, 0x73CFu, 0x5BC9u, 0x79CFu, 0x79EFu, 0x7249u, 0x7BEFu,
                                     0x7BCFu, 0x01C0u);
    return glyphs[clamp(index, 0, 10)];
}

// The index into glyph() of character `position` of the decimal text of `value`, or -1 past its end.
int characterOf(int value, int position)
{
    int magnitude = abs(value);
    int digits = magnitude >= 100 ? 3 : (magnitude >= 10 ? 2 : 1);
    int sign = value < 0 ? 1 : 0;
    if (position < 0 || position >= sign + digits)
        return -1;
    if (position < sign)
        return 10;
    int power = digits - 1 - (position - sign);
    int divisor = power == 2 ? 100 : (power == 1 ? 10 : 1);
    return (magnitude / divisor) % 10;
}

int bandStart(int band, int bandCount)
{
    return (band * uSize.x + bandCount - 1) / bandCount; // first x with x * bandCount / width == band
}

// `texel.y` counts rows up from the picture's bottom edge.
uint legendColour(ivec2 texel, float logMin, float logMax)
{
    if (texel.y == uLegendRows - 1)
        return kStripEdge;
    int bandCount = hdFalseColourBandCount(logMin, logMax);
    int band = min(texel.x * bandCount / uSize.x, bandCount - 1);
    uint colour = hdFalseColourOfBand(band, bandCount);
    int start = bandStart(band, bandCount);
    int bandWidth = bandStart(band + 1, bandCount) - start;
    uint background = (texel.x == start && band > 0 && bandWidth >= 3) ? kStripEdge : colour;
    // Labels (drawn over the band separators): every `step`-th band, wide enough for "-160" at this scale.
    int scale = uLegendRows >= 14 ? 2 : 1;
    int charWidth = 4 * scale;
    int step = max(1, (4 * charWidth + 4) * bandCount / uSize.x + 1);
    int labelled = band - band % step;
    int x = texel.x - (bandStart(labelled, bandCount) + 2);
    int rowFromTop = (uLegendRows - 3) - texel.y; // the glyph's top row sits just under the edge row
    if (x < 0 || rowFromTop < 0 || rowFromTop >= 5 * scale)
        return background;
    int ev = hdFalseColourFirstEv(logMin) + labelled * hdFalseColourEvPerBand(logMin, logMax);
    int character = characterOf(ev, x / charWidth);
    int column = (x % charWidth) / scale;
    if (character < 0 || column >= 3)
        return background;
    uint bit = 14u - uint((rowFromTop / scale) * 3 + column);
    if (((glyph(character) >> bit) & 1u) == 0u)
        return background;
    float luma = 0.2126 * float((colour >> 16u) & 0xFFu) + 0.7152 * float((colour >> 8u) & 0xFFu) +
                 0.0722 * float(colour & 0xFFu);
    return luma > 110.0 ? 0x000000u : 0xFFFFFFu;
}

void main()
{
    ivec2 texel = ivec2(gl_GlobalInvocationID.xy);
    if (texel.x >= uSize.x || texel.y >= uSize.y)
        return;
    float logMin = uintBitsToFloat(params[kParamLogMin]);
    float logMax = uintBitsToFloat(params[kParamLogMax]);
    uint colour;
    int rowFromBottom = uTopDownRows != 0 ? uSize.y - 1 - texel.y : texel.y;
    if (rowFromBottom < uLegendRows) {
        colour = legendColour(ivec2(texel.x, rowFromBottom), logMin, logMax);
    } else {
        vec3 rgb = texelFetch(uInput, texel, 0).rgb;
        float L = hdLuminanceWeighted(rgb.r, rgb.g, rgb.b, uintBitsToFloat(params[kParamLumaR]),
                                      uintBitsToFloat(params[kParamLumaG]), uintBitsToFloat(params[kParamLumaB]));
        colour = hdFalseColourOf(L, logMin, logMax);
    }
    imageStore(uOutput, texel, unpackRgb(colour));
}
