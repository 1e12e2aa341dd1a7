// Luminance.comp: the luminance of each pixel (the params buffer's weights) into an R32F texture,
// the one channel the CPU readback method transfers (a quarter of the bytes of the RGBA32F frame).
#include "histogram/HistogramCommon.glsl"

layout(local_size_x = kHistogramGroupX, local_size_y = kHistogramGroupY) in;

layout(binding = kTextureUnitInput) uniform sampler2D uInput;
layout(binding = kImageUnitOutput, r32f) writeonly uniform image2D uLuminance;
layout(location = 0) uniform ivec2 uSize;

void main()
{
    ivec2 texel = ivec2(gl_GlobalInvocationID.xy);
    if (any(greaterThanEqual(texel, uSize)))
        return;
    imageStore(uLuminance, texel, vec4(paramLuminance(texelFetch(uInput, texel, 0))));
}
