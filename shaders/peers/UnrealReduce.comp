// UnrealReduce.comp: Unreal Engine 5's histogram reduce (PostProcessHistogramReduce.usf, a pixel
// shader there) written anew as one workgroup (commands/bench/peers/UnrealPeer.h): invocation i sums
// texel i (4 bins) of every workgroup's row into the one histogram the eye adaptation reads.
#include "shared/HostDevice.h"
#include "shared/Peers.h"

layout(local_size_x = kUnrealBins / 4u) in;

layout(std430, binding = kBindingScratch0) readonly buffer Rows { vec4 rows[]; };
layout(std430, binding = kBindingScratch1) writeonly buffer Reduced { vec4 reduced[]; };
layout(location = kPeerUniformGroups) uniform uint uRows;

void main()
{
    const uint texel = gl_LocalInvocationIndex;
    vec4 sum = vec4(0.0);
    for (uint row = 0u; row < uRows; ++row)
        sum += rows[row * (kUnrealBins / 4u) + texel];
    reduced[texel] = sum;
}
