// The small "display histogram": 64 bins of the luma (Rec. 709 weights on the sRGB-encoded values)
// of the image actually shown, so the view can show what the tone curve did. Shared-memory counts
// per workgroup, one merge per group.
#include "shared/HostDevice.h"

#define DISPLAY_BINS 64u

layout(local_size_x = 16, local_size_y = 16) in;

layout(binding = kTextureUnitInput) uniform sampler2D uDisplay;
layout(std430, binding = kBindingScratch0) buffer DisplayHistogram { uint displayBins[]; };
layout(location = 0) uniform ivec2 uSize;

shared uint sBins[DISPLAY_BINS];

void main()
{
    uint local = gl_LocalInvocationIndex;
    if (local < DISPLAY_BINS)
        sBins[local] = 0u;
    barrier();
    ivec2 texel = ivec2(gl_GlobalInvocationID.xy);
    if (all(lessThan(texel, uSize))) {
        vec3 rgb = texelFetch(uDisplay, texel, 0).rgb;
        float luma = hdLuminance(rgb.r, rgb.g, rgb.b);
        atomicAdd(sBins[min(uint(luma * float(DISPLAY_BINS)), DISPLAY_BINS - 1u)], 1u);
    }
    barrier();
    if (local < DISPLAY_BINS && sBins[local] != 0u)
        atomicAdd(displayBins[local], sBins[local]);
}
