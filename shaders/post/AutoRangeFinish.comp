// Automatic histogram range, step 2 (one thread): log2 of the reduced min/max, degenerate-range
// guards, exponential smoothing over time, written into the params buffer (never read by the CPU).
#include "shared/HostDevice.h"

layout(local_size_x = 1) in;

layout(std430, binding = kBindingScratch0) readonly buffer RangeBuffer { uint rangeBits[]; };
layout(std430, binding = kBindingHistogramParams) buffer ParamsBuffer { uint params[]; };
layout(location = 0) uniform float uBlend;        // 1 - exp(-speed * dt); 1 = jump to the new range
layout(location = 1) uniform vec2 uFallbackRange; // used when no range exists yet and the frame is empty
layout(location = 2) uniform float uMinimumSpan;  // narrower ranges are widened around their centre

void main()
{
    float oldMin = uintBitsToFloat(params[kParamLogMin]);
    float oldMax = uintBitsToFloat(params[kParamLogMax]);
    bool oldValid = !isnan(oldMin) && !isnan(oldMax) && !isinf(oldMin) && !isinf(oldMax) && oldMax > oldMin;

    uint minBits = rangeBits[0];
    uint maxBits = rangeBits[1];
    vec2 target;
    if (maxBits == 0u) {
        // Empty frame (no finite positive luminance): keep the current range.
        target = oldValid ? vec2(oldMin, oldMax) : uFallbackRange;
    } else {
        // hdLog2, the binning's own log2, so the darkest pixel sits exactly on logMin (bin 0, not below).
        target = vec2(hdLog2(uintBitsToFloat(minBits)), hdLog2(uintBitsToFloat(maxBits)));
        if (target.y - target.x < uMinimumSpan) {
            float centre = 0.5 * (target.x + target.y);
            target = vec2(centre - 0.5 * uMinimumSpan, centre + 0.5 * uMinimumSpan);
        }
    }
    float blend = oldValid ? clamp(uBlend, 0.0, 1.0) : 1.0;
    vec2 range = blend >= 1.0 ? target : mix(vec2(oldMin, oldMax), target, blend);
    if (!(range.y > range.x))
        range = target;
    params[kParamLogMin] = floatBitsToUint(range.x);
    params[kParamLogMax] = floatBitsToUint(range.y);
}
