// HistogramMean.glsl: the mean log2 L of a histogram given as its inclusive CDF (each bin's mass at
// the bin's centre), summed by the whole workgroup (a strided sum per invocation, then a tree in
// shared memory), for the percentile operator's cut detection (PercentileMeterCore.glsl). Every
// invocation must call it (it has barriers). The includer defines MEAN_GROUP_SIZE (the workgroup's
// size, a power of two) and `uint cdfAt(uint i)`.

shared float sMeanPartial[MEAN_GROUP_SIZE];

/// Sum over bins of count_i * (i + 0.5), the same value in every invocation.
float histogramCentreSum(uint thread, uint bins)
{
    float sum = 0.0;
    for (uint i = thread; i < bins; i += uint(MEAN_GROUP_SIZE)) {
        uint before = i == 0u ? 0u : cdfAt(i - 1u);
        sum += float(cdfAt(i) - before) * (float(i) + 0.5);
    }
    sMeanPartial[thread] = sum;
    memoryBarrierShared();
    barrier();
    for (uint stride = uint(MEAN_GROUP_SIZE) / 2u; stride > 0u; stride /= 2u) {
        if (thread < stride)
            sMeanPartial[thread] += sMeanPartial[thread + stride];
        memoryBarrierShared();
        barrier();
    }
    return sMeanPartial[0];
}
