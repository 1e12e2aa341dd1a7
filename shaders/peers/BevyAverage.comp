// BevyAverage.comp: Bevy's auto-exposure average pass, its structure (Bevy 0.14+, auto_exposure.wgsl,
// compute_average) written anew (commands/bench/peers/BevyPeer.h): one invocation walks the 64 bins,
// keeps their running sum and clears them; the cumulative counts clamped to [low, high] % of the
// total give each bin's share; the mean bin index over 63 spans the log range (avg log2 L); the
// target is -avg (the default compensation curve is flat 0); the exposure moves toward it by at most
// speed x dt, proportionally within the transition distance (Bevy's darken speed when the target is
// above, brighten below, as its shader names them).
#include "shared/HostDevice.h"
#include "shared/Peers.h"

layout(local_size_x = 1) in;

layout(std430, binding = kBindingHistogram) buffer Bins { uint bins[]; };
layout(std430, binding = kBindingOperatorState) buffer State { float state[]; };
layout(location = kPeerUniformSnap) uniform uint uSnap;
layout(location = kPeerUniformSeconds) uniform float uSeconds;

void main()
{
    uint cumulative[kBevyBins];
    uint total = 0u;
    for (uint i = 0u; i < kBevyBins; ++i) {
        total += bins[i];
        cumulative[i] = total;
        bins[i] = 0u;
    }
    const uint first = uint(float(total) * kBevyLowPercent);
    const uint last = uint(float(total) * kBevyHighPercent);
    uint count = 0u;
    float weighted = 0.0;
    for (uint i = 1u; i < kBevyBins; ++i) {
        const uint share = clamp(cumulative[i], first, last) - clamp(cumulative[i - 1u], first, last);
        weighted += float(share) * float(i);
        count += share;
    }
    float avgLog = kBevyLogMin;
    if (count > 0u)
        avgLog = weighted / (float(count) * float(kBevyBins - 1u)) * (kBevyLogMax - kBevyLogMin) + kBevyLogMin;
    const float target = -avgLog;

    float exposure = uSnap != 0u ? target : state[kPeerStateEngine];
    const float delta = target - exposure;
    if (target > exposure) {
        const float step = kBevySpeedDarken * uSeconds;
        exposure += min(step, delta * step / kBevyTransition);
    } else {
        const float step = kBevySpeedBrighten * uSeconds;
        exposure += max(-step, delta * step / kBevyTransition);
    }
    state[kPeerStateEngine] = exposure;
    state[kPeerStateEv] = exposure;
    state[kPeerStateTargetEv] = target;
}
