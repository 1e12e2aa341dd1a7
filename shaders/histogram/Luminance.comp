// Luminance.comp: the luminance of each pixel into an R32F texture, the one channel the CPU
// readback method transfers (a quarter of the bytes of the RGBA32F frame).
#include "shared/HostDevice.h"

layout(local_size_x = kHistogramGroupX, local_size_y = kHistogramGroupY) in;

layout(binding = kTextureUnitInput) uniform sampler2D uInput;
layout(binding = kImageUnitOutput, r32f) writeonly uniform image2D uLuminance;
layout(location = 0) uniform ivec2 uSize;

void main()
{
    ivec2 texel = ivec2(gl_GlobalInvocationID.xy);
    if (any(greaterThanEqual(texel, uSize)))
        return;
    vec3 rgb = texelFetch(uInput, texel, 0).rgb;
    imageStore(uLuminance, texel, vec4(hdLuminance(rgb.r, rgb.g, rgb.b)));
}
