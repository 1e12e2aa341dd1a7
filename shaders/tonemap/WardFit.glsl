// WardFit.glsl: the fit of Ward's histogram adjustment (Ward Larson, Rushmeier & Piatko 1997, as
// Radiance pcond comphist + mkbrmap do it) shared by WardCurve.comp (one workgroup) and
// WardCurveSpread.comp (the samples spread over many workgroups, the fit in the last one): the
// buffers and uniforms, the range's and log-average's final steps (publishRange, publishAverage) and
// the ceiling loop with the curve (fitAndWrite). Every result is bit for bit what the CPU reference
// (reference/ToneWardExact) computes:
//  - every sum is exact and order-independent: the histogram in whole counts, the trimmed histogram in
//    fixed point (counts x 2^F, F = 24 - bit length of the histogram's total, so every sum stays
//    below 2^24 and converts to float exactly), the log-average in 64-bit fixed point (2^-16 ln units);
//    so shared-memory atomics, global atomics, tree reductions and subgroup sums give the CPU's loop
//    results, in any order;
//  - the transcendentals and divisions are HostDevice.h's exact float functions (hdLn, hdExp, hdPow,
//    hdDivide), the constants come from the host as uniforms (post::WardFitConstants).
//  1. Range (comphist): lwmax = min(1.01 max, LMAX); lwmin < LMIN -> LMIN; else (bottom-bin
//     duplication on) bwmin = bwmax - (bwmax - ln lwmin) n / (n - 1); bwavg = mean ln Lw of the samples
//     in [lwmin, lwmax). Non-finite samples are ignored; the others count as max(L, 0).
//  2. Histogram of the foveal samples over [bwmin, bwmax) with the pipeline's bit-exact binning
//     (hdBinOfScaled, separate out-of-range counters: samples outside are skipped as pcond skips them).
//  3. Ceiling loop (mkbrmap, check2do, BLw, linear fallback): fits -> linear; else repeat { T = sum,
//     T <= 2.5 % of the original -> failure -> linear; ceiling_i = T db clampf_i (rounded down to the
//     fixed point), trim } while the trimmings exceed 2.5 % of T; clampf = 1 / (ln Ldmax - ln Ldmin)
//     (linear ceiling: one value for every bin) or that times [dLt(Ld_i) / dLt(Lw_i)] [Lw_i / Ld_i] with
//     Ld_i from the current CDF at the bin centre (pcond -s). At most WARD_MAX_PASSES passes.
//     CEILING_LOOP 0 (drivers without subgroup arithmetic): every pass is a workgroup Kogge-Stone scan
//     and atomics, a dozen barriers. CEILING_LOOP 1 (WardCeilingLanes.glsl): LANES invocations hold the
//     bins in registers, BINS_PER_LANE consecutive bins each, and a pass is one sum over the lanes (two
//     with the TVI ceiling, whose CDF needs an exclusive scan); T of the next pass is T minus the
//     trimmings, so the linear ceiling needs no scan inside the loop. LANE_OPS 1: the lanes are one
//     subgroup (GL_KHR_shader_subgroup_arithmetic), no barrier in the loop; LANE_OPS 0: the same code
//     with its sums through shared memory and barriers (for tests on drivers without subgroups).
//     Per-bin constants of the TVI ceiling (Lw_i, dLt(Lw_i)) are computed once, in parallel, before it.
// Writes the curve (LUT over [bwmin, bwmax], or LinearScale), the state words and the view buffer.
//
// Timing experiments only (bench ward-factors; the method never sets them): STOP_AFTER 1 returns
// after the range and log-average, 2 after the histogram, 3 after the ceiling loop (state passes and
// final total written); PASS_LIMIT caps the loop below WARD_MAX_PASSES; CONSTANT_THRESHOLD 1 replaces
// hdWardThreshold by 1 (not exact: only to isolate its cost in the TVI ceiling). GROUP_SIZE (the host
// passes post::WardCurveProgram::kGroupSize; the bench also 512 and 1024) is the workgroup's size:
// every result is the same for any power of two from 64 to 1024.
#ifndef CEILING_LOOP
#define CEILING_LOOP 0
#endif
#ifndef LANE_OPS
#define LANE_OPS 0
#endif
#ifndef LANES
#define LANES 32
#endif
#ifndef BINS_PER_LANE
#define BINS_PER_LANE 4
#endif
#ifndef STOP_AFTER
#define STOP_AFTER 0
#endif
#ifndef PASS_LIMIT
#define PASS_LIMIT WARD_MAX_PASSES
#endif
#ifndef CONSTANT_THRESHOLD
#define CONSTANT_THRESHOLD 0
#endif
#ifndef GROUP_SIZE
#define GROUP_SIZE 256
#endif
#if CEILING_LOOP == 1 && LANE_OPS == 1
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#endif

#include "shared/HostDevice.h"
#include "shared/LocalTiles.h"
#include "tonemap/Float64.glsl"

layout(local_size_x = GROUP_SIZE) in;

const uint kGroup = uint(GROUP_SIZE); // a power of two, 64..1024

layout(binding = kTextureUnitInput) uniform sampler2D uFoveal;
layout(std430, binding = kBindingHistogramParams) writeonly buffer Params { uint params[]; };
layout(std430, binding = kBindingHistogram) buffer Histogram { uint histogram[]; };
layout(std430, binding = kBindingOperatorState) buffer State { float state[]; };
layout(std430, binding = kBindingCurve) writeonly buffer Curve { float curve[]; };
layout(std430, binding = kBindingScratch0) writeonly buffer View { float view[]; };

layout(location = 0) uniform uint uBins;
layout(location = 3) uniform float uSceneScale;
layout(location = 4) uniform uint uHumanContrast;
layout(location = 5) uniform uint uCurveSamples;
layout(location = 6) uniform ivec2 uGridSizeUniform; // read through uGridSize (selectTile)
layout(location = 7) uniform uint uDuplicate;
layout(location = 8) uniform uint uStage; // kStage*
layout(location = 9) uniform vec4 uLuminance; // the pipeline's luminance weights (xyz) and cd/m^2 per unit (w)
// post::WardFitConstants, exactly as the host computed them (no literal parsing, no folding).
layout(location = 10) uniform float uLnLdmin;
layout(location = 11) uniform float uLnLdmax;
layout(location = 12) uniform float uDisplayRange;    // ln Ldmax - ln Ldmin
layout(location = 13) uniform float uInvDisplayRange; // 1 / that
layout(location = 14) uniform float uLdmin;
layout(location = 15) uniform float uLdmax;
layout(location = 16) uniform float uInvLdmax;
layout(location = 17) uniform float uInvLdRange;      // 1 / (Ldmax - Ldmin)
layout(location = 18) uniform float uGeometric;       // sqrt(Ldmin Ldmax)
layout(location = 19) uniform float uInvBins;
layout(location = 20) uniform float uDuplicateFactor; // n / (n - 1)
layout(location = 21) uniform float uInvCurveSamples;
layout(location = 22) uniform float uLmin;
layout(location = 23) uniform float uLmax;
layout(location = 24) uniform float uFtiny;
layout(location = 25) uniform float uGrowth;          // 1.01
layout(location = 26) uniform float uLnScale;         // ln of the scene scale (the curve's log2 axis)
// ward-local (WardCurve.comp per tile): the tile's first foveal sample; uGridSize is then the tile's size.
layout(location = 27) uniform ivec2 uTileOriginUniform; // read through uTileOrigin (selectTile)
// ward-local's tile fits in one dispatch (WardCurveDispatch::dispatchTiles; uTileBatch 1): workgroup w
// fits tile rectangle w of uTileRects (two a uvec4: origin x | y << 16, size x | y << 12 | tile << 24)
// and writes the tile's blocks of the outputs (uTileStrides words per tile; the tile curve at
// hdTileCurveBase): the same fit, bit for bit, as one dispatch per tile with the blocks bound as ranges.
layout(location = 28) uniform uint uTileBatch;
layout(location = 29) uniform uvec4 uTileStrides; // params, histogram, state, view words per tile
layout(location = 30) uniform uvec4 uTileRects[kMaxTilesPerAxis * kMaxTilesPerAxis / 2u];
ivec2 uGridSize;   // the samples' grid (or tile) and first sample: the uniforms', or the batch's tile
ivec2 uTileOrigin;
uint gParamsAt = 0u; // the outputs' word offsets (0 but in a tile batch)
uint gHistogramAt = 0u;
uint gStateAt = 0u;
uint gCurveAt = 0u;
uint gViewAt = 0u;

// First thing in every kernel's main (uniform per workgroup).
void selectTile()
{
    uGridSize = uGridSizeUniform;
    uTileOrigin = uTileOriginUniform;
    if (uTileBatch == 0u)
        return;
    uvec4 pair = uTileRects[gl_WorkGroupID.x >> 1u];
    uvec2 rect = (gl_WorkGroupID.x & 1u) == 0u ? pair.xy : pair.zw;
    uint tile = rect.y >> 24u;
    uTileOrigin = ivec2(int(rect.x & 0xffffu), int(rect.x >> 16u));
    uGridSize = ivec2(int(rect.y & 0xfffu), int((rect.y >> 12u) & 0xfffu));
    gParamsAt = tile * uTileStrides.x;
    gHistogramAt = tile * uTileStrides.y;
    gStateAt = tile * uTileStrides.z;
    gViewAt = tile * uTileStrides.w;
    gCurveAt = hdTileCurveBase(tile);
}

// One dispatch does everything (kStageAll); with the histogram built by the selected method, a first
// dispatch computes the range (kStageRange), the method bins the foveal image with it, and a second
// dispatch runs the ceiling loop on the method's bins (kStageCeiling; also a fed histogram's).
const uint kOutcomeHistogram = 0u;
const uint kOutcomeFits = 1u;
const uint kOutcomeFailed = 2u;
const uint kOutcomeNoSamples = 3u;

// One scratch for the phases that need a word or three per invocation, one phase at a time (shared
// memory is 48 KB at 1024 invocations): the range's min and max (float bits), the log-average's 64-bit
// sums (two's complement, low and high words) and counts, the workgroup scan's two buffers.
shared uint sScratch[3 * GROUP_SIZE];
shared uint sBins[WARD_MAX_BINS];
shared uint sCounters[kCounterCount];
shared uint sHist[WARD_MAX_BINS];   // the trimmed histogram, fixed point
shared uint sPrefix[WARD_MAX_BINS]; // exclusive prefix sums of sHist (TVI ceiling, the CDF)
shared float sCumf[WARD_MAX_BINS + 1];
shared float sLwmin;
shared float sLwmax;
shared float sBwmin;
shared float sBwmax;
shared float sBwavg;
shared uint sRangeValid;
shared uint sDuplicated;
shared uint sTotal;
shared uint sTrimmings;
shared uint sOutcome; // the ceiling loop's results, for every invocation
shared uint sPasses;
shared uint sConverged;

#define SYNC() memoryBarrierShared(); barrier()

// The TVI ceiling's threshold: the exact function, or (timing experiment only) a constant.
#if CONSTANT_THRESHOLD
#define WARD_THRESHOLD(L) 1.0
#else
#define WARD_THRESHOLD(L) hdWardThreshold(L)
#endif

float luminanceAt(uint index)
{
    ivec2 p = uTileOrigin + ivec2(int(index % uint(uGridSize.x)), int(index / uint(uGridSize.x)));
    vec3 rgb = texelFetch(uFoveal, p, 0).rgb;
    return hdLuminanceWeighted(rgb.r, rgb.g, rgb.b, uLuminance.x, uLuminance.y, uLuminance.z);
}

uvec2 add64(uvec2 a, uvec2 b)
{
    uint low = a.x + b.x;
    return uvec2(low, a.y + b.y + (low < a.x ? 1u : 0u));
}

uvec2 fromInt(int v)
{
    return uvec2(uint(v), v < 0 ? 0xffffffffu : 0u);
}

// The fixed-point scale of the trimmed histogram: F bits, F = 24 - bit length of the histogram's total
// (0..16), so every sum of it stays below 2^24 and converts to float exactly.
uint fixedBits(uint total)
{
    return uint(clamp(24 - (findMSB(max(total, 1u)) + 1), 0, 16));
}

// Step 1's end (one invocation): the range from the samples' min and max (finite samples as max(L, 0);
// 3.0e38 and -3.0e38 when there are none), into the shared range words (sLwmin ... sDuplicated).
void rangeFromExtremes(float lmin, float lmax)
{
    float lwmin = lmin;
    HD_PRECISE float grown = HD_MUL(lmax, uGrowth);
    float lwmax = min(grown, uLmax);
    bool valid = lwmax > uLmin;
    float bwmax = hdLn(max(lwmax, uLmin));
    float bwmin = hdLn(uLmin);
    bool duplicated = false;
    if (lwmin < uLmin) {
        lwmin = uLmin;
    } else if (uDuplicate != 0u) {
        HD_PRECISE float span = HD_MUL(HD_SUB(bwmax, hdLn(lwmin)), uDuplicateFactor);
        bwmin = HD_SUB(bwmax, span);
        lwmin = hdExp(bwmin);
        duplicated = true;
    } else {
        bwmin = hdLn(lwmin);
    }
    if (!valid) { // nothing above LMIN: an empty histogram over a harmless range
        bwmin = hdLn(uLmin);
        bwmax = HD_ADD(bwmin, 1.0);
        lwmin = uLmin;
        lwmax = hdExp(bwmax);
    }
    sLwmin = lwmin;
    sLwmax = valid ? lwmax : 0.0;
    sBwmin = bwmin;
    sBwmax = bwmax;
    sRangeValid = valid ? 1u : 0u;
    sDuplicated = duplicated ? 1u : 0u;
}

// The shared range words (rangeFromExtremes) into params and state (one invocation).
void writeRange(uint n)
{
    float bwmin = sBwmin;
    float bwmax = sBwmax;
    bool valid = sRangeValid != 0u;
    bool duplicated = sDuplicated != 0u;
    params[gParamsAt + (kParamLogMin)] = floatBitsToUint(HD_MUL(bwmin, kInvLn2f));
    params[gParamsAt + (kParamLogMax)] = floatBitsToUint(HD_MUL(bwmax, kInvLn2f));
    params[gParamsAt + (kParamBinCount)] = n;
    params[gParamsAt + (kParamOutOfRange)] = kOutOfRangeSeparate;
    params[gParamsAt + (kParamWidth)] = uint(uGridSize.x);
    params[gParamsAt + (kParamHeight)] = uint(uGridSize.y);
    params[gParamsAt + (kParamLumaR)] = floatBitsToUint(uLuminance.x); // a selected method bins with the same weights
    params[gParamsAt + (kParamLumaG)] = floatBitsToUint(uLuminance.y);
    params[gParamsAt + (kParamLumaB)] = floatBitsToUint(uLuminance.z);
    params[gParamsAt + (kParamCdPerUnit)] = floatBitsToUint(uLuminance.w);
    state[gStateAt + (WARD_BWMIN)] = bwmin;
    state[gStateAt + (WARD_BWMAX)] = bwmax;
    state[gStateAt + (WARD_RANGE_VALID)] = valid ? 1.0 : 0.0;
    state[gStateAt + (WARD_DUPLICATED)] = duplicated ? 1.0 : 0.0;
    state[gStateAt + (WARD_GRID_W)] = float(uGridSize.x);
    state[gStateAt + (WARD_GRID_H)] = float(uGridSize.y);
}

// Step 1's end: rangeFromExtremes, then writeRange (one invocation).
void publishRange(float lmin, float lmax, uint n)
{
    rangeFromExtremes(lmin, lmax);
    writeRange(n);
}

// The log-average's end (one invocation): the 64-bit fixed-point sum of the counted samples' ln and
// their count into sBwavg and the state.
void publishAverage(uvec2 total, uint samples)
{
    // |sum| < 2^45 (fewer than 2^24 samples, |ln| < 2^5 scaled by 2^16): exact in a double.
    const double kTwoTo32 = packDouble2x32(uvec2(0u, 0x41f00000u)); // bits, not a literal: see Float64.glsl
    double exact = double(int(total.y)) * kTwoTo32 + double(total.x);
    sBwavg = samples > 0u ? float(f64Divide(exact, double(samples) * 65536.0LF)) : 0.0;
    state[gStateAt + (WARD_SAMPLES)] = float(samples);
    state[gStateAt + (WARD_BWAVG)] = sBwavg;
}

// Step 2's output: the histogram in sBins and sCounters (a barrier must order their atomics before this).
void writeHistogram(uint tid, uint n)
{
    for (uint i = tid; i < n; i += kGroup)
        histogram[gHistogramAt + (i)] = sBins[i];
    if (tid < kCounterCount)
        histogram[gHistogramAt + (kHistogramCountersOffset + tid)] = sCounters[tid];
}

// Exclusive prefix sums of sHist[0..n) into sPrefix and the total into sTotal (all invocations).
// n <= WARD_MAX_BINS: each invocation scans kScanBins consecutive bins, Kogge-Stone over the kGroup
// sums (double-buffered in sScratch).
const uint kScanBins = (uint(WARD_MAX_BINS) + kGroup - 1u) / kGroup;

void scanHistogram(uint tid, uint n)
{
    uint base = tid * kScanBins;
    uint values[kScanBins];
    uint running = 0u;
    for (uint k = 0u; k < kScanBins; ++k) {
        values[k] = running;
        running += base + k < n ? sHist[base + k] : 0u;
    }
    sScratch[tid] = running;
    SYNC();
    uint source = 0u;
    for (uint offset = 1u; offset < kGroup; offset <<= 1u) {
        uint sum = sScratch[source * kGroup + tid];
        if (tid >= offset)
            sum += sScratch[source * kGroup + tid - offset];
        sScratch[(1u - source) * kGroup + tid] = sum;
        source = 1u - source;
        SYNC();
    }
    uint prefix = tid == 0u ? 0u : sScratch[source * kGroup + tid - 1u];
    for (uint k = 0u; k < kScanBins; ++k)
        if (base + k < n)
            sPrefix[base + k] = prefix + values[k];
    if (tid == kGroup - 1u)
        sTotal = sScratch[source * kGroup + kGroup - 1u];
    SYNC();
}

// cumf[i] = prefix_i / T (the prefixes and T are whole numbers below 2^24: exact in float).
void makeCumf(uint tid, uint n, uint total)
{
    for (uint i = tid; i < n; i += kGroup)
        sCumf[i] = total > 0u ? hdDivide(float(sPrefix[i]), float(total)) : 0.0;
    if (tid == 0u)
        sCumf[n] = 1.0;
    SYNC();
}

float cumfAt(float b, uint n, float bwmin, float bwmax)
{
    HD_PRECISE float offset = HD_MUL(float(n), HD_SUB(b, bwmin));
    HD_PRECISE float width = HD_SUB(bwmax, bwmin);
    HD_PRECISE float x = hdDivide(offset, width);
    uint i = min(uint(x), n - 1u);
    HD_PRECISE float f = HD_SUB(x, float(i));
    HD_PRECISE float P = HD_ADD(HD_MUL(sCumf[i], HD_SUB(1.0, f)), HD_MUL(sCumf[i + 1u], f));
    return P;
}

// The workgroup ceiling loop (CEILING_LOOP 0): a scan of the whole histogram per pass, all
// invocations. Leaves sHist trimmed, sCumf the CDF of the last pass (from before its trimming) and the
// results in sOutcome, sPasses, sConverged and sTotal (the last pass's T).
void workgroupCeilingLoop(uint tid, uint n, uint histot, uint F, float bwmin, float db)
{
    uint outcome = kOutcomeHistogram;
    uint passes = 0u;
    bool converged = false;
    uint mhistot = histot;
    for (uint pass = 0u; pass < uint(PASS_LIMIT); ++pass) {
        scanHistogram(tid, n); // T and the CDF of this pass, before its trimming (pcond cumf)
        mhistot = sTotal;
        makeCumf(tid, n, mhistot);
        if (mhistot <= histot / 40u) { // T <= 2.5 % of the original: failure
            outcome = kOutcomeFailed;
            converged = true;
            break;
        }
        if (tid == 0u)
            sTrimmings = 0u;
        SYNC();
        HD_PRECISE float Tdb = HD_MUL(float(mhistot), db);
        uint trimmed = 0u;
        for (uint i = tid; i < n; i += kGroup) {
            HD_PRECISE float clampf = uInvDisplayRange;
            if (uHumanContrast != 0u) {
                HD_PRECISE float b = HD_ADD(bwmin, HD_MUL(HD_ADD(float(i), 0.5), db));
                float Lw = hdExp(b);
                HD_PRECISE float P = HD_MUL(0.5, HD_ADD(sCumf[i], sCumf[i + 1u]));
                HD_PRECISE float Bd = HD_ADD(uLnLdmin, HD_MUL(P, uDisplayRange));
                float Ld = hdExp(Bd);
                HD_PRECISE float factor = HD_MUL(hdDivide(WARD_THRESHOLD(Ld), WARD_THRESHOLD(Lw)), hdDivide(Lw, Ld));
                clampf = HD_MUL(factor, uInvDisplayRange);
            }
            HD_PRECISE float ceilingValue = HD_MUL(Tdb, clampf);
            uint ceiling = ceilingValue >= 16777216.0 ? 16777216u : uint(ceilingValue);
            if (sHist[i] > ceiling) {
                trimmed += sHist[i] - ceiling;
                sHist[i] = ceiling;
            }
            view[gViewAt + (uint(WARD_MAX_BINS) + i)] = ldexp(float(ceiling), -int(F));
        }
        atomicAdd(sTrimmings, trimmed);
        SYNC();
        ++passes;
        bool done = sTrimmings <= mhistot / 40u; // trimmings <= 2.5 % of T
        SYNC(); // everyone has read sTotal and sTrimmings before they are rewritten
        if (done) {
            converged = true;
            break;
        }
    }
    if (tid == 0u) {
        sOutcome = outcome;
        sPasses = passes;
        sConverged = converged ? 1u : 0u;
        sTotal = mhistot;
    }
    SYNC();
}

#if CEILING_LOOP == 1
#include "tonemap/WardCeilingLanes.glsl"
#endif

// Steps 2 (the histogram's fixed point) and 3 on the histogram in sBins, the range in sBwmin, sBwmax,
// sBwavg, sRangeValid and sDuplicated: the ceiling loop, then the curve, the state and the view.
// The whole workgroup calls it (barriers).
void fitAndWrite(uint tid, uint n)
{
    if (tid == 0u)
        sTotal = 0u;
    SYNC();
    uint counted = 0u;
    for (uint i = tid; i < n; i += kGroup)
        counted += sBins[i];
    atomicAdd(sTotal, counted);
    SYNC();
    const uint F = fixedBits(sTotal);
    SYNC();
    float bwmin = sBwmin;
    float bwmax = sBwmax;
    bool duplicated = sDuplicated != 0u;
    bool rangeValid = sRangeValid != 0u;
    HD_PRECISE float db = HD_MUL(HD_SUB(bwmax, bwmin), uInvBins);

    for (uint i = tid; i < n; i += kGroup)
        sHist[i] = sBins[i] << F;
    SYNC();
    if (tid == 0u && duplicated) { // pcond: "add false samples at bottom"
        sHist[1] = sHist[1] >> 1u;
        sHist[0] += sHist[1];
    }
    if (tid == 0u)
        sTotal = 0u;
    SYNC();
    uint local = 0u;
    for (uint i = tid; i < n; i += kGroup)
        local += sHist[i];
    atomicAdd(sTotal, local);
    SYNC();
    const uint histot = sTotal;
    SYNC();

    // Step 3: the ceiling loop. Every branch below depends only on values all invocations share.
    uint outcome = kOutcomeHistogram;
    uint passes = 0u;
    bool converged = true;
    uint mhistot = histot;
    bool looped = false;
    if (!rangeValid || histot == 0u) {
        outcome = kOutcomeNoSamples;
    } else if (HD_SUB(bwmax, bwmin) <= uDisplayRange) {
        outcome = kOutcomeFits;
    } else {
#if CEILING_LOOP == 1
        lanesCeilingLoop(tid, n, histot, F, bwmin, db);
#else
        workgroupCeilingLoop(tid, n, histot, F, bwmin, db);
#endif
        outcome = sOutcome;
        passes = sPasses;
        converged = sConverged != 0u;
        mhistot = sTotal;
        looped = true;
    }
#if STOP_AFTER == 3
    if (tid == 0u) {
        state[gStateAt + (WARD_PASSES)] = float(passes);
        state[gStateAt + (WARD_FINAL_TOTAL)] = ldexp(float(mhistot), -int(F));
    }
    return;
#endif
    // The CDF the mapping uses is the last pass's, from before its trimming (pcond); without a pass
    // (range fits, no samples) the histogram's, for the view. The lanes left the prefix sums in sPrefix.
    if (!looped) {
        scanHistogram(tid, n);
        makeCumf(tid, n, sTotal);
    } else if (CEILING_LOOP == 1) {
        makeCumf(tid, n, mhistot);
    }

    // Linear operator (pcond mapimage): log-average world luminance -> sqrt(Ldmin Ldmax).
    float average = hdExp(sBwavg);
    float scalef = uHumanContrast != 0u ? hdDivide(hdWardThreshold(uGeometric), hdWardThreshold(average)) : hdDivide(uGeometric, average);
    HD_PRECISE float linearScale = outcome == kOutcomeNoSamples ? 0.0 : HD_MUL(scalef, uInvLdmax); // display per cd/m^2
    bool linear = outcome != kOutcomeHistogram;

    if (tid == 0u) {
        HD_PRECISE float curveLogMin = HD_MUL(HD_SUB(bwmin, uLnScale), kInvLn2f);
        HD_PRECISE float curveLogMax = HD_MUL(HD_SUB(bwmax, uLnScale), kInvLn2f);
        HD_PRECISE float curveScale = HD_MUL(linearScale, uSceneScale);
        HD_PRECISE float ceilingFraction = HD_MUL(db, uInvDisplayRange);
        curve[gCurveAt + (kCurveLogMin)] = curveLogMin;
        curve[gCurveAt + (kCurveLogMax)] = curveLogMax;
        curve[gCurveAt + (kCurveSampleCount)] = float(uCurveSamples);
        curve[gCurveAt + (kCurveChannels)] = 1.0;
        curve[gCurveAt + (kCurveMode)] = linear ? kCurveModeLinearScale : kCurveModeLut;
        curve[gCurveAt + (kCurveScale)] = curveScale;
        state[gStateAt + (WARD_OUTCOME)] = float(outcome);
        state[gStateAt + (WARD_PASSES)] = float(passes);
        state[gStateAt + (WARD_HISTOT)] = ldexp(float(histot), -int(F));
        state[gStateAt + (WARD_FINAL_TOTAL)] = ldexp(float(mhistot), -int(F));
        state[gStateAt + (WARD_CEILING_FRACTION)] = ceilingFraction;
        state[gStateAt + (WARD_CONVERGED)] = converged ? 1.0 : 0.0;
        state[gStateAt + (WARD_LINEAR_SCALE)] = linearScale;
    }
    HD_PRECISE float span = HD_MUL(HD_SUB(bwmax, bwmin), uInvCurveSamples);
    for (uint s = tid; s < uCurveSamples; s += kGroup) {
        HD_PRECISE float b = HD_ADD(bwmin, HD_MUL(HD_ADD(float(s), 0.5), span)); // ln Lw, cd/m^2
        float Lw = hdExp(b);
        HD_PRECISE float value;
        if (linear) {
            value = min(HD_MUL(linearScale, Lw), 1.0);
        } else {
            HD_PRECISE float Bd;
            if (Lw <= uLmin || b <= HD_ADD(bwmin, uFtiny))
                Bd = uLnLdmin;
            else if (b >= HD_SUB(bwmax, uFtiny))
                Bd = uLnLdmax;
            else
                Bd = HD_ADD(uLnLdmin, HD_MUL(cumfAt(b, n, bwmin, bwmax), uDisplayRange));
            HD_PRECISE float above = max(HD_SUB(hdExp(Bd), uLdmin), 0.0);
            value = HD_MUL(above, uInvLdRange);
        }
        curve[gCurveAt + (kCurveHeaderWords + s)] = value;
    }
    for (uint i = tid; i < n; i += kGroup) {
        view[gViewAt + (i)] = ldexp(float(sHist[i]), -int(F));
        HD_PRECISE float linearCeiling = HD_MUL(HD_MUL(float(histot), db), uInvDisplayRange);
        if (linear)
            view[gViewAt + (uint(WARD_MAX_BINS) + i)] = ldexp(linearCeiling, -int(F));
        view[gViewAt + (2u * uint(WARD_MAX_BINS) + i)] = sCumf[i];
    }
    if (tid == 0u)
        view[gViewAt + (2u * uint(WARD_MAX_BINS) + n)] = 1.0;
}
