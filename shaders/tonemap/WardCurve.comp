// WardCurve.comp: Ward's histogram adjustment curve from the foveal image (frame sampling), in one
// workgroup and one dispatch (Ward Larson, Rushmeier & Piatko 1997, as Radiance pcond comphist +
// mkbrmap do it), every result bit for bit what the CPU reference (reference/ToneWardExact) computes
// (the fit and its exactness: WardFit.glsl). The pipeline's frame fit spreads the samples' reads over
// many workgroups instead (WardCurveSpread.comp); this kernel stays for the ranges a selected
// histogram method bins with (kStageRange), for the ceiling stage on a method's or a fed histogram
// (kStageCeiling), and as bench ward-factors' "one workgroup (before)" rows (kStageAll).
//  1. Range and log-average: two reads of the samples by the one workgroup, first min/max (a tree in
//     shared memory), then the log-average and (kStageAll) the histogram together.
//  2. Histogram in shared memory, written out with its params for the view and the tests.
//  3. The ceiling loop and the curve (WardFit.glsl fitAndWrite).
// Limits: one workgroup reads every sample twice, so its time grows with the foveal grid (about
// 30 us for ten thousand samples on an H100-class GPU).
//
// Timing experiments only (bench ward-factors; the method never sets them): STOP_AFTER 1 returns
// after the range and log-average, 2 after the histogram, 3 after the ceiling loop (state passes and
// final total written); PASS_LIMIT caps the loop below WARD_MAX_PASSES; CONSTANT_THRESHOLD 1 replaces
// hdWardThreshold by 1 (not exact: only to isolate its cost in the TVI ceiling). GROUP_SIZE (the host
// passes post::WardCurveProgram::kGroupSize; the bench also 512 and 1024) is the workgroup's size:
// every result is the same for any power of two from 64 to 1024.
#include "tonemap/WardFit.glsl"

// One dispatch does everything (kStageAll); with the histogram built by the selected method, a first
// dispatch computes the range (kStageRange), the method bins the foveal image with it, and a second
// dispatch runs the ceiling loop on the method's bins (kStageCeiling; also a fed histogram's).
const uint kStageAll = 0u;
const uint kStageRange = 1u;
const uint kStageCeiling = 2u;

// Steps 1 and 2: range and log-average of the foveal samples (pcond comphist); with binSamples, the
// histogram over that range in the same read as the log-average (written out by writeHistogram).
void computeRange(uint tid, uint n, bool binSamples)
{
    if (binSamples) {
        for (uint i = tid; i < n; i += kGroup)
            sBins[i] = 0u;
        if (tid < kCounterCount)
            sCounters[tid] = 0u;
    }
    uint count = uint(uGridSize.x * uGridSize.y);
    float lmin = 3.0e38;
    float lmax = -3.0e38;
    for (uint i = tid; i < count; i += kGroup) {
        float L = luminanceAt(i);
        if (isnan(L) || isinf(L))
            continue;
        L = max(L, 0.0);
        lmin = min(lmin, L);
        lmax = max(lmax, L);
    }
    sScratch[tid] = floatBitsToUint(lmin);
    sScratch[kGroup + tid] = floatBitsToUint(lmax);
    SYNC();
    for (uint s = kGroup / 2u; s > 0u; s >>= 1u) {
        if (tid < s) {
            sScratch[tid] = floatBitsToUint(min(uintBitsToFloat(sScratch[tid]), uintBitsToFloat(sScratch[tid + s])));
            sScratch[kGroup + tid] =
                floatBitsToUint(max(uintBitsToFloat(sScratch[kGroup + tid]), uintBitsToFloat(sScratch[kGroup + tid + s])));
        }
        SYNC();
    }
    if (tid == 0u)
        publishRange(uintBitsToFloat(sScratch[0]), uintBitsToFloat(sScratch[kGroup]), n);
    SYNC();
    // The log-average: each ln rounded to 2^-16 (exact in float: |ln| < 2^5) and summed in 64 bits,
    // so the order of the additions does not matter.
    float lwmin = sLwmin;
    float lwmax = sLwmax;
    float logMin = HD_MUL(sBwmin, kInvLn2f); // the same float words the params buffer holds
    float logMax = HD_MUL(sBwmax, kInvLn2f);
    float scale = hdBinScale(logMin, logMax, n);
    uvec2 sum = uvec2(0u);
    uint counted = 0u;
    for (uint i = tid; i < count; i += kGroup) {
        float L = luminanceAt(i);
        if (binSamples) {
            int code = hdBinOfScaled(L, logMin, logMax, scale, n, kOutOfRangeSeparate);
            if (code >= 0)
                atomicAdd(sBins[uint(code)], 1u);
            else
                atomicAdd(sCounters[hdCounterOfCode(code)], 1u);
        }
        if (isnan(L) || isinf(L) || L < lwmin || L >= lwmax)
            continue;
        HD_PRECISE float scaled = HD_ADD(HD_MUL(hdLn(L), 65536.0), 0.5);
        sum = add64(sum, fromInt(int(floor(scaled))));
        ++counted;
    }
    sScratch[tid] = sum.x;
    sScratch[kGroup + tid] = sum.y;
    sScratch[2u * kGroup + tid] = counted;
    SYNC();
    for (uint s = kGroup / 2u; s > 0u; s >>= 1u) {
        if (tid < s) {
            uvec2 a = uvec2(sScratch[tid], sScratch[kGroup + tid]);
            uvec2 b = uvec2(sScratch[tid + s], sScratch[kGroup + tid + s]);
            uvec2 c = add64(a, b);
            sScratch[tid] = c.x;
            sScratch[kGroup + tid] = c.y;
            sScratch[2u * kGroup + tid] += sScratch[2u * kGroup + tid + s];
        }
        SYNC();
    }
    if (tid == 0u)
        publishAverage(uvec2(sScratch[0], sScratch[kGroup]), sScratch[2u * kGroup]);
    SYNC();
}

// The range written by an earlier kStageRange dispatch (or by the host for a fed histogram).
void loadRange(uint tid)
{
    if (tid == 0u) {
        sBwmin = state[gStateAt + (WARD_BWMIN)];
        sBwmax = state[gStateAt + (WARD_BWMAX)];
        sBwavg = state[gStateAt + (WARD_BWAVG)];
        sRangeValid = state[gStateAt + (WARD_RANGE_VALID)] != 0.0 ? 1u : 0u;
        sDuplicated = state[gStateAt + (WARD_DUPLICATED)] != 0.0 ? 1u : 0u;
    }
    SYNC();
}

void main()
{
    selectTile();
    uint tid = gl_LocalInvocationID.x;
    uint n = clamp(uBins, 2u, uint(WARD_MAX_BINS));
    if (uStage == kStageCeiling)
        loadRange(tid);
    else
        computeRange(tid, n, uStage == kStageAll && STOP_AFTER != 1);
    if (uStage == kStageRange || STOP_AFTER == 1)
        return;
    if (uStage == kStageAll) {
        writeHistogram(tid, n);
    } else {
        for (uint i = tid; i < n; i += kGroup)
            sBins[i] = histogram[gHistogramAt + (i)];
        SYNC();
    }
    if (STOP_AFTER == 2)
        return;
    fitAndWrite(tid, n);
}
