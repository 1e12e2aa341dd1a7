// FusionCommon.glsl: what the fusion local exposure's passes share (post/localexposure/ExposureFusion.h):
// the shared arithmetic (shared/ExposureFusion.h) and the texel fetches clamped to the edge.
#include "shared/ExposureFusion.h"

layout(local_size_x = kFusionGroupSize, local_size_y = kFusionGroupSize) in;

vec4 fetchClamped(sampler2D plane, ivec2 texel, ivec2 size)
{
    return texelFetch(plane, clamp(texel, ivec2(0), size - ivec2(1)), 0);
}

float fetchClampedR(sampler2D plane, ivec2 texel, ivec2 size)
{
    return texelFetch(plane, clamp(texel, ivec2(0), size - ivec2(1)), 0).r;
}
