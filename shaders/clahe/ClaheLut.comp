// CLAHE pass 2: each tile's LUT from its histogram, one workgroup per tile (gl_WorkGroupID.x), as
// OpenCV's CLAHE_CalcLut_Body: the clipped counts (sum of max(count - clip limit, 0)) reduced over the
// workgroup, every bin's count after the batch + residual redistribution (hdClaheRedistributed), the
// running sum over the bins, and lut = saturate_cast(sum * lutScale) (hdClaheLutValue, half to even).
// Each invocation owns PER_INVOCATION consecutive bins (4 at 8 bits, 64 of 65536 at 16 bits): it sums
// its bins, a workgroup exclusive scan of those sums gives each its starting running sum, and it
// writes its LUT values. All counts are ints, as OpenCV's (a tile's area is below 2^31).
#include "clahe/ClaheCommon.glsl"

#if SIXTEEN_BIT
#define GROUP_SIZE 1024
#else
#define GROUP_SIZE 64  // 4 bins each: 256 bins are little work, and fewer invocations mean fewer barrier steps
#endif
#define PER_INVOCATION (BINS / GROUP_SIZE)

layout(local_size_x = GROUP_SIZE) in;

layout(std430, binding = kBindingHistogram) readonly buffer TileHistograms { uint tileHistograms[]; };
layout(std430, binding = kBindingCurve) writeonly buffer Luts { uint luts[]; };  // 2 values a word

shared int sScan[GROUP_SIZE];

// The exclusive prefix sum of `value` over the workgroup's invocations (Hillis-Steele in shared
// memory) and the workgroup's total: returns (exclusive prefix, total).
ivec2 workgroupExclusiveScan(int value)
{
    const uint local = gl_LocalInvocationIndex;
    barrier();  // earlier readers of sScan are done
    sScan[local] = value;
    barrier();
    for (uint offset = 1u; offset < uint(GROUP_SIZE); offset <<= 1u) {
        const int add = local >= offset ? sScan[local - offset] : 0;
        barrier();
        sScan[local] += add;
        barrier();
    }
    return ivec2(sScan[local] - value, sScan[GROUP_SIZE - 1]);
}

int redistributed(uint base, int bin, int clipLimit, int clipped)
{
    const int count = int(tileHistograms[base + uint(bin)]);
    return clipLimit > 0 ? hdClaheRedistributed(count, bin, BINS, clipLimit, clipped) : count;
}

void main()
{
    const uint local = gl_LocalInvocationIndex;
    const uint base = gl_WorkGroupID.x * uint(BINS);
    const int clipLimit = uClipLimit;

    int clipped = 0;
    if (clipLimit > 0) {
        int excess = 0;
        for (uint i = 0u; i < uint(PER_INVOCATION); ++i)  // strided: coalesced reads
            excess += max(int(tileHistograms[base + local + i * uint(GROUP_SIZE)]) - clipLimit, 0);
        clipped = workgroupExclusiveScan(excess).y;
    }

    // Each bin's count after the redistribution, read twice (sum, then LUT) rather than held: 64 ints
    // an invocation would spill at 16 bits.
    const int firstBin = int(local) * PER_INVOCATION;
    int own = 0;
    for (int i = 0; i < PER_INVOCATION; ++i)
        own += redistributed(base, firstBin + i, clipLimit, clipped);
    int sum = workgroupExclusiveScan(own).x;

    for (int i = 0; i < PER_INVOCATION; i += 2) {
        sum += redistributed(base, firstBin + i, clipLimit, clipped);
        const uint low = uint(hdClaheLutValue(sum, uLutScale, MAX_VALUE));
        sum += redistributed(base, firstBin + i + 1, clipLimit, clipped);
        const uint high = uint(hdClaheLutValue(sum, uLutScale, MAX_VALUE));
        luts[(base + uint(firstBin + i)) / 2u] = low | (high << 16u);
    }
}
