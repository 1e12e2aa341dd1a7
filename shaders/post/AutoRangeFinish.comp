// Automatic histogram range, step 2 (one thread): log2 of the reduced min/max, degenerate-range
// guards, exponential smoothing over time, written into the params buffer (never read by the CPU).
// On footage (uCutResetEv > 0) a frame whose own range moved more than uCutResetEv at either end since
// the previous frame, or reaches more than that beyond the smoothed range, resets the range to its own:
// a cut is then binned without clamping, so the histogram's mean log2 L (the cut detector) measures the
// frames themselves, independent of the smoothing (rangeBits[2..3] keep the previous frame's range).
#include "shared/HostDevice.h"

layout(local_size_x = 1) in;

layout(std430, binding = kBindingScratch0) buffer RangeBuffer { uint rangeBits[]; }; // [0] min L, [1] max L, [2..3] last log range
layout(std430, binding = kBindingHistogramParams) buffer ParamsBuffer { uint params[]; };
layout(location = 0) uniform float uBlend;        // 1 - exp(-speed * dt); 1 = jump to the new range
layout(location = 1) uniform vec2 uFallbackRange; // used when no range exists yet and the frame is empty
layout(location = 2) uniform float uMinimumSpan;  // narrower ranges are widened around their centre
layout(location = 3) uniform float uCutResetEv;   // footage: a move beyond this resets the range; 0 = never

void main()
{
    float oldMin = uintBitsToFloat(params[kParamLogMin]);
    float oldMax = uintBitsToFloat(params[kParamLogMax]);
    bool oldValid = !isnan(oldMin) && !isnan(oldMax) && !isinf(oldMin) && !isinf(oldMax) && oldMax > oldMin;

    uint minBits = rangeBits[0];
    uint maxBits = rangeBits[1];
    vec2 target;
    bool cutReset = false;
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
        vec2 last = vec2(uintBitsToFloat(rangeBits[2]), uintBitsToFloat(rangeBits[3]));
        bool lastValid = !isnan(last.x) && !isnan(last.y) && !isinf(last.x) && !isinf(last.y) && last.y > last.x;
        if (uCutResetEv > 0.0 && oldValid && lastValid) {
            vec2 moved = abs(target - last);
            cutReset = max(moved.x, moved.y) > uCutResetEv || target.x < oldMin - uCutResetEv ||
                       target.y > oldMax + uCutResetEv;
        }
        rangeBits[2] = floatBitsToUint(target.x);
        rangeBits[3] = floatBitsToUint(target.y);
    }
    float blend = oldValid && !cutReset ? clamp(uBlend, 0.0, 1.0) : 1.0;
    vec2 range = blend >= 1.0 ? target : mix(vec2(oldMin, oldMax), target, blend);
    if (!(range.y > range.x))
        range = target;
    params[kParamLogMin] = floatBitsToUint(range.x);
    params[kParamLogMax] = floatBitsToUint(range.y);
}
