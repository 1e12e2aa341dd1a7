// Latency.comp: the cost of a dispatch that does (almost) nothing, for `bench pipeline`'s latency
// lines (app/BenchLatency.h): GROUP_SIZE invocations wait at uBarriers barriers; the store that never
// happens keeps the compiler from removing the kernel.
layout(local_size_x = GROUP_SIZE) in;

layout(std430, binding = 1) writeonly buffer Sink { uint sink[]; };
layout(location = 0) uniform uint uBarriers;

void main()
{
    for (uint i = 0u; i < uBarriers; ++i)
        barrier();
    if (gl_LocalInvocationIndex == 0u && uBarriers == 0xffffffffu)
        sink[0] = 1u;
}
