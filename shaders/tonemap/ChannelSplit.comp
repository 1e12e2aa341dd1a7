// ChannelSplit.comp: writes one colour channel of the input into all three channels of an RGBA32F
// image, so the selected histogram method's luminance of (c, c, c) is c times cd/m^2 per unit (the
// weights sum to about hd::kParamCdPerUnit: exactly 1 in real numbers for the default weights, the
// float sum may differ in the last bit) and the method builds the histogram of that channel
// (per-channel equalization, Scheuermann & Hensley Figure 2 C).
#include "shared/HostDevice.h"

layout(local_size_x = 16, local_size_y = 16) in;

layout(binding = kTextureUnitInput) uniform sampler2D uInput;
layout(binding = kImageUnitOutput, rgba32f) writeonly uniform image2D uOutput;
layout(location = 0) uniform ivec2 uSize;
layout(location = 1) uniform uint uChannel;

void main()
{
    ivec2 texel = ivec2(gl_GlobalInvocationID.xy);
    if (any(greaterThanEqual(texel, uSize)))
        return;
    float value = texelFetch(uInput, texel, 0)[uChannel];
    imageStore(uOutput, texel, vec4(value, value, value, 1.0));
}
