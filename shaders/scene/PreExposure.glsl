// PreExposure.glsl: how the scene's shaders store a radiance in the colour target (scene/PreExposure.h):
// times 2^k (uOutputRange.y; 1 unless the frame is pre-exposed), clamped to [0, uOutputRange.x]; and
// the frame's statistics the choice of k reads back: the pixels that clip and the peak, the largest
// channel before pre-exposure and clamp (cd/m^2, as float bits: non-negative floats order as uints).
// Statistics are kept while uOutputRange.w > 0 (an RGBA16F target): a stored value above it is
// stored as the clamp (w = the clamp minus half a half-float step: what rounds to it).
//   Fragment shaders: noteClippedFragment records the true peak of a value that clips (rare by
//   design, so the atomic costs nothing); the forward path's census pass (FrameCensus.comp) then
//   counts the clipped pixels and the peak of the others from the stored frame, since overdraw
//   would count hidden fragments here.
//   The deferred lighting pass (PRE_EXPOSURE_WORKGROUP): noteStoredPixel counts and maxes every
//   pixel in shared memory, one global atomic per workgroup.
#ifndef PRE_EXPOSURE_GLSL
#define PRE_EXPOSURE_GLSL

#include "scene/SceneFrame.glsl"
#include "shared/HostDevice.h"

layout(std430, binding = 1) buffer SceneFrameStats
{
    uint uFrameStats[]; // hd::kFrameStats* words
};

// What the target stores for radiance c (cd/m^2). NaN-safe: max/min return the non-NaN operand on
// every GL implementation we target. Multiplying by 2^k is exact, whatever order the compiler picks.
vec3 storedRadiance(vec3 c)
{
    return clamp(c * uOutputRange.y, vec3(0.0), vec3(uOutputRange.x));
}

// A stored value back in cd/m^2 (exact: 2^-k).
vec3 unexposedRadiance(vec3 stored)
{
    return stored * uOutputRange.z;
}

bool frameStatsActive()
{
    return uOutputRange.w > 0.0;
}

// The value before clamping (pre-exposed) lands on the clamp once stored.
bool storesClipped(vec3 c)
{
    vec3 exposed = c * uOutputRange.y;
    return any(greaterThan(exposed, vec3(uOutputRange.w)));
}

// The largest channel of c as ordered bits (NaN and negatives count as 0, +Inf as +Inf).
uint peakBitsOf(vec3 c)
{
    return floatBitsToUint(max(max(max(c.r, c.g), c.b), 0.0));
}

void noteClippedFragment(vec3 c)
{
    if (frameStatsActive() && storesClipped(c))
        atomicMax(uFrameStats[kFrameStatsPeak], peakBitsOf(c));
}

#ifdef PRE_EXPOSURE_WORKGROUP
shared uint sClippedPixels;
shared uint sPeakBits;

// Called by every invocation of the workgroup (uniform control flow); `inside`: it stored a pixel.
void noteStoredPixel(bool inside, vec3 c)
{
    if (!frameStatsActive())
        return;
    if (gl_LocalInvocationIndex == 0u) {
        sClippedPixels = 0u;
        sPeakBits = 0u;
    }
    memoryBarrierShared();
    barrier();
    if (inside) {
        if (storesClipped(c))
            atomicAdd(sClippedPixels, 1u);
        atomicMax(sPeakBits, peakBitsOf(c));
    }
    memoryBarrierShared();
    barrier();
    if (gl_LocalInvocationIndex == 0u) {
        if (sClippedPixels != 0u)
            atomicAdd(uFrameStats[kFrameStatsClipped], sClippedPixels);
        if (sPeakBits != 0u)
            atomicMax(uFrameStats[kFrameStatsPeak], sPeakBits);
    }
}
#endif

#endif
