// ReferenceCopy.comp: the reference chain's input (`hdrlab bench pipeline`, commands/bench/ReferenceChain.h):
// the frame texture copied into a linear storage buffer, row after row from texel row 0, as a renderer
// that wrote its frame linearly would leave it. HALF_FRAME 1: packed RGBA16F, 8 bytes a pixel (the
// texels of an RGBA16F texture are halves, so packHalf2x16 gives their bits back); 0: RGBA32F, 16 bytes.
// Timed by the bench but not counted in the chain: it stands for the scene's own write.
#include "shared/HostDevice.h"

#ifndef HALF_FRAME
#define HALF_FRAME 1
#endif

layout(local_size_x = 16, local_size_y = 16) in;

layout(binding = kTextureUnitInput) uniform sampler2D uInput;
#if HALF_FRAME
layout(std430, binding = kBindingScratch0) writeonly buffer Frame { uvec2 frame[]; };
#else
layout(std430, binding = kBindingScratch0) writeonly buffer Frame { vec4 frame[]; };
#endif
layout(location = 0) uniform ivec2 uSize;

void main()
{
    const ivec2 texel = ivec2(gl_GlobalInvocationID.xy);
    if (texel.x >= uSize.x || texel.y >= uSize.y)
        return;
    const vec4 rgba = texelFetch(uInput, texel, 0);
    const uint index = uint(texel.y) * uint(uSize.x) + uint(texel.x);
#if HALF_FRAME
    frame[index] = uvec2(packHalf2x16(rgba.rg), packHalf2x16(rgba.ba));
#else
    frame[index] = rgba;
#endif
}
