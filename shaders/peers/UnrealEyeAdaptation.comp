// UnrealEyeAdaptation.comp: Unreal Engine 5's eye adaptation from the histogram, its structure
// (PostProcessEyeAdaptation.usf with ComputeAverageLuminanceWithoutOutlier and ComputeEyeAdaptation
// of PostProcessHistogramCommon.ush) written anew (commands/bench/peers/UnrealPeer.h): one
// invocation walks the 64 bins, removes the lowest 10 % and highest 10 % of the mass, averages the
// bins' log2 luminance (bin i at logMin + i / 63 of the range) over what is left, limits the average
// luminance to 0.03..8 and exposes it to 0.18; the log2 exposure moves toward the target at speed x
// dt beyond the transition distance, by 1 - 2^(-speed dt) of the difference within it.
#include "shared/HostDevice.h"
#include "shared/Peers.h"

layout(local_size_x = 1) in;

layout(std430, binding = kBindingScratch1) readonly buffer Reduced { float histogram[]; };
layout(std430, binding = kBindingOperatorState) buffer State { float state[]; };
layout(location = kPeerUniformSnap) uniform uint uSnap;
layout(location = kPeerUniformSeconds) uniform float uSeconds;

void main()
{
    float total = 0.0;
    for (uint i = 0u; i < kUnrealBins; ++i)
        total += histogram[i];
    float low = total * kUnrealLowPercent;
    float high = total * kUnrealHighPercent;
    vec2 kept = vec2(0.0); // (sum of log2 L x mass, mass)
    for (uint i = 0u; i < kUnrealBins; ++i) {
        float value = histogram[i];
        const float removedLow = min(value, low);
        value -= removedLow;
        low -= removedLow;
        high -= removedLow;
        value = min(value, high);
        high -= value;
        const float logL = kUnrealLogMin + float(i) / float(kUnrealBins - 1u) * (kUnrealLogMax - kUnrealLogMin);
        kept += vec2(logL, 1.0) * value;
    }
    const float average = clamp(exp2(kept.x / max(0.0001, kept.y)), kUnrealMinAverage, kUnrealMaxAverage);
    const float target = log2(kUnrealKey / average);

    float exposure = uSnap != 0u ? target : state[kPeerStateEngine];
    const float difference = target - exposure;
    const float speed = difference > 0.0 ? kUnrealSpeedUp : kUnrealSpeedDown;
    if (abs(difference) > kUnrealTransition)
        exposure += sign(difference) * min(abs(difference), speed * uSeconds);
    else
        exposure += difference * (1.0 - exp2(-speed * uSeconds));
    state[kPeerStateEngine] = exposure;
    state[kPeerStateEv] = exposure;
    state[kPeerStateTargetEv] = target;
}
