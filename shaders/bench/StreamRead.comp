// StreamRead.comp: the read rate of `hdrlab bench pipeline`'s memory floor (app/BenchBandwidth.h): the
// shader cores only read a buffer, 16 bytes per access, ITEMS accesses issued per invocation before
// any result is used (loads in flight), grid-stride over the buffer, each step's accesses coalesced
// across the workgroup. The values are XOR-ed together and stored only when they equal uSentinel,
// which the host makes impossible (the buffer holds one repeated word), so the compiler must keep
// every load and the kernel writes nothing.
#ifndef GROUP_SIZE
#define GROUP_SIZE 256
#endif
#ifndef ITEMS
#define ITEMS 4
#endif
layout(local_size_x = GROUP_SIZE) in;

layout(std430, binding = 0) readonly buffer Source { uvec4 source[]; };
layout(std430, binding = 1) writeonly buffer Sink { uvec4 sink[]; };
layout(location = 0) uniform uint uCount; // uvec4 elements
layout(location = 1) uniform uint uSentinel;

void main()
{
    const uint chunk = uint(GROUP_SIZE * ITEMS);
    const uint stride = gl_NumWorkGroups.x * chunk;
    uint base = gl_WorkGroupID.x * chunk + gl_LocalInvocationID.x;
    uvec4 sum = uvec4(0u);
    // Whole steps: every access in bounds.
    for (; base + uint((ITEMS - 1) * GROUP_SIZE) < uCount; base += stride) {
        uvec4 v[ITEMS];
        for (int k = 0; k < ITEMS; ++k)
            v[k] = source[base + uint(k * GROUP_SIZE)];
        for (int k = 0; k < ITEMS; ++k)
            sum ^= v[k];
    }
    // The last, partial step (at most one per invocation: stride > (ITEMS - 1) * GROUP_SIZE).
    for (int k = 0; k < ITEMS; ++k) {
        const uint i = base + uint(k * GROUP_SIZE);
        if (i < uCount)
            sum ^= source[i];
    }
    if ((sum.x ^ sum.y ^ sum.z ^ sum.w) == uSentinel)
        sink[0] = sum;
}
