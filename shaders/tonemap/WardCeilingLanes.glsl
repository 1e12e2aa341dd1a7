// WardCeilingLanes.glsl: Ward's ceiling loop (WardCurve.comp step 3) with the histogram in the
// registers of LANES invocations, BINS_PER_LANE consecutive bins each (lane l: bins l K .. l K + K - 1),
// included by WardCurve.comp for CEILING_LOOP 1. A pass of the linear ceiling is one sum over the
// lanes (the trimmings; the next pass's T is this one's minus them, exact in integers); the TVI
// ceiling needs the CDF at each bin, so it adds an exclusive scan of the lanes' sums. The lanes' sums:
//  - LANE_OPS 1: subgroupAdd / subgroupExclusiveAdd of one subgroup of exactly LANES invocations
//    (the host sets LANES to the subgroup size and runs this only where the driver offers
//    GL_KHR_shader_subgroup_arithmetic in compute shaders); only that subgroup runs the loop, so it has
//    no barrier; the others wait at the barrier after it. Assumes the workgroup's first subgroup is
//    full (NVIDIA's warps of 32 are).
//  - LANE_OPS 0: the same code with the sums through shared memory, every invocation running the loop
//    for its barriers (invocations from LANES on hold no bins): what tests use where the driver has no
//    subgroup operations, so the register layout is checked there too.
// Every quantity is computed with the operations and in the order of the workgroup loop, so the
// results are the same bits. Limits: n <= LANES * BINS_PER_LANE (the host picks BINS_PER_LANE).

#if LANE_OPS == 1
bool isLoopLane(uint tid) { return gl_SubgroupID == 0u; }
uint laneIndex(uint tid) { return gl_SubgroupInvocationID; }

// The exclusive sum of v over the lanes below this one, and the total over all lanes.
uint laneExclusiveSum(uint lane, uint v, out uint total)
{
    total = subgroupAdd(v);
    return subgroupExclusiveAdd(v);
}

uint laneSum(uint lane, uint v)
{
    return subgroupAdd(v);
}
#else
shared uint sLaneValues[LANES];

bool isLoopLane(uint tid) { return true; } // every invocation runs the loop (barriers)
uint laneIndex(uint tid) { return tid; }   // from LANES on: no bins, value 0

uint laneExclusiveSum(uint lane, uint v, out uint total)
{
    if (lane < uint(LANES))
        sLaneValues[lane] = v;
    SYNC();
    uint below = 0u;
    uint sum = 0u;
    for (uint l = 0u; l < uint(LANES); ++l) {
        uint value = sLaneValues[l];
        below += l < lane ? value : 0u;
        sum += value;
    }
    SYNC(); // read before the next sum rewrites them
    total = sum;
    return below;
}

uint laneSum(uint lane, uint v)
{
    uint total;
    laneExclusiveSum(lane, v, total);
    return total;
}
#endif

// Lw_i and dLt(Lw_i) of every bin centre: constant over the passes, computed once by all invocations
// into arrays free during the loop (shared memory is short at 1024 invocations): sBins (the raw
// histogram, in sHist by now; float bits) and sCumf (made after the loop from sPrefix).
#define BIN_LW(i) uintBitsToFloat(sBins[i])
#define BIN_THRESHOLD_LW(i) sCumf[i]

// Same contract as workgroupCeilingLoop: sHist trimmed, sPrefix the exclusive prefix sums of the last
// pass's histogram from before its trimming (WardCurve.comp makes the CDF from them), the results in
// sOutcome, sPasses, sConverged and sTotal; the ceilings of the last pass in the view buffer.
void lanesCeilingLoop(uint tid, uint n, uint histot, uint F, float bwmin, float db)
{
    const uint K = uint(BINS_PER_LANE);
    if (uHumanContrast != 0u) {
        for (uint i = tid; i < n; i += kGroup) {
            HD_PRECISE float b = HD_ADD(bwmin, HD_MUL(HD_ADD(float(i), 0.5), db));
            float Lw = hdExp(b);
            sBins[i] = floatBitsToUint(Lw);
            sCumf[i] = WARD_THRESHOLD(Lw);
        }
    }
    SYNC();
    if (isLoopLane(tid)) {
        const uint lane = laneIndex(tid);
        const uint base = lane * K;
        uint hist[BINS_PER_LANE];   // this pass's histogram, trimmed in place
        uint before[BINS_PER_LANE]; // the same before this pass's trimming (the CDF the curve uses)
        uint ceilings[BINS_PER_LANE];
        for (uint k = 0u; k < K; ++k) {
            uint i = base + k;
            hist[k] = lane < uint(LANES) && i < n ? sHist[i] : 0u;
            before[k] = hist[k];
            ceilings[k] = 0u;
        }
        uint outcome = kOutcomeHistogram;
        uint passes = 0u;
        bool converged = false;
        uint T = histot; // the sum of hist, kept exact: minus the trimmings after each pass
        uint mhistot = histot;
        for (uint pass = 0u; pass < uint(PASS_LIMIT); ++pass) {
            for (uint k = 0u; k < K; ++k)
                before[k] = hist[k];
            mhistot = T;
            if (T <= histot / 40u) { // T <= 2.5 % of the original: failure
                outcome = kOutcomeFailed;
                converged = true;
                break;
            }
            HD_PRECISE float Tdb = HD_MUL(float(T), db);
            uint trimmed = 0u;
            if (uHumanContrast != 0u) {
                uint local = 0u;
                for (uint k = 0u; k < K; ++k)
                    local += hist[k];
                uint total;
                uint prefix = laneExclusiveSum(lane, local, total); // total == T
                float cumfLow = hdDivide(float(prefix), float(T));  // cumf[i] as makeCumf: T > 0 here
                for (uint k = 0u; k < K; ++k) {
                    uint i = base + k;
                    uint next = prefix + hist[k];
                    float cumfHigh = i + 1u >= n ? 1.0 : hdDivide(float(next), float(T));
                    if (lane < uint(LANES) && i < n) {
                        HD_PRECISE float P = HD_MUL(0.5, HD_ADD(cumfLow, cumfHigh));
                        HD_PRECISE float Bd = HD_ADD(uLnLdmin, HD_MUL(P, uDisplayRange));
                        float Ld = hdExp(Bd);
                        float Lw = BIN_LW(i);
                        HD_PRECISE float factor = HD_MUL(hdDivide(WARD_THRESHOLD(Ld), BIN_THRESHOLD_LW(i)), hdDivide(Lw, Ld));
                        HD_PRECISE float clampf = HD_MUL(factor, uInvDisplayRange);
                        HD_PRECISE float ceilingValue = HD_MUL(Tdb, clampf);
                        uint ceiling = ceilingValue >= 16777216.0 ? 16777216u : uint(ceilingValue);
                        if (hist[k] > ceiling) {
                            trimmed += hist[k] - ceiling;
                            hist[k] = ceiling;
                        }
                        ceilings[k] = ceiling;
                    }
                    prefix = next;
                    cumfLow = cumfHigh;
                }
            } else { // the linear ceiling: one value for every bin (bins past n hold 0: never trimmed)
                HD_PRECISE float ceilingValue = HD_MUL(Tdb, uInvDisplayRange);
                uint ceiling = ceilingValue >= 16777216.0 ? 16777216u : uint(ceilingValue);
                for (uint k = 0u; k < K; ++k) {
                    if (hist[k] > ceiling) {
                        trimmed += hist[k] - ceiling;
                        hist[k] = ceiling;
                    }
                    ceilings[k] = ceiling;
                }
            }
            uint trimmings = laneSum(lane, trimmed);
            ++passes;
            T -= trimmings;
            if (trimmings <= mhistot / 40u) { // trimmings <= 2.5 % of T
                converged = true;
                break;
            }
        }
        // Out of the registers: the trimmed histogram, the prefix sums of the last pass's CDF, the
        // last ceilings (none without a pass: a failure at once is linear, whose ceilings come later).
        uint local = 0u;
        for (uint k = 0u; k < K; ++k)
            local += before[k];
        uint total;
        uint prefix = laneExclusiveSum(lane, local, total);
        for (uint k = 0u; k < K; ++k) {
            uint i = base + k;
            if (lane < uint(LANES) && i < n) {
                sHist[i] = hist[k];
                sPrefix[i] = prefix;
                if (passes > 0u)
                    view[gViewAt + (uint(WARD_MAX_BINS) + i)] = ldexp(float(ceilings[k]), -int(F));
            }
            prefix += before[k];
        }
        if (lane == 0u) {
            sOutcome = outcome;
            sPasses = passes;
            sConverged = converged ? 1u : 0u;
            sTotal = mhistot;
        }
    }
    SYNC();
}
