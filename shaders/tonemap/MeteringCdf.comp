// MeteringCdf.comp: the weighted histogram's inclusive CDF, normalised so that its last entry is
// kMeteringCdfTotal (2^30): cdf[i] = floor(cum_i * 2^30 / total + 0.5), all zero when the total weight
// is zero (the meter then keeps the previous exposure, as for an empty histogram). One workgroup:
// each invocation sums a contiguous run of bins, a Hillis-Steele scan over the runs, then each run
// is written. Sums are doubles, exact for integers below 2^53 (a 16384^2 frame weighs under 2^45).
#include "shared/HostDevice.h"

layout(local_size_x = kMeteringScanGroupSize) in;

layout(std430, binding = kBindingHistogramParams) readonly buffer Params { uint params[]; };
layout(std430, binding = kBindingScratch0) readonly buffer Weighted { uint weighted[]; };
layout(std430, binding = kBindingCdf) writeonly buffer Cdf { uint cdf[]; };
layout(std430, binding = kBindingScratch1) writeonly buffer Total { uint total[]; }; // lo, hi of the total weight

shared double sRuns[kMeteringScanGroupSize];

double binWeight(uint i)
{
    return double(weighted[2u * i]) + double(weighted[2u * i + 1u]) * 4294967296.0lf;
}

void main()
{
    uint bins = clamp(params[kParamBinCount], 1u, kMaxHistogramBins);
    uint t = gl_LocalInvocationIndex;
    uint run = (bins + kMeteringScanGroupSize - 1u) / kMeteringScanGroupSize;
    uint first = min(t * run, bins);
    uint last = min(first + run, bins);
    double sum = 0.0lf;
    for (uint i = first; i < last; ++i)
        sum += binWeight(i);
    sRuns[t] = sum;
    barrier();
    for (uint offset = 1u; offset < kMeteringScanGroupSize; offset *= 2u) {
        double add = t >= offset ? sRuns[t - offset] : 0.0lf;
        barrier();
        sRuns[t] += add;
        barrier();
    }
    double totalWeight = sRuns[kMeteringScanGroupSize - 1u];
    double running = t == 0u ? 0.0lf : sRuns[t - 1u];
    for (uint i = first; i < last; ++i) {
        running += binWeight(i);
        cdf[i] = totalWeight > 0.0lf ? uint(floor(running * double(kMeteringCdfTotal) / totalWeight + 0.5lf)) : 0u;
    }
    if (t == 0u) {
        uint high = uint(floor(totalWeight / 4294967296.0lf));
        total[0] = uint(totalWeight - double(high) * 4294967296.0lf);
        total[1] = high;
    }
}
