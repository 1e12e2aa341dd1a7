// UnrealDownsample.comp: the half-resolution scene colour Unreal Engine 5 meters (PostProcessing.cpp
// hands AddHistogramPass its HalfResolutionSceneColor, made by AddDownsamplePass), written anew for
// `bench pipeline --peers` (commands/bench/peers/UnrealPeer.h): each texel of a ceil(w/2) x ceil(h/2)
// RGBA16F image is the mean of a 2x2 block, coordinates clamped to the frame (the one bilinear tap at
// the block's centre with clamp-to-edge addressing, UE's low-quality downsample).
#include "shared/HostDevice.h"
#include "shared/Peers.h"

layout(local_size_x = 8, local_size_y = 8) in;

layout(binding = kTextureUnitInput) uniform sampler2D uFrame;
layout(binding = 0, rgba16f) uniform writeonly image2D uHalf;

void main()
{
    const ivec2 out_ = ivec2(gl_GlobalInvocationID.xy);
    if (any(greaterThanEqual(out_, imageSize(uHalf))))
        return;
    const ivec2 last = textureSize(uFrame, 0) - 1;
    const ivec2 base = out_ * 2;
    const vec4 sum = texelFetch(uFrame, min(base, last), 0) + texelFetch(uFrame, min(base + ivec2(1, 0), last), 0) +
                     texelFetch(uFrame, min(base + ivec2(0, 1), last), 0) + texelFetch(uFrame, min(base + 1, last), 0);
    imageStore(uHalf, out_, sum * 0.25);
}
