// WardPcondPoints.comp: pcond's random point samples (getlumsamp): one invocation per pixel drawn
// (positions from WardPcondPlan, in draw order), its plum() rounded to float as pcond's ls[] array
// holds it, and its ln; two doubles per sample after the foveal samples in the sample buffer.
#include "shared/HostDevice.h"
#include "tonemap/Float64.glsl"

layout(local_size_x = 256) in;

layout(binding = kTextureUnitInput) uniform sampler2D uInput;
layout(std430, binding = kBindingScratch0) readonly buffer Positions { uint positions[]; };
layout(std430, binding = kBindingScratch1) writeonly buffer Samples { double samples[]; };

#include "tonemap/WardPcondCommon.glsl"

layout(location = 0) uniform uint uCount;
layout(location = 1) uniform uint uFirst; // sample index of the first point (after the foveal samples)

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= uCount)
        return;
    uint position = positions[i];
    vec3 rgb = pcondPixel(int(position & 0xffffu), int(position >> 16u));
    double L = double(float(pcondLuminance(rgb)));
    samples[2u * (uFirst + i)] = L;
    samples[2u * (uFirst + i) + 1u] = pcondLog(L);
}
