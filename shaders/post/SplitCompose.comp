// SplitCompose.comp: the split view's composite of two display images (post/SplitCompose.h).
// Side by side: A left of the divider, B right, the divider white at x = d - 1 and black at x = d.
// Difference: min(255, floor(|A - B| * gain + 0.5)) per channel on the 8-bit display values, read
// exactly as integers (texelFetch of RGBA8 gives n / 255), so the CPU reference gives the same bytes.
#include "shared/HostDevice.h"

layout(local_size_x = 16, local_size_y = 16) in;

layout(binding = kTextureUnitInput) uniform sampler2D uSideA;
layout(binding = kTextureUnitAux) uniform sampler2D uSideB;
layout(binding = kImageUnitOutput, rgba8) writeonly uniform image2D uOutput;
layout(location = 0) uniform ivec2 uSize;
layout(location = 1) uniform int uDifference; // 1: difference, 0: side by side
layout(location = 2) uniform int uDividerX;   // d: the first column of B's side is d + 1
layout(location = 3) uniform float uGain;     // difference gain

ivec3 displayValues(sampler2D side, ivec2 texel)
{
    return ivec3(floor(texelFetch(side, texel, 0).rgb * 255.0 + 0.5));
}

void main()
{
    ivec2 texel = ivec2(gl_GlobalInvocationID.xy);
    if (texel.x >= uSize.x || texel.y >= uSize.y)
        return;
    vec3 colour;
    if (uDifference == 1) {
        vec3 difference = vec3(abs(displayValues(uSideA, texel) - displayValues(uSideB, texel)));
        colour = min(floor(difference * uGain + 0.5), vec3(255.0)) / 255.0;
    } else if (texel.x == uDividerX - 1) {
        colour = vec3(1.0);
    } else if (texel.x == uDividerX) {
        colour = vec3(0.0);
    } else {
        colour = texel.x < uDividerX ? texelFetch(uSideA, texel, 0).rgb : texelFetch(uSideB, texel, 0).rgb;
    }
    imageStore(uOutput, texel, vec4(colour, 1.0));
}
