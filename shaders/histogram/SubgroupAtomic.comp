// compute-subgroup: global atomics after aggregating equal bins across the subgroup
// (GL_KHR_shader_subgroup). Until every invocation of the subgroup has added its pixel: the lowest
// pending invocation's slot becomes the leader, the invocations holding that slot are counted with
// one ballot, and one of them adds the count with a single atomic. A uniform image costs one atomic
// per subgroup instead of one per pixel; a noisy one degrades towards compute-global-atomic.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_ballot : require
#include "histogram/HistogramCommon.glsl"

layout(local_size_x = kHistogramGroupX, local_size_y = kHistogramGroupY) in;

layout(binding = kTextureUnitInput) uniform sampler2D uInput;
layout(std430, binding = kBindingHistogram) buffer HistogramBuffer { uint histogram[]; };
layout(location = 0) uniform ivec2 uSize;

void main()
{
    ivec2 texel = ivec2(gl_GlobalInvocationID.xy);
    bool pending = all(lessThan(texel, uSize));
    uint slot = 0u;
    if (pending)
        slot = slotOfCode(binOfColor(texelFetch(uInput, texel, 0)));
    // No early return: every invocation stays in the loop so that the ballots see the whole subgroup.
    while (subgroupAny(pending)) {
        if (pending) {
            uint leader = subgroupBroadcastFirst(slot);
            bool match = slot == leader;
            uint count = subgroupBallotBitCount(subgroupBallot(match));
            if (match) {
                pending = false;
                if (subgroupElect())
                    atomicAdd(histogram[leader], count);
            }
        }
    }
}
