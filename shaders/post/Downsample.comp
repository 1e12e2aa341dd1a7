// Box downsample of the histogram input (Scheuermann & Hensley 2007 build their histogram from a
// downsampled frame): each output texel is the mean of the FACTOR x FACTOR input block, counting
// only the pixels that exist where the input size is not a multiple of the factor.
#include "shared/HostDevice.h"

layout(local_size_x = 8, local_size_y = 8) in;

layout(binding = kTextureUnitInput) uniform sampler2D uInput;
layout(binding = kImageUnitOutput, rgba32f) writeonly uniform image2D uOutput;
layout(location = 0) uniform ivec2 uInputSize;
layout(location = 1) uniform ivec2 uOutputSize;
layout(location = 2) uniform int uFactor;

void main()
{
    ivec2 texel = ivec2(gl_GlobalInvocationID.xy);
    if (any(greaterThanEqual(texel, uOutputSize)))
        return;
    ivec2 begin = texel * uFactor;
    ivec2 end = min(begin + ivec2(uFactor), uInputSize);
    vec4 sum = vec4(0.0);
    for (int y = begin.y; y < end.y; ++y)
        for (int x = begin.x; x < end.x; ++x)
            sum += texelFetch(uInput, ivec2(x, y), 0);
    vec2 extent = vec2(end - begin);
    imageStore(uOutput, texel, sum / (extent.x * extent.y));
}
