// BinCodes.frag: stores each pixel's hdBinOf code (a bin, or a negative no-bin code) in an R32I
// texture. Green's per-bin passes and Fluck's gather pass then compare integers: a texture fetch and
// a compare per pixel and pass, like the papers' luminance-threshold tests, with hdBinOf's exact bins.
#include "histogram/HistogramCommon.glsl"

layout(binding = kTextureUnitInput) uniform sampler2D uInput;
layout(location = 0) out int oCode;

void main()
{
    oCode = binOfColor(texelFetch(uInput, ivec2(gl_FragCoord.xy), 0));
}
