// 8-bit equalization, step 2: Bugetti's NormalizeCdf and EqualizeHistogram in one pass. Every
// workgroup rebuilds the 256-entry level table from the CDF in shared memory (cdf_min = the first
// non-zero CDF value, found with atomicMin as in the report), then maps its packed pixels:
//   level = ((cdf - cdf_min) * 255 + (N - cdf_min) / 2) / (N - cdf_min)   (integer, round half up)
// with the products in 64 bits (umulExtended) so images above 16.8 M pixels do not overflow. A
// uniform image (N == cdf_min) is copied unchanged.
#include "shared/HostDevice.h"

#define LEVELS 256u
#define GROUP_SIZE 256u
#define WORDS_PER_THREAD 8u

layout(local_size_x = GROUP_SIZE) in;

layout(std430, binding = kBindingScratch0) readonly buffer Pixels { uint packedPixels[]; };
layout(std430, binding = kBindingCdf) readonly buffer CdfBuffer { uint cdf[]; };
layout(std430, binding = kBindingScratch1) writeonly buffer Output { uint packedOutput[]; };
layout(location = 0) uniform uint uPixelCount;

shared uint sFirstNonZero;
shared uint sLevel[LEVELS];

// a*b + c >= d*q, all as 64-bit products (hi, lo), for the quotient search below.
bool atLeast(uint numeratorHi, uint numeratorLo, uint denominator, uint quotient)
{
    uint hi, lo;
    umulExtended(denominator, quotient, hi, lo);
    return numeratorHi > hi || (numeratorHi == hi && numeratorLo >= lo);
}

uint normalizedLevel(uint value, uint cdfMin, uint total)
{
    if (value < cdfMin)
        return 0u; // no pixel has this level
    uint denominator = total - cdfMin;
    uint hi, lo;
    umulExtended(value - cdfMin, LEVELS - 1u, hi, lo);
    uint carry;
    lo = uaddCarry(lo, denominator / 2u, carry);
    hi += carry;
    // The quotient lies in [0, 255]: find its 8 bits from the top.
    uint quotient = 0u;
    for (uint bit = 128u; bit != 0u; bit >>= 1u)
        if (atLeast(hi, lo, denominator, quotient | bit))
            quotient |= bit;
    return quotient;
}

void main()
{
    const uint local = gl_LocalInvocationIndex;
    if (local == 0u)
        sFirstNonZero = LEVELS;
    barrier();
    if (cdf[local] != 0u)
        atomicMin(sFirstNonZero, local);
    barrier();
    const uint total = uPixelCount;
    const uint cdfMin = sFirstNonZero < LEVELS ? cdf[sFirstNonZero] : total;
    sLevel[local] = total == cdfMin ? local : normalizedLevel(cdf[local], cdfMin, total);
    barrier();

    const uint wordCount = (uPixelCount + 3u) / 4u;
    const uint first = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * GROUP_SIZE * WORDS_PER_THREAD + local;
    for (uint k = 0u; k < WORDS_PER_THREAD; ++k) {
        uint word = first + k * GROUP_SIZE;
        if (word >= wordCount)
            break;
        uint bits = packedPixels[word];
        uint mapped = 0u;
        for (uint i = 0u; i < 4u; ++i)
            mapped |= sLevel[(bits >> (8u * i)) & 0xFFu] << (8u * i);
        packedOutput[word] = mapped;
    }
}
