// WardCeiling.comp: Ward's histogram adjustment on the GPU, one workgroup (pcond mkbrmap, check2do,
// BLw and the linear fallback). Loads the Ward histogram into shared memory (bottom-bin duplication
// when flagged), then: range fits the display -> linear; else repeat { mhistot = sum, cumf =
// exclusive prefix / mhistot; mhistot <= 2.5 % of the original -> failure -> linear; trim every bin
// to ceiling_i = mhistot * db * clampf_i } while trimmings > 2.5 % of mhistot, with
// clampf = 1 / (ln Ldmax - ln Ldmin) (linear ceiling) or that times the TVI factor
// [dLt(Ld_i) / dLt(Lw_i)] [Lw_i / Ld_i] at the bin centre (pcond -s). At most WARD_MAX_PASSES passes
// (pcond cannot need more than 147). The mapping uses the cumf of the last pass, as pcond does.
// Writes the curve (LUT over [bwmin, bwmax], or LinearScale), the state words and the view buffer
// (trimmed histogram, last ceilings, cumf).
#include "shared/HostDevice.h"

layout(local_size_x = 256) in;

layout(std430, binding = kBindingHistogram) readonly buffer Histogram { uint histogram[]; };
layout(std430, binding = kBindingOperatorState) buffer State { float state[]; };
layout(std430, binding = kBindingCurve) writeonly buffer Curve { float curve[]; };
layout(std430, binding = kBindingScratch0) writeonly buffer View { float view[]; };

layout(location = 0) uniform uint uBins;
layout(location = 1) uniform float uLdmin;
layout(location = 2) uniform float uLdmax;
layout(location = 3) uniform float uSceneScale;
layout(location = 4) uniform uint uHumanContrast;
layout(location = 5) uniform uint uCurveSamples;

const float kLmin = WARD_LMIN;
const float kLmax = WARD_LMAX;
const float kCvRatio = WARD_CV_RATIO;
const float kFtiny = WARD_FTINY;
const float kLn2 = 0.69314718056;
const uint kOutcomeHistogram = 0u;
const uint kOutcomeFits = 1u;
const uint kOutcomeFailed = 2u;
const uint kOutcomeNoSamples = 3u;

shared float sHist[WARD_MAX_BINS];
shared float sCumf[WARD_MAX_BINS + 1];
shared float sCeiling[WARD_MAX_BINS];
shared float sSum[256];
shared uint sOutcome;
shared uint sPasses;
shared uint sConverged;
shared float sFinalTotal;

#define SYNC() memoryBarrierShared(); barrier()

float blockSum(uint tid, float value)
{
    sSum[tid] = value;
    SYNC();
    for (uint s = 128u; s > 0u; s >>= 1u) {
        if (tid < s)
            sSum[tid] += sSum[tid + s];
        SYNC();
    }
    float total = sSum[0];
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

void main()
{
    uint tid = gl_LocalInvocationID.x;
    uint n = clamp(uBins, 2u, uint(WARD_MAX_BINS));
    float bwmin = state[WARD_BWMIN];
    float bwmax = state[WARD_BWMAX];
    bool duplicated = state[WARD_DUPLICATED] != 0.0;
    bool rangeValid = state[WARD_RANGE_VALID] != 0.0;
    float lnLdmin = log(uLdmin);
    float lnLdmax = log(uLdmax);
    float displayRange = lnLdmax - lnLdmin;
    float db = (bwmax - bwmin) / float(n);

    for (uint i = tid; i < n; i += 256u)
        sHist[i] = float(histogram[i]);
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

    // The ceiling loop itself runs in one invocation: it is short (n <= WARD_MAX_BINS bins, a few
    // passes in practice), and keeping every barrier out of its data-dependent exits makes it behave
    // the same on every driver (a parallel version with barriers inside the early-exit loop gave
    // wrong results on NVIDIA while llvmpipe passed).
    if (tid == 0u) {
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
                mhistot = makeCumfSerial(n);
                if (mhistot <= kCvRatio * histot) {
                    outcome = kOutcomeFailed;
                    converged = true;
                    break;
                }
                float trimmings = 0.0;
                for (uint i = 0u; i < n; ++i) {
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
                    if (sHist[i] > ceiling) {
                        trimmings += sHist[i] - ceiling;
                        sHist[i] = ceiling;
                    }
                }
                ++passes;
                if (trimmings <= kCvRatio * mhistot) {
                    converged = true;
                    break;
                }
            }
        }
        if (outcome == kOutcomeFits || outcome == kOutcomeNoSamples)
            makeCumfSerial(n); // for the view only
        sOutcome = outcome;
        sPasses = passes;
        sConverged = converged ? 1u : 0u;
        sFinalTotal = mhistot;
    }
    SYNC();
    uint outcome = sOutcome;
    uint passes = sPasses;
    bool converged = sConverged != 0u;
    float mhistot = sFinalTotal;

    // Linear operator (pcond mapimage): log-average world luminance -> sqrt(Ldmin Ldmax).
    float geometric = sqrt(uLdmin * uLdmax);
    float average = exp(state[WARD_BWAVG]);
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
