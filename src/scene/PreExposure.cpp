// PreExposure.cpp: frame format names, the frame statistics and the pre-exposure rule (see
// PreExposure.h).
#include "scene/PreExposure.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace scene {

const char* frameFormatName(FrameFormat format)
{
    return kFrameFormats[std::size_t(format)].name;
}

std::optional<FrameFormat> parseFrameFormat(std::string_view name)
{
    for (const FrameFormatInfo& info : kFrameFormats)
        if (name == info.name)
            return info.format;
    return std::nullopt;
}

FrameStats decodeFrameStats(std::span<const std::uint32_t> words, int k)
{
    FrameStats stats;
    stats.preExposure = k;
    if (words.size() < hd::kFrameStatsWords)
        return stats;
    stats.clippedPixels = words[hd::kFrameStatsClipped];
    stats.peak = std::bit_cast<float>(words[hd::kFrameStatsPeak]);
    return stats;
}

void unexposePixels(std::span<float> rgba, int k)
{
    if (k == 0)
        return;
    const float scale = std::ldexp(1.0f, -k);
    for (std::size_t i = 0; i + 3 < rgba.size(); i += 4)
        for (std::size_t c = 0; c < 3; ++c)
            rgba[i + c] *= scale;
}

std::optional<int> preExposureFor(double peak)
{
    if (!(peak > 0.0))  // black, or NaN
        return std::nullopt;
    if (std::isinf(peak))
        return hd::kMinPreExposure;
    // floor(log2(65504 / peak)) - headroom; frexp is exact, so the floor is too, also where the ratio
    // is a power of two.
    int exponent = 0;
    std::frexp(double(hd::kHalfFloatMax) / peak, &exponent);  // the ratio is m 2^e, m in [0.5, 1)
    const int k = exponent - 1 - PreExposureControl::kTargetHeadroomEv;
    return std::clamp(k, hd::kMinPreExposure, hd::kMaxPreExposure);
}

int initialPreExposure(const Scene& scene)
{
    const auto largest = [](glm::vec3 c) { return std::max(c.x, std::max(c.y, c.z)); };
    float peak = scene.sun.elevationDegrees > 0.0f ? scene.sun.discLuminance() * largest(scene.sun.color) : 0.0f;
    for (const Material& m : scene.materials)
        peak = std::max(peak, largest(m.emissionColor * m.emissionLuminance));
    return std::min(0, preExposureFor(double(peak)).value_or(0));
}

PreExposureControl::PreExposureControl(int initial) : mK(std::clamp(initial, hd::kMinPreExposure, hd::kMaxPreExposure))
{
}

bool PreExposureControl::observe(const FrameStats& stats)
{
    const int before = mK;
    // The target t puts the peak 2 to 3 EV below 65504, so the headroom at k is t - k + 2 to 3 EV:
    // below kDownBelowEv exactly when k > t + kTargetHeadroomEv - kDownBelowEv, at least
    // kRaiseFromEv exactly when t >= k + kRaiseFromEv - kTargetHeadroomEv.
    const std::optional<int> target = preExposureFor(double(stats.peak));
    const bool clipsUnexplained =
        stats.clippedPixels > 0 && (!target || *target + kTargetHeadroomEv > stats.preExposure);
    if (target && !mMeasured) {
        mK = *target;  // the first measurement replaces the scene's guess
        mMeasured = true;
        mRaiseRun = 0;
    } else if (target && mK > *target + kTargetHeadroomEv - kDownBelowEv) {
        mK = *target;  // down at once: the peak is within 1 EV of 65504, or clips
        mRaiseRun = 0;
    } else if (clipsUnexplained) {
        // Pixels clipped that the peak does not explain (a fragment whose peak was not recorded).
        mK = std::min(mK, std::max(stats.preExposure - kClipStepEv, hd::kMinPreExposure));
        mRaiseRun = 0;
    } else if (target && *target >= mK + kRaiseFromEv - kTargetHeadroomEv) {
        mRaiseTarget = mRaiseRun == 0 ? *target : std::min(mRaiseTarget, *target);
        if (++mRaiseRun >= kRaiseAfterSamples) {
            mK = mRaiseTarget;
            mRaiseRun = 0;
        }
    } else {
        mRaiseRun = 0;  // black frames, and peaks within the band, keep k
    }
    if (mK != before)
        ++mChanges;
    return mK != before;
}

}  // namespace scene
