// CompensationCurve.h: the percentile operator's exposure compensation curve (as Unreal Engine 5's
// "Exposure Compensation Curve" and Bevy's AutoExposure::compensation_curve): points (metered log2
// luminance -> compensation in EV), interpolated linearly between points and held at the end points'
// values outside them (clamped at the ends). No points: flat 0. Shared by the GPU operator (its
// uniforms, shaders/tonemap/PercentileMeterCore.glsl) and the CPU reference, so both read the same
// points. Limits: at most kMaxCompensationPoints points; the metered value is hdrlab's (the percentile
// or the band mean, log2 of scene luminance), so a curve keyed on EV100 moves by 3 (EV100 = log2 L + 3).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace post {

/// A bounded number, so that the points fit the shader's uniform array.
inline constexpr std::size_t kMaxCompensationPoints = 16;
/// The metered axis and the compensation axis accept values in these ranges (the exposure limits').
inline constexpr float kCompensationCurveMeteredLimit = 64.0f;
inline constexpr float kCompensationCurveValueLimit = 32.0f;

struct CompensationPoint
{
    float meteredEv = 0.0f;       ///< log2 L of the metered value (the histogram's axis)
    float compensationEv = 0.0f;  ///< added to the target exposure there
    friend bool operator==(const CompensationPoint&, const CompensationPoint&) = default;
};

struct CompensationCurve
{
    std::vector<CompensationPoint> points;  ///< metered EV strictly increasing; empty: flat 0
    friend bool operator==(const CompensationCurve&, const CompensationCurve&) = default;
};

/// Drops non-finite points, clamps to the axes' limits, sorts by metered EV, keeps the first of equal
/// metered values and at most kMaxCompensationPoints points (the settings keys refuse such lists
/// instead; this only guards a struct filled in code).
inline CompensationCurve sanitize(CompensationCurve curve)
{
    std::vector<CompensationPoint> kept;
    for (const CompensationPoint& p : curve.points)
        if (std::isfinite(p.meteredEv) && std::isfinite(p.compensationEv))
            kept.push_back({std::clamp(p.meteredEv, -kCompensationCurveMeteredLimit, kCompensationCurveMeteredLimit),
                            std::clamp(p.compensationEv, -kCompensationCurveValueLimit, kCompensationCurveValueLimit)});
    std::stable_sort(kept.begin(), kept.end(),
                     [](const CompensationPoint& a, const CompensationPoint& b) { return a.meteredEv < b.meteredEv; });
    kept.erase(
        std::unique(kept.begin(), kept.end(),
                    [](const CompensationPoint& a, const CompensationPoint& b) { return a.meteredEv == b.meteredEv; }),
        kept.end());
    if (kept.size() > kMaxCompensationPoints)
        kept.resize(kMaxCompensationPoints);
    curve.points = std::move(kept);
    return curve;
}

/// The compensation (EV) at `meteredEv`: linear between points, the end value beyond the ends, 0
/// without points. The curve must be sanitized. Float operations in the order the shader does them.
inline float compensationAt(const CompensationCurve& curve, float meteredEv)
{
    const std::vector<CompensationPoint>& p = curve.points;
    if (p.empty() || !std::isfinite(meteredEv))
        return 0.0f;
    if (meteredEv <= p.front().meteredEv)
        return p.front().compensationEv;
    if (meteredEv >= p.back().meteredEv)
        return p.back().compensationEv;
    std::size_t i = 1;
    while (p[i].meteredEv < meteredEv)
        ++i;
    const CompensationPoint& a = p[i - 1];
    const CompensationPoint& b = p[i];
    const float t = (meteredEv - a.meteredEv) / (b.meteredEv - a.meteredEv);
    return a.compensationEv + t * (b.compensationEv - a.compensationEv);
}

}  // namespace post
