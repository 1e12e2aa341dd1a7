// ScatterBlend.vert: the scatter of Scheuermann & Hensley 2007 (vertex texture fetch variant): one
// point per input pixel (gl_VertexID -> pixel), binned with hdBinOf and placed on the centre of
// its bin's texel of the histogram render target; additive blending accumulates 1 per point.
// Point i goes to local histogram i mod uLocalCount: local histograms sit in groups of uChannels
// (RGBA channels), each group uRowsPerHistogram rows high. Pixels in no bin are moved outside the
// clip volume and never rasterised.
#include "histogram/HistogramCommon.glsl"

layout(binding = kTextureUnitInput) uniform sampler2D uInput;
layout(location = 0) uniform ivec2 uImageSize;
layout(location = 1) uniform uint uTargetBins;
layout(location = 2) uniform ivec2 uTargetSize;
layout(location = 3) uniform int uRowsPerHistogram;
layout(location = 4) uniform int uLocalCount;
layout(location = 5) uniform int uChannels;

flat out vec4 vValue;

void main()
{
    int index = gl_VertexID;
    vec4 color = texelFetch(uInput, ivec2(index % uImageSize.x, index / uImageSize.x), 0);
    int bin = hdBinOf(paramLuminance(color), paramLogMin(), paramLogMax(), uTargetBins, paramPolicy());
    gl_PointSize = 1.0;
    vValue = vec4(0.0);
    if (bin < 0) {
        gl_Position = vec4(2.0, 2.0, 2.0, 1.0); // outside the clip volume: the point is dropped
        return;
    }
    int local = index % uLocalCount;
    int group = local / uChannels;
    int channel = local - group * uChannels;
    ivec2 texel = ivec2(bin % uTargetSize.x, group * uRowsPerHistogram + bin / uTargetSize.x);
    gl_Position = vec4((vec2(texel) + 0.5) / vec2(uTargetSize) * 2.0 - 1.0, 0.0, 1.0);
    vec4 value = vec4(0.0);
    value[channel] = 1.0;
    vValue = value;
}
