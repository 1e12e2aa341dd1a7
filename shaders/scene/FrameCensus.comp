// FrameCensus.comp: the forward path's frame statistics (scene/PreExposure.h), from the stored frame:
// the pixels with a channel at the clamp (uOutputRange.x: what every value above uOutputRange.w was
// stored as) and the largest stored channel times 2^-k, cd/m^2. The forward passes shade hidden
// fragments too (overdraw), so they cannot count pixels; they record only the true peak of values
// that clip (noteClippedFragment), which this pass's atomicMax joins. One read of the frame, one
// global atomic per 16x16 workgroup.
#include "scene/PreExposure.glsl"

layout(local_size_x = 16, local_size_y = 16) in;

layout(binding = 0) uniform sampler2D uStored;

shared uint sCensusClipped;
shared uint sCensusPeak;

void main()
{
    ivec2 pixel = ivec2(gl_GlobalInvocationID.xy);
    bool inside = all(lessThan(pixel, textureSize(uStored, 0)));
    if (gl_LocalInvocationIndex == 0u) {
        sCensusClipped = 0u;
        sCensusPeak = 0u;
    }
    memoryBarrierShared();
    barrier();
    if (inside) {
        vec3 stored = texelFetch(uStored, pixel, 0).rgb;
        if (any(greaterThanEqual(stored, vec3(uOutputRange.x))))
            atomicAdd(sCensusClipped, 1u);
        atomicMax(sCensusPeak, peakBitsOf(unexposedRadiance(stored)));
    }
    memoryBarrierShared();
    barrier();
    if (gl_LocalInvocationIndex == 0u) {
        if (sCensusClipped != 0u)
            atomicAdd(uFrameStats[kFrameStatsClipped], sCensusClipped);
        if (sCensusPeak != 0u)
            atomicMax(uFrameStats[kFrameStatsPeak], sCensusPeak);
    }
}
