// WardPcondFit.comp: Ward's histogram adjustment from pcond's samples, in one workgroup, in double
// precision and in pcond's order of operations (post/tonemap/ToneWard.h, "pcond sampling";
// reference/WardPcondRef.h is the CPU reference):
//  1. comphist (uStage = kStageSamples): the range over the foveal and point samples (lwmax *= 1.01,
//     LMAX; lwmin < LMIN -> LMIN, else the bottom bin duplicated); the samples binned by
//     (int)(n (ln L - bwmin) / (bwmax - bwmin)) with pcond's FTINY skips; the foveal samples weigh 1,
//     the point samples w = histot_foveal / nlumsamp each. pcond adds w to a bin once per sample; that
//     sum is reproduced exactly (f64RepeatAdd: equal addends add one fixed amount per binade), so
//     the bins are pcond's bit for bit. The log-average is summed in another order (its last bits
//     may differ; it only scales the linear fallback). Then the "false samples at bottom".
//     uStage = kStageFed starts here instead, from a histogram the host wrote into the pcond buffer
//     (tonemap --histogram-in).
//  2. check2do and mkbrmap: the ceiling loop with clampf evaluated at the bin centres b accumulated
//     from bwmin + s/2 as pcond does; mkcumf and the trimmings summed serially in bin order, the
//     ceilings in parallel.
//  3. Outputs: the curve LUT over [bwmin, bwmax] for the apply pass, pcond's -x points, the Ward
//     state words and view buffer (as WardCurve.comp writes them), and the pcond buffer (doubles:
//     header, histogram, trimmed histogram, ceilings, cumf, printed points; ward_pcond:: offsets).
#include "shared/HostDevice.h"
#include "tonemap/Float64.glsl"

layout(local_size_x = 256) in;

layout(std430, binding = kBindingScratch1) readonly buffer Samples { double samples[]; };
layout(std430, binding = kBindingScratch2) coherent buffer Pcond { double pcond[]; };
layout(std430, binding = kBindingHistogramParams) writeonly buffer Params { uint params[]; };
layout(std430, binding = kBindingHistogram) writeonly buffer Histogram { uint histogram[]; };
layout(std430, binding = kBindingOperatorState) writeonly buffer State { float state[]; };
layout(std430, binding = kBindingCurve) writeonly buffer Curve { float curve[]; };
layout(std430, binding = kBindingScratch0) writeonly buffer View { float view[]; };

layout(location = 0) uniform uint uBins;
layout(location = 1) uniform double uLdmin;
layout(location = 2) uniform double uLdmax;
layout(location = 3) uniform uint uHumanContrast;
layout(location = 4) uniform uint uCurveSamples;
layout(location = 5) uniform uint uFovealCount;
layout(location = 6) uniform uint uPointCount;
layout(location = 7) uniform uint uStage;
layout(location = 8) uniform float uCurveLnScale; // ln of cd/m^2 per unit of the apply pass's luminance
layout(location = 9) uniform ivec2 uGridSize;

const uint kStageSamples = 0u;
const uint kStageFed = 1u;

// pcond's constants, exactly (tonemap/Float64.glsl says why not as literals).
const double kPcondLmin = packDouble2x32(uvec2(0x9abcaf48u, 0x3e7ad7f2u)); // LMIN 1e-7
const double kPcondLmax = packDouble2x32(uvec2(0x00000000u, 0x416312d0u)); // LMAX 1e7
const double kPcondFtiny = packDouble2x32(uvec2(0xa0b5ed8du, 0x3eb0c6f7u)); // FTINY 1e-6
const double kPcondCvRatio = packDouble2x32(uvec2(0x9999999au, 0x3f999999u)); // CVRATIO 0.025
const double kPcondLwminStart = packDouble2x32(uvec2(0x20000000u, 0x4202a05fu)); // comphist's first lwmin, 1e10
const double kPcondGrowth = packDouble2x32(uvec2(0xc28f5c29u, 0x3ff028f5u)); // lwmax *= 1.01
const double kPcondWhiteEfficacy = packDouble2x32(uvec2(0x00000000u, 0x40666000u)); // WHTEFFICACY 179
const double kTviFloor = packDouble2x32(uvec2(0xfb798882u, 0x3f1e1818u)); // 1.148e-4
const double kTviFloorValue = packDouble2x32(uvec2(0xb7952d23u, 0x3f569c23u)); // 1.38e-3
const double kTviRod = packDouble2x32(uvec2(0x70a3d70au, 0xbff70a3du)); // -1.44
const double kTviRodA = packDouble2x32(uvec2(0x1eb851ecu, 0x3fd9eb85u)); // .405
const double kTviRodB = packDouble2x32(uvec2(0x9999999au, 0x3ff99999u)); // 1.6
const double kTviRodP = packDouble2x32(uvec2(0xd70a3d71u, 0x400170a3u)); // 2.18
const double kTviRodC = packDouble2x32(uvec2(0xae147ae1u, 0x4006e147u)); // 2.86
const double kTviMes = packDouble2x32(uvec2(0x18fc5048u, 0xbf92d773u)); // -.0184
const double kTviMesC = packDouble2x32(uvec2(0x147ae148u, 0x3fd947aeu)); // .395
const double kTviCone = packDouble2x32(uvec2(0x66666666u, 0x3ffe6666u)); // 1.9
const double kTviConeA = packDouble2x32(uvec2(0x645a1cacu, 0x3fcfdf3bu)); // .249
const double kTviConeB = packDouble2x32(uvec2(0xcccccccdu, 0x3fe4ccccu)); // .65
const double kTviConeP = packDouble2x32(uvec2(0x9999999au, 0x40059999u)); // 2.7
const double kTviConeC = packDouble2x32(uvec2(0x70a3d70au, 0x3fe70a3du)); // .72
const double kTviPhot = packDouble2x32(uvec2(0xe147ae14u, 0x3ff4147au)); // 1.255
const float kLn2 = 0.69314718056;
const uint kOutcomeHistogram = 0u;
const uint kOutcomeFits = 1u;
const uint kOutcomeFailed = 2u;
const uint kOutcomeNoSamples = 3u;

shared double sRedA[256];
shared double sRedB[256];
shared uint sCountA[256];
shared uint sCountB[256];
shared uint sFoveal[WARD_MAX_BINS];
shared uint sPoints[WARD_MAX_BINS];
shared double sModhist[WARD_MAX_BINS];
shared double sCumf[WARD_MAX_BINS + 1];
shared double sBwmin;
shared double sBwmax;
shared double sLwmin;
shared double sLwmax;
shared double sBwavg;
shared double sHistot;
shared double sMhistot;
shared double sWeight;
shared double sTrimmings;
shared uint sValid;
shared uint sDuplicated;

#define SYNC() memoryBarrierShared(); memoryBarrierBuffer(); barrier()

int binOf(double b, uint n)
{
    int i = int(f64Divide(double(n) * (b - sBwmin), sBwmax - sBwmin));
    return clamp(i, 0, int(n) - 1);
}

double htcontrs(double La)
{
    if (La < kTviFloor)
        return kTviFloorValue;
    double l10La = f64Log10(La);
    double l10dL;
    if (l10La < kTviRod)
        l10dL = f64Pow(kTviRodA * l10La + kTviRodB, kTviRodP) - kTviRodC;
    else if (l10La < kTviMes)
        l10dL = l10La - kTviMesC;
    else if (l10La < kTviCone)
        l10dL = f64Pow(kTviConeA * l10La + kTviConeB, kTviConeP) - kTviConeC;
    else
        l10dL = l10La - kTviPhot;
    return f64Exp(kF64Ln10 * l10dL);
}

double cf(double b, uint n)
{
    double x = f64Divide(double(n) * (b - sBwmin), sBwmax - sBwmin);
    int i = int(x);
    x -= double(i);
    return sCumf[i] * (1.0LF - x) + sCumf[i + 1] * x;
}

double BLw(double Lw, uint n, double Bldmin, double Bldmax)
{
    if (Lw <= kPcondLmin)
        return Bldmin;
    double b = f64Log(Lw);
    if (b <= sBwmin + kPcondFtiny)
        return Bldmin;
    if (b >= sBwmax - kPcondFtiny)
        return Bldmax;
    return Bldmin + cf(b, n) * (Bldmax - Bldmin);
}

double clampf(double Lw, uint n, double Bldmin, double Bldmax)
{
    double bLw = BLw(Lw, n, Bldmin, Bldmax);
    double e = f64Exp(bLw);
    double ratio = uHumanContrast != 0u ? f64Divide(htcontrs(e), htcontrs(Lw)) : f64Divide(e, Lw);
    return f64Divide(ratio, e * (Bldmax - Bldmin) * f64Divide(1.0LF, Lw));
}

// comphist over the sample buffer (stage kStageSamples).
void comphist(uint tid, uint n)
{
    uint total = uFovealCount + uPointCount;
    double lo = kPcondLwminStart;
    double hi = 0.0LF;
    for (uint i = tid; i < total; i += 256u) {
        double L = samples[2u * i];
        lo = min(lo, L);
        hi = max(hi, L);
    }
    sRedA[tid] = lo;
    sRedB[tid] = hi;
    SYNC();
    for (uint s = 128u; s > 0u; s >>= 1u) {
        if (tid < s) {
            sRedA[tid] = min(sRedA[tid], sRedA[tid + s]);
            sRedB[tid] = max(sRedB[tid], sRedB[tid + s]);
        }
        SYNC();
    }
    if (tid == 0u) {
        double lwmin = sRedA[0];
        double lwmax = sRedB[0] * kPcondGrowth;
        if (lwmax > kPcondLmax)
            lwmax = kPcondLmax;
        double bwmax = lwmax > 0.0LF ? f64Log(lwmax) : -1.0e300LF;
        double bwmin;
        if (lwmin < kPcondLmin) {
            lwmin = kPcondLmin;
            bwmin = f64Log(kPcondLmin);
        } else { // duplicate bottom bin
            bwmin = bwmax - f64Divide((bwmax - f64Log(lwmin)) * double(n), double(n - 1u));
            lwmin = f64Exp(bwmin);
        }
        sBwmin = bwmin;
        sBwmax = bwmax;
        sLwmin = lwmin;
        sLwmax = lwmax;
    }
    for (uint i = tid; i < n; i += 256u) {
        sFoveal[i] = 0u;
        sPoints[i] = 0u;
    }
    SYNC();
    double lwmin = sLwmin;
    double lwmax = sLwmax;
    bool rangeOk = sBwmax > sBwmin;
    // Foveal samples: weight 1.
    double sumLog = 0.0LF;
    uint counted = 0u;
    for (uint i = tid; rangeOk && i < uFovealCount; i += 256u) {
        double L = samples[2u * i];
        if (L < lwmin + kPcondFtiny || L >= lwmax - kPcondFtiny)
            continue;
        double b = samples[2u * i + 1u];
        atomicAdd(sFoveal[binOf(b, n)], 1u);
        sumLog += b;
        ++counted;
    }
    sRedA[tid] = sumLog;
    sCountA[tid] = counted;
    SYNC();
    for (uint s = 128u; s > 0u; s >>= 1u) {
        if (tid < s) {
            sRedA[tid] += sRedA[tid + s];
            sCountA[tid] += sCountA[tid + s];
        }
        SYNC();
    }
    double fovealTotal = double(sCountA[0]);
    double fovealLogSum = sRedA[0];
    double w = uPointCount > 0u ? f64Divide(1.0LF * fovealTotal, double(uPointCount)) : 0.0LF;
    SYNC();
    // Point samples: weight w each.
    sumLog = 0.0LF;
    counted = 0u;
    for (uint i = uFovealCount + tid; rangeOk && i < total; i += 256u) {
        double L = samples[2u * i];
        if (L < lwmin + kPcondFtiny || L >= lwmax - kPcondFtiny)
            continue;
        double b = samples[2u * i + 1u];
        atomicAdd(sPoints[binOf(b, n)], 1u);
        sumLog += w * b;
        ++counted;
    }
    sRedA[tid] = sumLog;
    sCountA[tid] = counted;
    SYNC();
    for (uint s = 128u; s > 0u; s >>= 1u) {
        if (tid < s) {
            sRedA[tid] += sRedA[tid + s];
            sCountA[tid] += sCountA[tid + s];
        }
        SYNC();
    }
    for (uint i = tid; i < n; i += 256u)
        sModhist[i] = f64RepeatAdd(double(sFoveal[i]), w, sPoints[i]);
    if (tid == 0u) {
        double histot = f64RepeatAdd(fovealTotal, w, sCountA[0]);
        bool valid = rangeOk && histot > 0.0LF;
        sHistot = histot;
        sBwavg = valid ? f64Divide(fovealLogSum + sRedA[0], histot) : 0.0LF;
        sValid = valid ? 1u : 0u;
        sWeight = w;
        pcond[WARD_PCOND_FOVEAL_COUNTED] = fovealTotal;
        pcond[WARD_PCOND_POINTS_COUNTED] = double(sCountA[0]);
        pcond[WARD_PCOND_POINT_WEIGHT] = w;
    }
    SYNC();
    if (tid == 0u) {
        sDuplicated = 0u;
        if (sLwmin > kPcondLmin + kPcondFtiny && n >= 2u) { // add false samples at bottom
            sModhist[1] *= 0.5LF;
            sModhist[0] += sModhist[1];
            sDuplicated = 1u;
        }
        pcond[WARD_PCOND_BWMIN] = sBwmin;
        pcond[WARD_PCOND_BWMAX] = sBwmax;
        pcond[WARD_PCOND_BWAVG] = sBwavg;
        pcond[WARD_PCOND_HISTOT] = sHistot;
        pcond[WARD_PCOND_LWMIN] = sLwmin;
        pcond[WARD_PCOND_LWMAX] = sLwmax;
        pcond[WARD_PCOND_DUPLICATED] = double(sDuplicated);
        pcond[WARD_PCOND_VALID] = double(sValid);
    }
    SYNC();
    for (uint i = tid; i < n; i += 256u)
        pcond[WARD_PCOND_HISTOGRAM + i] = sModhist[i];
}

// A histogram the host wrote (stage kStageFed).
void loadFed(uint tid, uint n)
{
    if (tid == 0u) {
        sBwmin = pcond[WARD_PCOND_BWMIN];
        sBwmax = pcond[WARD_PCOND_BWMAX];
        sBwavg = pcond[WARD_PCOND_BWAVG];
        sHistot = pcond[WARD_PCOND_HISTOT];
        sLwmin = pcond[WARD_PCOND_LWMIN];
        sLwmax = pcond[WARD_PCOND_LWMAX];
        sDuplicated = pcond[WARD_PCOND_DUPLICATED] != 0.0LF ? 1u : 0u;
        sValid = pcond[WARD_PCOND_VALID] != 0.0LF ? 1u : 0u;
    }
    for (uint i = tid; i < n; i += 256u)
        sModhist[i] = pcond[WARD_PCOND_HISTOGRAM + i];
    SYNC();
}

void mkcumfSerial(uint n)
{
    double total = 0.0LF;
    for (uint i = 0u; i < n; ++i)
        total += sModhist[i];
    double sum = 0.0LF;
    for (uint i = 0u; i < n; ++i) {
        sCumf[i] = f64Divide(sum, total);
        sum += sModhist[i];
    }
    sCumf[n] = 1.0LF;
    sMhistot = total;
}

void main()
{
    uint tid = gl_LocalInvocationID.x;
    uint n = clamp(uBins, 2u, uint(WARD_MAX_BINS));
    if (uStage == kStageFed)
        loadFed(tid, n);
    else
        comphist(tid, n);

    double Bldmin = f64Log(uLdmin);
    double Bldmax = f64Log(uLdmax);
    double bwmin = sBwmin;
    double bwmax = sBwmax;
    bool valid = sValid != 0u;
    double s = valid ? f64Divide(bwmax - bwmin, double(n)) : 0.0LF;
    // Bin centres as pcond makes them: b = bwmin + .5 s, then b += s (one rounding each).
    if (tid == 0u && valid) {
        precise double b = bwmin + 0.5LF * s;
        for (uint i = 0u; i < n; ++i) {
            pcond[WARD_PCOND_CENTRES + i] = b;
            b = b + s;
        }
    }
    SYNC();

    uint outcome = kOutcomeHistogram;
    uint passes = 0u;
    bool converged = true;
    if (!valid) {
        outcome = kOutcomeNoSamples;
    } else if (bwmax - bwmin <= Bldmax - Bldmin) {
        outcome = kOutcomeFits;
    } else {
        converged = false;
        for (uint pass = 0u; pass < uint(WARD_MAX_PASSES); ++pass) {
            if (tid == 0u)
                mkcumfSerial(n);
            SYNC();
            double mhistot = sMhistot;
            if (mhistot <= sHistot * kPcondCvRatio) {
                outcome = kOutcomeFailed;
                converged = true;
                break;
            }
            double Tdb = mhistot * s;
            for (uint i = tid; i < n; i += 256u) {
                double ceiling = Tdb * clampf(f64Exp(pcond[WARD_PCOND_CENTRES + i]), n, Bldmin, Bldmax);
                double excess = 0.0LF;
                if (sModhist[i] > ceiling) {
                    excess = sModhist[i] - ceiling;
                    sModhist[i] = ceiling;
                }
                pcond[WARD_PCOND_CEILING + i] = ceiling;
                pcond[WARD_PCOND_EXCESS + i] = excess;
            }
            SYNC();
            if (tid == 0u) { // in bin order, as pcond adds them
                double trimmings = 0.0LF;
                for (uint i = 0u; i < n; ++i)
                    trimmings += pcond[WARD_PCOND_EXCESS + i];
                sTrimmings = trimmings;
            }
            SYNC();
            ++passes;
            bool done = sTrimmings <= mhistot * kPcondCvRatio;
            SYNC(); // everyone has read sMhistot and sTrimmings before they are rewritten
            if (done) {
                converged = true;
                break;
            }
        }
    }
    if (tid == 0u && outcome != kOutcomeHistogram && valid)
        mkcumfSerial(n); // pcond keeps no cdf for the linear outcomes; this one is for the view
    SYNC();

    bool linear = outcome != kOutcomeHistogram;
    double scalef = 0.0LF;
    if (linear && valid) {
        double middle = f64Exp(0.5LF * (Bldmax + Bldmin));
        double average = f64Exp(sBwavg);
        scalef = uHumanContrast != 0u ? f64Divide(htcontrs(middle), htcontrs(average)) : f64Divide(middle, average);
    }
    double Ldmin = uLdmin;
    double Ldmax = uLdmax;
    if (!valid) { // nothing above LMIN: a harmless range for the curve header and the view
        bwmin = f64Log(kPcondLmin);
        bwmax = bwmin + 1.0LF;
    }

    // The apply pass's LUT over [bwmin, bwmax].
    if (tid == 0u) {
        curve[kCurveLogMin] = float(bwmin) / kLn2 - uCurveLnScale / kLn2;
        curve[kCurveLogMax] = float(bwmax) / kLn2 - uCurveLnScale / kLn2;
        curve[kCurveSampleCount] = float(uCurveSamples);
        curve[kCurveChannels] = 1.0;
        curve[kCurveMode] = linear ? kCurveModeLinearScale : kCurveModeLut;
        curve[kCurveScale] = float(scalef / Ldmax) * exp(uCurveLnScale);
    }
    for (uint j = tid; valid && j < uCurveSamples; j += 256u) {
        double b = bwmin + (double(j) + 0.5LF) * f64Divide(bwmax - bwmin, double(uCurveSamples));
        double value;
        if (linear)
            value = min(f64Divide(scalef, Ldmax) * f64Exp(b), 1.0LF);
        else
            value = f64Divide(f64Exp(BLw(f64Exp(b), n, Bldmin, Bldmax)) - Ldmin, Ldmax - Ldmin);
        curve[kCurveHeaderWords + j] = float(value);
    }
    // pcond -x: (world, display) at the bin centres; in the linear case 179 x the output value.
    double sf = scalef * f64Divide(kPcondWhiteEfficacy, Ldmax);
    for (uint i = tid; valid && i < n; i += 256u) {
        double wlum = f64Exp(pcond[WARD_PCOND_CENTRES + i]);
        double dlum;
        if (linear)
            dlum = clamp(sf * wlum, Ldmin, Ldmax);
        else
            dlum = f64Exp(BLw(wlum, n, Bldmin, Bldmax));
        pcond[WARD_PCOND_PRINTED + 2u * i] = wlum;
        pcond[WARD_PCOND_PRINTED + 2u * i + 1u] = dlum;
        pcond[WARD_PCOND_MODHIST + i] = sModhist[i];
        pcond[WARD_PCOND_CUMF + i] = sCumf[i];
        view[i] = float(sModhist[i]);
        view[uint(WARD_MAX_BINS) + i] = linear ? float(sHistot * s / (Bldmax - Bldmin)) : float(pcond[WARD_PCOND_CEILING + i]);
        view[2u * uint(WARD_MAX_BINS) + i] = float(sCumf[i]);
        histogram[i] = uint(floor(pcond[WARD_PCOND_HISTOGRAM + i] + 0.5LF));
    }
    if (tid == 0u) {
        pcond[WARD_PCOND_CUMF + n] = 1.0LF;
        view[2u * uint(WARD_MAX_BINS) + n] = 1.0;
        pcond[WARD_PCOND_OUTCOME] = double(outcome);
        pcond[WARD_PCOND_PASSES] = double(passes);
        pcond[WARD_PCOND_MHISTOT] = sMhistot;
        pcond[WARD_PCOND_SCALEF] = scalef;
        pcond[WARD_PCOND_BINS] = double(n);
        pcond[WARD_PCOND_PRINTED_COUNT] = valid ? double(n) : 0.0LF;
        params[kParamLogMin] = floatBitsToUint(float(bwmin) / kLn2);
        params[kParamLogMax] = floatBitsToUint(float(bwmax) / kLn2);
        params[kParamBinCount] = n;
        params[kParamOutOfRange] = kOutOfRangeSeparate;
        params[kParamWidth] = uint(uGridSize.x);
        params[kParamHeight] = uint(uGridSize.y);
        state[WARD_OUTCOME] = float(outcome);
        state[WARD_PASSES] = float(passes);
        state[WARD_BWMIN] = float(bwmin);
        state[WARD_BWMAX] = float(bwmax);
        state[WARD_BWAVG] = float(sBwavg);
        state[WARD_HISTOT] = float(sHistot);
        state[WARD_FINAL_TOTAL] = float(sMhistot);
        state[WARD_CEILING_FRACTION] = valid ? float(f64Divide(s, Bldmax - Bldmin)) : 0.0;
        state[WARD_SAMPLES] = float(uFovealCount + uPointCount);
        state[WARD_RANGE_VALID] = valid ? 1.0 : 0.0;
        state[WARD_DUPLICATED] = float(sDuplicated);
        state[WARD_CONVERGED] = converged ? 1.0 : 0.0;
        state[WARD_GRID_W] = float(uGridSize.x);
        state[WARD_GRID_H] = float(uGridSize.y);
        state[WARD_LINEAR_SCALE] = float(f64Divide(scalef, Ldmax));
        for (uint k = 0u; k < kCounterCount; ++k)
            histogram[kHistogramCountersOffset + k] = 0u;
    }
}
