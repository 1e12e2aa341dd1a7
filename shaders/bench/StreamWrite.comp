// StreamWrite.comp: the write rate of `hdrlab bench pipeline`'s memory floor (app/BenchBandwidth.h):
// the shader cores only write a buffer, 16 bytes per access (a constant uvec4), ITEMS accesses per
// invocation per grid-stride step, each step's accesses coalesced across the workgroup; nothing read.
#ifndef GROUP_SIZE
#define GROUP_SIZE 256
#endif
#ifndef ITEMS
#define ITEMS 4
#endif
layout(local_size_x = GROUP_SIZE) in;

layout(std430, binding = 1) writeonly buffer Target { uvec4 target[]; };
layout(location = 0) uniform uint uCount; // uvec4 elements
layout(location = 1) uniform uint uValue;

void main()
{
    const uint chunk = uint(GROUP_SIZE * ITEMS);
    const uint stride = gl_NumWorkGroups.x * chunk;
    const uvec4 value = uvec4(uValue);
    uint base = gl_WorkGroupID.x * chunk + gl_LocalInvocationID.x;
    for (; base + uint((ITEMS - 1) * GROUP_SIZE) < uCount; base += stride)
        for (int k = 0; k < ITEMS; ++k)
            target[base + uint(k * GROUP_SIZE)] = value;
    for (int k = 0; k < ITEMS; ++k) {
        const uint i = base + uint(k * GROUP_SIZE);
        if (i < uCount)
            target[i] = value;
    }
}
