// StreamCopy.comp: the reference copy of `hdrlab bench pipeline` (printed beside the floors' read and
// write rates, not used by them): shader cores stream a buffer into another, 16 bytes per invocation
// per step (grid-stride). A GL buffer copy can go through a DMA copy engine instead, far slower than
// the SMs on an H200.
layout(local_size_x = 256) in;

layout(std430, binding = 0) readonly buffer Source { uvec4 source[]; };
layout(std430, binding = 1) writeonly buffer Target { uvec4 target[]; };
layout(location = 0) uniform uint uCount; // uvec4 elements

void main()
{
    const uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint i = gl_GlobalInvocationID.x; i < uCount; i += stride)
        target[i] = source[i];
}
