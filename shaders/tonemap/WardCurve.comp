// WardCurve.comp: Ward's histogram adjustment curve from the foveal image, in one workgroup and one
// dispatch (Ward Larson, Rushmeier & Piatko 1997, as Radiance pcond comphist + mkbrmap do it).
//  1. Range (comphist): lwmax = min(1.01 max, LMAX); lwmin < LMIN -> LMIN, else (bottom-bin
//     duplication on) bwmin is extended by one bin, bwmin = bwmax - (bwmax - ln lwmin) n / (n - 1);
//     bwavg = mean ln Lw of the samples in [lwmin, lwmax). Non-finite samples are ignored.
//  2. Histogram of the foveal samples over [bwmin, bwmax) with the pipeline's bit-exact binning
//     (hdBinOfScaled, separate out-of-range counters so samples outside are skipped as pcond skips
//     them), in shared memory; written out with its params for the view and the tests. It is built
//     here by default rather than by the selected histogram method: a frame has only a few thousand
//     foveal samples (118x66 at 1080p and 60 degrees), so the method's dispatches (or a CUDA interop
//     round trip) would cost far more than the binning itself. uStage splits the kernel in two
//     around the selected method where that is asked for.
//  3. Ceiling loop (mkbrmap, check2do, BLw and the linear fallback): range fits the display ->
//     linear; else repeat { mhistot = sum, cumf = exclusive prefix / mhistot; mhistot <= 2.5 % of
//     the original -> failure -> linear; trim every bin to ceiling_i = mhistot * db * clampf_i }
//     while trimmings > 2.5 % of mhistot, with clampf = 1 / (ln Ldmax - ln Ldmin) (linear ceiling)
//     or that times the TVI factor [dLt(Ld_i) / dLt(Lw_i)] [Lw_i / Ld_i] at the bin centre
//     (pcond -s). At most WARD_MAX_PASSES passes. The sums and prefix sums run serially in one
//     invocation in bin order (the same float results as pcond's loop); the per-bin ceilings, with
//     their transcendentals, run in parallel. Every exit test reads a shared value written before
//     a barrier, so control flow around the barriers stays uniform on every driver.
// Writes the curve (LUT over [bwmin, bwmax], or LinearScale), the state words and the view buffer
// (trimmed histogram, last ceilings, cumf).
#include "shared/HostDevice.h"

layout(local_size_x = 256) in;

layout(binding = kTextureUnitInput) uniform sampler2D uFoveal;
layout(std430, binding = kBindingHistogramParams) writeonly buffer Params { uint params[]; };
layout(std430, binding = kBindingHistogram) buffer Histogram { uint histogram[]; };
layout(std430, binding = kBindingOperatorState) buffer State { float state[]; };
layout(std430, binding = kBindingCurve) writeonly buffer Curve { float curve[]; };
layout(std430, binding = kBindingScratch0) writeonly buffer View { float view[]; };

layout(location = 0) uniform uint uBins;
layout(location = 1) uniform float uLdmin;
layout(location = 2) uniform float uLdmax;
layout(location = 3) uniform float uSceneScale;
layout(location = 4) uniform uint uHumanContrast;
layout(location = 5) uniform uint uCurveSamples;
layout(location = 6) uniform ivec2 uGridSize;
layout(location = 7) uniform uint uDuplicate;
layout(location = 8) uniform uint uStage; // kStage*
layout(location = 9) uniform vec4 uLuminance; // the pipeline's luminance weights (xyz) and cd/m^2 per unit (w)

// One dispatch does everything (kStageAll); with the histogram built by the selected method, a first
// dispatch computes the range (kStageRange), the method bins the foveal image with it, and a second
// dispatch runs the ceiling loop on the method's bins (kStageCeiling).
const uint kStageAll = 0u;
const uint kStageRange = 1u;
const uint kStageCeiling = 2u;

const float kLmin = WARD_LMIN;
const float kLmax = WARD_LMAX;
const float kCvRatio = WARD_CV_RATIO;
const float kFtiny = WARD_FTINY;
const float kLn2 = 0.69314718056;
const uint kOutcomeHistogram = 0u;
const uint kOutcomeFits = 1u;
const uint kOutcomeFailed = 2u;
const uint kOutcomeNoSamples = 3u;

shared float sA[256];
shared float sB[256];
shared uint sBins[WARD_MAX_BINS];
shared uint sCounters[kCounterCount];
shared float sHist[WARD_MAX_BINS];
shared float sCumf[WARD_MAX_BINS + 1];
shared float sCeiling[WARD_MAX_BINS];
shared float sTrim[WARD_MAX_BINS];
shared float sLwmin;
shared float sLwmax;
shared float sBwmin;
shared float sBwmax;
shared float sBwavg;
shared uint sRangeValid;
shared uint sDuplicated;
shared float sTotal;
shared float sTrimmings;

#define SYNC() memoryBarrierShared(); barrier()

float luminanceAt(uint index)
{
    ivec2 p = ivec2(int(index % uint(uGridSize.x)), int(index / uint(uGridSize.x)));
    vec3 rgb = texelFetch(uFoveal, p, 0).rgb;
    return hdLuminanceWeighted(rgb.r, rgb.g, rgb.b, uLuminance.x, uLuminance.y, uLuminance.z);
}

float blockSum(uint tid, float value)
{
    sA[tid] = value;
    SYNC();
    for (uint s = 128u; s > 0u; s >>= 1u) {
        if (tid < s)
            sA[tid] += sA[tid + s];
        SYNC();
    }
    float total = sA[0];
    SYNC();
    return total;
}

// mhistot and cumf[i] = (sum of bins below i) / mhistot; returns mhistot. One invocation.
float makeCumfSerial(uint n)
{
    float total = 0.0;
    for (uint i = 0u; i < n; ++i)
        total += sHist[i];
    float running = 0.0;
    for (uint i = 0u; i < n; ++i) {
        sCumf[i] = total > 0.0 ? running / total : 0.0;
        running += sHist[i];
    }
    sCumf[n] = 1.0;
    return total;
}

float htcontrs(float La)
{
    if (La < 1.148e-4)
        return 1.38e-3;
    float l = log(La) / log(10.0);
    float logDl;
    if (l < -1.44)
        logDl = pow(0.405 * l + 1.6, 2.18) - 2.86;
    else if (l < -0.0184)
        logDl = l - 0.395;
    else if (l < 1.9)
        logDl = pow(0.249 * l + 0.65, 2.7) - 0.72;
    else
        logDl = l - 1.255;
    return exp(logDl * log(10.0));
}

// Step 1: range and log-average of the foveal samples (pcond comphist).
void computeRange(uint tid, uint n)
{
    uint count = uint(uGridSize.x * uGridSize.y);
    float lmin = 3.0e38;
    float lmax = -3.0e38;
    for (uint i = tid; i < count; i += 256u) {
        float L = luminanceAt(i);
        if (isnan(L) || isinf(L))
            continue;
        L = max(L, 0.0);
        lmin = min(lmin, L);
        lmax = max(lmax, L);
    }
    sA[tid] = lmin;
    sB[tid] = lmax;
    SYNC();
    for (uint s = 128u; s > 0u; s >>= 1u) {
        if (tid < s) {
            sA[tid] = min(sA[tid], sA[tid + s]);
            sB[tid] = max(sB[tid], sB[tid + s]);
        }
        SYNC();
    }
    if (tid == 0u) {
        float lwmin = sA[0];
        float lwmax = min(sB[0] * 1.01, kLmax);
        bool valid = lwmax > kLmin;
        float bwmax = log(max(lwmax, kLmin));
        float bwmin = log(kLmin);
        bool duplicated = false;
        if (lwmin < kLmin) {
            lwmin = kLmin;
        } else if (uDuplicate != 0u) {
            bwmin = bwmax - (bwmax - log(lwmin)) * float(n) / float(n - 1u);
            lwmin = exp(bwmin);
            duplicated = true;
        } else {
            bwmin = log(lwmin);
        }
        if (!valid) { // nothing above LMIN: an empty histogram over a harmless range
            bwmin = log(kLmin);
            bwmax = bwmin + 1.0;
            lwmin = kLmin;
            lwmax = exp(bwmax);
        }
        sLwmin = lwmin;
        sLwmax = valid ? lwmax : 0.0;
        sBwmin = bwmin;
        sBwmax = bwmax;
        sRangeValid = valid ? 1u : 0u;
        sDuplicated = duplicated ? 1u : 0u;
        params[kParamLogMin] = floatBitsToUint(bwmin / kLn2);
        params[kParamLogMax] = floatBitsToUint(bwmax / kLn2);
        params[kParamBinCount] = n;
        params[kParamOutOfRange] = kOutOfRangeSeparate;
        params[kParamWidth] = uint(uGridSize.x);
        params[kParamHeight] = uint(uGridSize.y);
        params[kParamLumaR] = floatBitsToUint(uLuminance.x); // a selected method bins with the same weights
        params[kParamLumaG] = floatBitsToUint(uLuminance.y);
        params[kParamLumaB] = floatBitsToUint(uLuminance.z);
        params[kParamCdPerUnit] = floatBitsToUint(uLuminance.w);
        state[WARD_BWMIN] = bwmin;
        state[WARD_BWMAX] = bwmax;
        state[WARD_RANGE_VALID] = valid ? 1.0 : 0.0;
        state[WARD_DUPLICATED] = duplicated ? 1.0 : 0.0;
        state[WARD_GRID_W] = float(uGridSize.x);
        state[WARD_GRID_H] = float(uGridSize.y);
    }
    SYNC();
    float lwmin = sLwmin;
    float lwmax = sLwmax;
    float sumLog = 0.0;
    float counted = 0.0;
    for (uint i = tid; i < count; i += 256u) {
        float L = luminanceAt(i);
        if (isnan(L) || isinf(L) || L < lwmin || L >= lwmax)
            continue;
        sumLog += log(L);
        counted += 1.0;
    }
    sA[tid] = sumLog;
    sB[tid] = counted;
    SYNC();
    for (uint s = 128u; s > 0u; s >>= 1u) {
        if (tid < s) {
            sA[tid] += sA[tid + s];
            sB[tid] += sB[tid + s];
        }
        SYNC();
    }
    if (tid == 0u) {
        sBwavg = sB[0] > 0.0 ? sA[0] / sB[0] : 0.0;
        state[WARD_SAMPLES] = sB[0];
        state[WARD_BWAVG] = sBwavg;
    }
    SYNC();
}

// Step 2: the histogram of the foveal samples over [bwmin, bwmax), bit-exact binning.
void buildHistogram(uint tid, uint n)
{
    for (uint i = tid; i < n; i += 256u)
        sBins[i] = 0u;
    if (tid < kCounterCount)
        sCounters[tid] = 0u;
    SYNC();
    float logMin = sBwmin / kLn2; // the same float words the params buffer holds
    float logMax = sBwmax / kLn2;
    float scale = hdBinScale(logMin, logMax, n);
    uint count = uint(uGridSize.x * uGridSize.y);
    for (uint i = tid; i < count; i += 256u) {
        int code = hdBinOfScaled(luminanceAt(i), logMin, logMax, scale, n, kOutOfRangeSeparate);
        if (code >= 0)
            atomicAdd(sBins[uint(code)], 1u);
        else
            atomicAdd(sCounters[hdCounterOfCode(code)], 1u);
    }
    SYNC();
    for (uint i = tid; i < n; i += 256u)
        histogram[i] = sBins[i];
    if (tid < kCounterCount)
        histogram[kHistogramCountersOffset + tid] = sCounters[tid];
}

// The range written by an earlier kStageRange dispatch.
void loadRange(uint tid)
{
    if (tid == 0u) {
        sBwmin = state[WARD_BWMIN];
        sBwmax = state[WARD_BWMAX];
        sBwavg = state[WARD_BWAVG];
        sRangeValid = state[WARD_RANGE_VALID] != 0.0 ? 1u : 0u;
        sDuplicated = state[WARD_DUPLICATED] != 0.0 ? 1u : 0u;
    }
    SYNC();
}

void main()
{
    uint tid = gl_LocalInvocationID.x;
    uint n = clamp(uBins, 2u, uint(WARD_MAX_BINS));
    if (uStage == kStageCeiling)
        loadRange(tid);
    else
        computeRange(tid, n);
    if (uStage == kStageRange)
        return;
    if (uStage == kStageAll) {
        buildHistogram(tid, n);
    } else {
        for (uint i = tid; i < n; i += 256u)
            sBins[i] = histogram[i];
        SYNC();
    }

    float bwmin = sBwmin;
    float bwmax = sBwmax;
    bool duplicated = sDuplicated != 0u;
    bool rangeValid = sRangeValid != 0u;
    float lnLdmin = log(uLdmin);
    float lnLdmax = log(uLdmax);
    float displayRange = lnLdmax - lnLdmin;
    float db = (bwmax - bwmin) / float(n);

    for (uint i = tid; i < n; i += 256u)
        sHist[i] = float(sBins[i]);
    SYNC();
    if (tid == 0u && duplicated) { // pcond: "add false samples at bottom"
        sHist[1] *= 0.5;
        sHist[0] += sHist[1];
    }
    SYNC();
    float local = 0.0;
    for (uint i = tid; i < n; i += 256u)
        local += sHist[i];
    float histot = blockSum(tid, local);

    // Step 3: the ceiling loop. Every branch below depends only on values all invocations share.
    uint outcome = kOutcomeHistogram;
    uint passes = 0u;
    bool converged = true;
    float mhistot = histot;
    if (!rangeValid || !(histot > 0.0)) {
        outcome = kOutcomeNoSamples;
    } else if (bwmax - bwmin <= displayRange) {
        outcome = kOutcomeFits;
    } else {
        converged = false;
        for (uint pass = 0u; pass < uint(WARD_MAX_PASSES); ++pass) {
            if (tid == 0u)
                sTotal = makeCumfSerial(n);
            SYNC();
            mhistot = sTotal;
            if (mhistot <= kCvRatio * histot) {
                outcome = kOutcomeFailed;
                converged = true;
                break;
            }
            for (uint i = tid; i < n; i += 256u) {
                float b = bwmin + (float(i) + 0.5) * db;
                float clampf = 1.0 / displayRange;
                if (uHumanContrast != 0u) {
                    float Lw = exp(b);
                    float P = 0.5 * (sCumf[i] + sCumf[i + 1u]);
                    float Ld = exp(lnLdmin + P * displayRange);
                    clampf = htcontrs(Ld) / htcontrs(Lw) * (Lw / Ld) / displayRange;
                }
                float ceiling = mhistot * db * clampf;
                sCeiling[i] = ceiling;
                float excess = 0.0;
                if (sHist[i] > ceiling) {
                    excess = sHist[i] - ceiling;
                    sHist[i] = ceiling;
                }
                sTrim[i] = excess;
            }
            SYNC();
            if (tid == 0u) { // in bin order, as pcond adds them
                float trimmings = 0.0;
                for (uint i = 0u; i < n; ++i)
                    trimmings += sTrim[i];
                sTrimmings = trimmings;
            }
            SYNC();
            ++passes;
            bool done = sTrimmings <= kCvRatio * mhistot;
            SYNC(); // everyone has read sTotal and sTrimmings before invocation 0 rewrites them
            if (done) {
                converged = true;
                break;
            }
        }
    }
    if (tid == 0u && (outcome == kOutcomeFits || outcome == kOutcomeNoSamples))
        makeCumfSerial(n); // for the view only
    SYNC();

    // Linear operator (pcond mapimage): log-average world luminance -> sqrt(Ldmin Ldmax).
    float geometric = sqrt(uLdmin * uLdmax);
    float average = exp(sBwavg);
    float scalef = uHumanContrast != 0u ? htcontrs(geometric) / htcontrs(average) : geometric / average;
    float linearScale = outcome == kOutcomeNoSamples ? 0.0 : scalef / uLdmax; // display per cd/m^2
    bool linear = outcome != kOutcomeHistogram;

    float lnScale = log(uSceneScale);
    float curveLogMin = (bwmin - lnScale) / kLn2;
    float curveLogMax = (bwmax - lnScale) / kLn2;
    if (tid == 0u) {
        curve[kCurveLogMin] = curveLogMin;
        curve[kCurveLogMax] = curveLogMax;
        curve[kCurveSampleCount] = float(uCurveSamples);
        curve[kCurveChannels] = 1.0;
        curve[kCurveMode] = linear ? kCurveModeLinearScale : kCurveModeLut;
        curve[kCurveScale] = linearScale * uSceneScale;
        state[WARD_OUTCOME] = float(outcome);
        state[WARD_PASSES] = float(passes);
        state[WARD_HISTOT] = histot;
        state[WARD_FINAL_TOTAL] = mhistot;
        state[WARD_CEILING_FRACTION] = db / displayRange;
        state[WARD_CONVERGED] = converged ? 1.0 : 0.0;
        state[WARD_LINEAR_SCALE] = linearScale;
    }
    for (uint s = tid; s < uCurveSamples; s += 256u) {
        float b = bwmin + (float(s) + 0.5) * (bwmax - bwmin) / float(uCurveSamples); // ln Lw, cd/m^2
        float value;
        if (linear) {
            value = min(linearScale * exp(b), 1.0);
        } else {
            float Bd;
            if (exp(b) <= kLmin || b <= bwmin + kFtiny) {
                Bd = lnLdmin;
            } else if (b >= bwmax - kFtiny) {
                Bd = lnLdmax;
            } else {
                float x = float(n) * (b - bwmin) / (bwmax - bwmin);
                uint i = min(uint(x), n - 1u);
                float f = x - float(i);
                Bd = lnLdmin + mix(sCumf[i], sCumf[i + 1u], f) * displayRange;
            }
            value = (exp(Bd) - uLdmin) / (uLdmax - uLdmin);
        }
        curve[kCurveHeaderWords + s] = value;
    }
    for (uint i = tid; i < n; i += 256u) {
        view[i] = sHist[i];
        view[uint(WARD_MAX_BINS) + i] = linear ? histot * db / displayRange : sCeiling[i];
        view[2u * uint(WARD_MAX_BINS) + i] = sCumf[i];
    }
    if (tid == 0u)
        view[2u * uint(WARD_MAX_BINS) + n] = 1.0;
}
