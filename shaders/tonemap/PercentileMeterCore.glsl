// PercentileMeterCore.glsl: percentile auto-exposure metering and temporal adaptation
// (PercentileMeter.comp runs it in one invocation after a scan; PercentileFused.comp after scanning
// the histogram in its own dispatch). Percentiles come from the inclusive CDF by binary search,
// linearly interpolated inside the bin (uniform density within a bin). Key mode: E = log2(key) -
// log2 L(p), limited to log2(white) - log2 L(high) but never more than uMaxHighlightPull below the
// key's exposure (a median floor, as Valve's); band mode: E = log2(key) - mean log2 L between two
// percentiles. Then compensation and the min/max limits, then adaptation (linear beyond the transition
// distance, exponential within it, integrated exactly over dt; or an engine's own per-frame step,
// uAdaptationCurve). The target also gets the compensation curve's value at the metered log2 L
// (linear between points, the end values beyond them; tone/CompensationCurve.h). Cuts: when the
// histogram's mean log2 L (gMeanLog2, HistogramMean.glsl, set by the includer) moved more than
// uCutThreshold EV since the previous usable frame, the frame is a cut: it is counted and, with
// uSnapAtCuts, the exposure snaps to the target. An empty histogram or a non-finite target keeps the
// previous exposure; the first usable frame snaps. State layout: STATE_* (ToneShaders.h).
// The includer declares the state buffer `state[]` and defines `uint cdfAt(uint i)` (the inclusive
// CDF) before including this. METER_UNIFORMS moves the uniforms' locations up by that much (the
// histogram pass that builds the curve in its last workgroup has its own uniforms at the low ones).
#ifndef METER_UNIFORMS
#define METER_UNIFORMS 0
#endif

layout(location = METER_UNIFORMS + 0) uniform uint uMetering;      // 0 key, 1 band average
layout(location = METER_UNIFORMS + 1) uniform float uPercentile;   // fractions 0..1
layout(location = METER_UNIFORMS + 2) uniform float uHighPercentile;
layout(location = METER_UNIFORMS + 3) uniform float uBandLow;
layout(location = METER_UNIFORMS + 4) uniform float uBandHigh;
layout(location = METER_UNIFORMS + 5) uniform float uLog2Key;
layout(location = METER_UNIFORMS + 6) uniform float uLog2White;
layout(location = METER_UNIFORMS + 7) uniform uint uLimitHighlights;
layout(location = METER_UNIFORMS + 8) uniform float uCompensationEv;
layout(location = METER_UNIFORMS + 9) uniform float uMinEv;
layout(location = METER_UNIFORMS + 10) uniform float uMaxEv;
layout(location = METER_UNIFORMS + 11) uniform uint uAdapt;
layout(location = METER_UNIFORMS + 12) uniform float uSpeedUp;
layout(location = METER_UNIFORMS + 13) uniform float uSpeedDown;
layout(location = METER_UNIFORMS + 14) uniform float uTransition;
layout(location = METER_UNIFORMS + 15) uniform float uDt;          // already clamped to [0, kMaxAdaptationDtSeconds]
layout(location = METER_UNIFORMS + 16) uniform uint uReset;
layout(location = METER_UNIFORMS + 17) uniform uint uAdaptationCurve; // post::AdaptationCurve
layout(location = METER_UNIFORMS + 18) uniform float uMaxHighlightPull; // EV the highlight limit may lower the key's exposure
layout(location = METER_UNIFORMS + 19) uniform float uCutThreshold;     // EV; 0: no cut detection
layout(location = METER_UNIFORMS + 24) uniform uint uSnapAtCuts;
layout(location = METER_UNIFORMS + 25) uniform uint uFrameIndex;        // recorded at a cut
layout(location = METER_UNIFORMS + 26) uniform uint uCompensationPointCount;
layout(location = METER_UNIFORMS + 27) uniform vec2 uCompensationPoints[COMPENSATION_POINTS]; // (metered EV, compensation EV)

float gMeanLog2 = 0.0; // this frame's histogram mean log2 L, when uCutThreshold > 0

uint gBins;
float gLogMin;
float gBinWidth;

float cdfBefore(uint i)
{
    return i == 0u ? 0.0 : float(cdfAt(i - 1u));
}

// Position in bins where the CDF reaches t (counts): first bin with cdf >= t and cdf > 0.
float percentileBin(float t)
{
    uint lo = 0u;
    uint hi = gBins - 1u;
    while (lo < hi) {
        uint mid = (lo + hi) / 2u;
        float c = float(cdfAt(mid));
        if (c >= t && cdfAt(mid) > 0u)
            hi = mid;
        else
            lo = mid + 1u;
    }
    uint before = lo == 0u ? 0u : cdfAt(lo - 1u);
    float count = float(cdfAt(lo) - before);
    float inside = count > 0.0 ? clamp((t - float(before)) / count, 0.0, 1.0) : 0.0;
    return float(lo) + inside;
}

float percentileLog2(float fraction, float total)
{
    return gLogMin + percentileBin(clamp(fraction, 0.0, 1.0) * total) * gBinWidth;
}

float bandMeanLog2(float total)
{
    float lo = uBandLow * total;
    float hi = uBandHigh * total;
    if (!(hi > lo))
        return percentileLog2(uBandLow, total);
    float weighted = 0.0;
    float mass = 0.0;
    float before = 0.0;
    for (uint i = 0u; i < gBins; ++i) {
        float after = float(cdfAt(i));
        float count = after - before;
        float a = max(before, lo);
        float b = min(after, hi);
        if (count > 0.0 && b > a) {
            float middle = float(i) + ((a + b) * 0.5 - before) / count;
            weighted += (b - a) * (gLogMin + middle * gBinWidth);
            mass += b - a;
        }
        before = after;
    }
    return mass > 0.0 ? weighted / mass : uintBitsToFloat(0x7fc00000u);
}

float adapt(float current, float target, float dt)
{
    if (!(dt > 0.0))
        return current;
    float delta = target - current;
    if (delta == 0.0)
        return current;
    float direction = delta > 0.0 ? 1.0 : -1.0;
    float speed = delta < 0.0 ? uSpeedUp : uSpeedDown; // falling exposure: the scene brightened
    float distance = abs(delta);
    if (uAdaptationCurve == 3u) // HDRP: exponential only
        return current + delta * (1.0 - exp2(-dt * speed));
    if (uAdaptationCurve == 1u) { // UE: linear step beyond the transition, scaled exp2 step within
        if (distance > uTransition || !(uTransition > 0.0))
            return current + direction * min(speed * dt, distance);
        const float eps = 1.0 / 60.0;
        float slope = eps * speed / ((1.0 - exp2(-eps * speed)) * uTransition);
        return current + delta * (1.0 - exp2(-dt * speed)) * slope;
    }
    if (uAdaptationCurve == 2u) { // Bevy: one Euler step, the smaller of linear and exponential
        if (!(uTransition > 0.0))
            return current + direction * min(speed * dt, distance);
        return current + direction * min(speed * dt, distance * speed * dt / uTransition);
    }
    if (distance > uTransition) {
        float linearTime = (distance - uTransition) / speed;
        if (dt <= linearTime)
            return current + direction * speed * dt;
        dt -= linearTime;
        distance = uTransition;
    }
    if (!(uTransition > 0.0))
        return target;
    return target - direction * distance * exp(-speed * dt / uTransition);
}

bool isMeterUsable(float v)
{
    return !isnan(v) && !isinf(v);
}

// tone/CompensationCurve.h's compensationAt, operation for operation.
float compensationAt(float metered)
{
    uint n = min(uCompensationPointCount, uint(COMPENSATION_POINTS));
    if (n == 0u || !isMeterUsable(metered))
        return 0.0;
    if (metered <= uCompensationPoints[0].x)
        return uCompensationPoints[0].y;
    if (metered >= uCompensationPoints[n - 1u].x)
        return uCompensationPoints[n - 1u].y;
    uint i = 1u;
    while (uCompensationPoints[i].x < metered)
        ++i;
    vec2 a = uCompensationPoints[i - 1u];
    vec2 b = uCompensationPoints[i];
    float t = (metered - a.x) / (b.x - a.x);
    return a.y + t * (b.y - a.y);
}

/// Meters the CDF of `bins` bins over [logMin, logMax] and updates the state.
void percentileMeter(uint bins, float logMin, float logMax)
{
    gBins = bins;
    gLogMin = logMin;
    gBinWidth = (logMax - gLogMin) / float(gBins);
    float total = float(cdfAt(gBins - 1u));

    bool ok = total > 0.0 && isMeterUsable(gLogMin) && isMeterUsable(logMax);
    float target = 0.0;
    float metered = 0.0;
    float high = 0.0;
    if (ok) {
        if (uMetering == 0u) {
            metered = percentileLog2(uPercentile, total);
            high = percentileLog2(uHighPercentile, total);
            float keyTarget = uLog2Key - metered;
            target = keyTarget;
            if (uLimitHighlights != 0u)
                target = max(min(target, uLog2White - high), keyTarget - uMaxHighlightPull);
            state[STATE_BAND_LOW] = 0.0;
            state[STATE_BAND_HIGH] = 0.0;
        } else {
            metered = bandMeanLog2(total);
            high = percentileLog2(uBandHigh, total);
            state[STATE_BAND_LOW] = percentileLog2(uBandLow, total);
            state[STATE_BAND_HIGH] = high;
        }
        if (uMetering != 0u)
            target = uLog2Key - metered;
        float curveEv = compensationAt(metered);
        state[STATE_COMPENSATION] = curveEv;
        target = clamp(target + uCompensationEv + curveEv, uMinEv, uMaxEv);
        ok = isMeterUsable(target);
    }
    state[STATE_FRAME_OK] = ok ? 1.0 : 0.0;
    state[STATE_CUT] = 0.0;
    if (!ok)
        return; // keep the previous exposure, target, markers and mean

    bool cut = false;
    float distance = 0.0;
    if (uCutThreshold > 0.0 && isMeterUsable(gMeanLog2)) {
        if (state[STATE_MEAN_VALID] != 0.0) {
            distance = abs(gMeanLog2 - state[STATE_MEAN_LOG2]);
            cut = distance > uCutThreshold;
        }
        state[STATE_MEAN_LOG2] = gMeanLog2;
        state[STATE_MEAN_VALID] = 1.0;
    } else {
        state[STATE_MEAN_VALID] = 0.0; // detection off: never compare with a stale mean later
    }
    state[STATE_CUT] = cut ? 1.0 : 0.0;
    state[STATE_CUT_DISTANCE] = distance;
    if (cut) {
        state[STATE_CUT_COUNT] += 1.0;
        state[STATE_LAST_CUT_FRAME] = float(uFrameIndex);
        state[STATE_LAST_CUT_DISTANCE] = distance;
    }

    float current = state[STATE_EXPOSURE];
    bool snap = uReset != 0u || state[STATE_VALID] == 0.0 || !isMeterUsable(current) || uAdapt == 0u ||
                (cut && uSnapAtCuts != 0u);
    state[STATE_EXPOSURE] = snap ? target : adapt(current, target, uDt);
    state[STATE_TARGET] = target;
    state[STATE_METERED] = metered;
    state[STATE_HIGH] = high;
    state[STATE_VALID] = 1.0;
}
