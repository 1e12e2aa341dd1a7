// HdrpReduce.comp: Unity HDRP's histogram reduce, its structure (HistogramExposure.compute
// KHistogramReduce, without wave intrinsics) written anew (commands/bench/peers/HdrpPeer.h): 128
// invocations, one bin each, unpack the weights (/ 2048) and sum them in shared memory; invocation 0
// walks the bins removing the lowest 40 % of the mass and keeping up to 90 %, averages the bins' EV100
// (bin i at i / 127 of the limits) over what is kept, adapts exponentially (prev + d (1 - 2^(-dt
// speed)), dark-to-light 3 when the EV100 rises, light-to-dark 1 otherwise) and clamps to the limits;
// the picture's factor is 1 / (1.2 x 2^EV100).
#include "shared/HostDevice.h"
#include "shared/Peers.h"

layout(local_size_x = kHdrpBins) in;

layout(std430, binding = kBindingHistogram) readonly buffer Bins { uint bins[]; };
layout(std430, binding = kBindingOperatorState) buffer State { float state[]; };
layout(location = kPeerUniformSnap) uniform uint uSnap;
layout(location = kPeerUniformSeconds) uniform float uSeconds;

shared float sValues[kHdrpBins];
shared float sSums[kHdrpBins];

void main()
{
    const uint bin = gl_LocalInvocationIndex;
    const float value = float(bins[bin]) / kHdrpWeightScale;
    sValues[bin] = value;
    sSums[bin] = value;
    barrier();
    for (uint half_ = kHdrpBins / 2u; half_ > 0u; half_ >>= 1u) {
        if (bin < half_)
            sSums[bin] += sSums[bin + half_];
        barrier();
    }
    if (bin != 0u)
        return;
    const float total = sSums[0];
    vec2 extremes = vec2(kHdrpLowPercent, kHdrpHighPercent) * total;
    float evSum = 0.0;
    float kept = 0.0;
    const float scale = 1.0 / (kHdrpLimitMax - kHdrpLimitMin);
    const float bias = -kHdrpLimitMin * scale;
    for (uint i = 0u; i < kHdrpBins; ++i) {
        float mass = sValues[i];
        const float shadows = min(extremes.x, mass);
        extremes -= shadows;
        mass -= shadows;
        mass = min(extremes.y, mass);
        extremes.y -= mass;
        evSum += mass * ((float(i) / float(kHdrpBins - 1u) - bias) / scale);
        kept += mass;
    }
    const float target = evSum / max(kept, 1e-4);
    const float previous = uSnap != 0u ? target : state[kPeerStateEngine];
    const float delta = target - previous;
    const float speed = delta > 0.0 ? kHdrpSpeedDarkToLight : kHdrpSpeedLightToDark;
    const float ev100 = clamp(previous + delta * (1.0 - exp2(-uSeconds * speed)), kHdrpLimitMin, kHdrpLimitMax);
    state[kPeerStateEngine] = ev100;
    state[kPeerStateEv] = -ev100 - log2(kHdrpLensImperfection);
    state[kPeerStateTargetEv] = -clamp(target, kHdrpLimitMin, kHdrpLimitMax) - log2(kHdrpLensImperfection);
}
