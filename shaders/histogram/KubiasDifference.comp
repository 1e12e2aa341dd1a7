// KubiasDifference.comp: h_i = H_i - H_(i-1) (Kubias et al. 2007, eq. 5) from the cumulative
// histogram that the planes' occlusion queries wrote into the cumulative buffer.
#include "histogram/HistogramCommon.glsl"

layout(local_size_x = 256) in;

layout(std430, binding = kBindingHistogram) buffer HistogramBuffer { uint histogram[]; };
layout(std430, binding = kBindingScratch0) readonly buffer CumulativeBuffer { uint cumulative[]; };
layout(location = 0) uniform uint uBinCount;

void main()
{
    uint bin = gl_GlobalInvocationID.x;
    if (bin >= uBinCount)
        return;
    histogram[bin] = cumulative[bin] - (bin == 0u ? 0u : cumulative[bin - 1u]);
}
