// WardCurveSpread.comp: Ward's frame fit (Ward Larson, Rushmeier & Piatko 1997, as Radiance pcond
// comphist + mkbrmap do it; the fit itself and its exactness: WardFit.glsl) with the reads of the
// foveal samples spread over G workgroups, each a slice of GROUP_SIZE x SAMPLES_PER_INVOCATION
// samples, in two dispatches; each dispatch ends in its last workgroup (a ticket: the group whose
// atomicAdd on the ticket returns G - 1; the others have published their atomics before they drew).
//  SPREAD_STAGE 1, range: each group reduces the min and max of its finite samples (as max(L, 0)) in
//    shared memory and adds them with one global atomicMax each (keys that order like the floats:
//    ~bits for the minimum, bits + 1 for the maximum, 0 meaning none); the last group turns them into
//    the range exactly as the one-workgroup kernel does (publishRange), writes params and state, keeps
//    the range for stage 2 in the spread buffer and leaves keys and ticket zero.
//  SPREAD_STAGE 2, bin + fit: each group bins its slice in shared memory (hdBinOfScaled, as the
//    one-workgroup kernel) and sums its log-average in 64-bit fixed point, then adds its non-zero bins
//    to the spread buffer's accumulator and its sum as two 32-bit atomics (the low word's carry from
//    the value atomicAdd returns), which is exact and order-independent; the last group takes the
//    bins and sums (atomicExchange with 0: the buffer is zero again for the next frame), writes the
//    histogram and runs the fit (WardFit.glsl fitAndWrite) with the whole workgroup.
//  SPREAD_STAGE 2 with RANGE_KEYS 1 (no stage 1 runs): the histogram pass that made the foveal image
//    left the two keys in the range-keys buffer (histogram/SharedAtomic.comp FOVEAL_KEYS, the same
//    texels folded by the same code, WardRangeKeys.glsl); every group reads them and turns them into
//    the range itself (rangeFromExtremes: the same arithmetic, so the same bits in every group), the
//    last group writes params and state and zeroes the keys for the next frame (every group read
//    them before it drew its ticket).
// The results are the one-workgroup kernel's bits for any G (1 included: the only group is the last).
// No group ever waits for another (llvmpipe runs workgroups on a thread pool). Limits: the fit still
// runs in one workgroup (a few microseconds); a frame must run stage 1 before stage 2 (a storage
// barrier between), or the histogram pass with keys before RANGE_KEYS; the spread buffer and the keys
// must start zero (the host clears them once; unconsumed keys: WardCurveDispatch::offerRangeKeys).
#include "tonemap/WardFit.glsl"
#include "tonemap/WardRangeKeys.glsl"

#ifndef SPREAD_STAGE
#define SPREAD_STAGE 1
#endif
#ifndef RANGE_KEYS
#define RANGE_KEYS 0
#endif
#ifndef SAMPLES_PER_INVOCATION
#define SAMPLES_PER_INVOCATION 4
#endif

// The spread buffer (post::WardCurveDispatch::kSpreadWords uint words, zero at rest).
const uint kSpreadRangeTicket = 0u;
const uint kSpreadMinKey = 1u; // ~bits of the smallest sample (atomicMax), 0: none
const uint kSpreadMaxKey = 2u; // bits + 1 of the largest sample (atomicMax), 0: none
const uint kSpreadFitTicket = 3u;
const uint kSpreadSumLow = 4u; // the log-average's 64-bit sum (two's complement) and its count
const uint kSpreadSumHigh = 5u;
const uint kSpreadCount = 6u;
const uint kSpreadLwmin = 8u; // the range stage 1 found, as float bits, for stage 2
const uint kSpreadLwmax = 9u; // 0 when the range is not valid (no sample is counted)
const uint kSpreadBwmin = 10u;
const uint kSpreadBwmax = 11u;
const uint kSpreadValid = 12u;
const uint kSpreadDuplicated = 13u;
const uint kSpreadBins = 16u;                                  // WARD_MAX_BINS bins ...
const uint kSpreadCounters = kSpreadBins + uint(WARD_MAX_BINS); // ... then kCounterCount counters

layout(std430, binding = kBindingScratch1) coherent buffer Spread { uint spread[]; };
#if RANGE_KEYS
// The histogram pass's keys (post::FovealTarget::rangeKeys): WardRangeKeys.glsl, 0 none; zero at rest.
const uint kKeysMin = 0u;
const uint kKeysMax = 1u;
layout(std430, binding = kBindingCdf) coherent buffer RangeKeys { uint rangeKeys[]; };
#endif

const uint kSlice = kGroup * uint(SAMPLES_PER_INVOCATION);

shared uint sTicket;
shared uint sMinKey;
shared uint sMaxKey;

// Every group calls it after its global atomics: true in the last group to finish (which then sees
// every other group's atomics), whose invocation 0 must return the ticket to zero.
bool lastGroup(uint tid, uint ticket)
{
    memoryBarrierBuffer();
    barrier();
    if (tid == 0u)
        sTicket = atomicAdd(spread[ticket], 1u);
    SYNC();
    return sTicket == gl_NumWorkGroups.x - 1u;
}

void rangeStage(uint tid, uint n)
{
    if (tid == 0u) {
        sMinKey = 0u;
        sMaxKey = 0u;
    }
    SYNC();
    uint count = uint(uGridSize.x * uGridSize.y);
    uint first = gl_WorkGroupID.x * kSlice;
    uint minKey = 0u;
    uint maxKey = 0u;
    for (uint k = 0u; k < uint(SAMPLES_PER_INVOCATION); ++k) {
        uint i = first + k * kGroup + tid;
        if (i >= count)
            break;
        uvec2 keys = wardRangeKeys(luminanceAt(i));
        minKey = max(minKey, keys.x);
        maxKey = max(maxKey, keys.y);
    }
    atomicMax(sMinKey, minKey);
    atomicMax(sMaxKey, maxKey);
    SYNC();
    if (tid == 0u) {
        if (sMinKey != 0u)
            atomicMax(spread[kSpreadMinKey], sMinKey);
        if (sMaxKey != 0u)
            atomicMax(spread[kSpreadMaxKey], sMaxKey);
    }
    if (!lastGroup(tid, kSpreadRangeTicket) || tid != 0u)
        return;
    uint lowest = atomicExchange(spread[kSpreadMinKey], 0u);
    uint highest = atomicExchange(spread[kSpreadMaxKey], 0u);
    publishRange(wardRangeMinimum(lowest), wardRangeMaximum(highest), n);
    spread[kSpreadLwmin] = floatBitsToUint(sLwmin);
    spread[kSpreadLwmax] = floatBitsToUint(sLwmax);
    spread[kSpreadBwmin] = floatBitsToUint(sBwmin);
    spread[kSpreadBwmax] = floatBitsToUint(sBwmax);
    spread[kSpreadValid] = sRangeValid;
    spread[kSpreadDuplicated] = sDuplicated;
    atomicExchange(spread[kSpreadRangeTicket], 0u);
}

void binAndFitStage(uint tid, uint n)
{
    for (uint i = tid; i < n; i += kGroup)
        sBins[i] = 0u;
    if (tid < kCounterCount)
        sCounters[tid] = 0u;
    if (tid == 0u) {
#if RANGE_KEYS
        rangeFromExtremes(wardRangeMinimum(rangeKeys[kKeysMin]), wardRangeMaximum(rangeKeys[kKeysMax]));
#else
        sLwmin = uintBitsToFloat(spread[kSpreadLwmin]);
        sLwmax = uintBitsToFloat(spread[kSpreadLwmax]);
        sBwmin = uintBitsToFloat(spread[kSpreadBwmin]);
        sBwmax = uintBitsToFloat(spread[kSpreadBwmax]);
        sRangeValid = spread[kSpreadValid];
        sDuplicated = spread[kSpreadDuplicated];
#endif
    }
    SYNC();
    // The histogram and the log-average exactly as WardCurve.comp's computeRange makes them.
    float lwmin = sLwmin;
    float lwmax = sLwmax;
    float logMin = HD_MUL(sBwmin, kInvLn2f); // the same float words the params buffer holds
    float logMax = HD_MUL(sBwmax, kInvLn2f);
    float scale = hdBinScale(logMin, logMax, n);
    uint count = uint(uGridSize.x * uGridSize.y);
    uint first = gl_WorkGroupID.x * kSlice;
    uvec2 sum = uvec2(0u);
    uint counted = 0u;
    for (uint k = 0u; k < uint(SAMPLES_PER_INVOCATION); ++k) {
        uint i = first + k * kGroup + tid;
        if (i >= count)
            break;
        float L = luminanceAt(i);
        int code = hdBinOfScaled(L, logMin, logMax, scale, n, kOutOfRangeSeparate);
        if (code >= 0)
            atomicAdd(sBins[uint(code)], 1u);
        else
            atomicAdd(sCounters[hdCounterOfCode(code)], 1u);
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
            uvec2 c = add64(uvec2(sScratch[tid], sScratch[kGroup + tid]),
                            uvec2(sScratch[tid + s], sScratch[kGroup + tid + s]));
            sScratch[tid] = c.x;
            sScratch[kGroup + tid] = c.y;
            sScratch[2u * kGroup + tid] += sScratch[2u * kGroup + tid + s];
        }
        SYNC();
    }
    if (tid == 0u && sScratch[2u * kGroup] != 0u) {
        uint low = sScratch[0];
        uint before = atomicAdd(spread[kSpreadSumLow], low);
        uint carry = before + low < before ? 1u : 0u; // the low word wrapped
        atomicAdd(spread[kSpreadSumHigh], sScratch[kGroup] + carry);
        atomicAdd(spread[kSpreadCount], sScratch[2u * kGroup]);
    }
    for (uint i = tid; i < n; i += kGroup)
        if (sBins[i] != 0u)
            atomicAdd(spread[kSpreadBins + i], sBins[i]);
    if (tid < kCounterCount && sCounters[tid] != 0u)
        atomicAdd(spread[kSpreadCounters + tid], sCounters[tid]);
    if (!lastGroup(tid, kSpreadFitTicket))
        return;
    for (uint i = tid; i < n; i += kGroup)
        sBins[i] = atomicExchange(spread[kSpreadBins + i], 0u);
    if (tid < kCounterCount)
        sCounters[tid] = atomicExchange(spread[kSpreadCounters + tid], 0u);
    if (tid == 0u) {
        uvec2 total = uvec2(atomicExchange(spread[kSpreadSumLow], 0u), atomicExchange(spread[kSpreadSumHigh], 0u));
        publishAverage(total, atomicExchange(spread[kSpreadCount], 0u));
#if RANGE_KEYS
        writeRange(n);
        atomicExchange(rangeKeys[kKeysMin], 0u); // read by every group before its ticket
        atomicExchange(rangeKeys[kKeysMax], 0u);
#endif
        atomicExchange(spread[kSpreadFitTicket], 0u);
    }
    SYNC();
    writeHistogram(tid, n);
    if (STOP_AFTER == 2)
        return;
    fitAndWrite(tid, n);
}

void main()
{
    selectTile();
    uint tid = gl_LocalInvocationID.x;
    uint n = clamp(uBins, 2u, uint(WARD_MAX_BINS));
#if SPREAD_STAGE == 1
    rangeStage(tid, n);
#else
    binAndFitStage(tid, n);
#endif
}
