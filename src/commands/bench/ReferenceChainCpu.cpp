// ReferenceChainCpu.cpp: see ReferenceChainCpu.h; each step mirrors its shader line for line.
#include "commands/bench/ReferenceChainCpu.h"

#include <algorithm>
#include <cmath>

namespace app {

namespace {

constexpr float kKey = 0.18f;  // ReferenceCurve.comp's kKey

float encodeSrgb(float linear)
{
    if (!(linear > 0.0f))
        return 0.0f;
    linear = std::min(linear, 1.0f);
    return linear <= 0.0031308f ? 12.92f * linear : 1.055f * std::pow(linear, 1.0f / 2.4f) - 0.055f;
}

std::uint32_t packUnorm(float value)
{
    return std::uint32_t(std::lround(std::clamp(value, 0.0f, 1.0f) * 255.0f));
}

}  // namespace

int referenceMedianBin(const std::vector<std::uint32_t>& bins)
{
    std::uint64_t total = 0;
    for (std::uint32_t count : bins)
        total += count;
    std::uint64_t running = 0;
    for (std::size_t b = 0; b < bins.size() && total > 0; ++b) {
        running += bins[b];
        if (running >= total - running)
            return int(b);
    }
    return -1;
}

std::vector<float> referenceCurveCpu(const std::vector<std::uint32_t>& bins, const ReferenceChainParams& params)
{
    const std::uint32_t count = std::clamp<std::uint32_t>(params.bins, 1u, hd::kMaxHistogramBins);
    std::vector<std::uint32_t> used(bins.begin(), bins.begin() + std::min<std::size_t>(bins.size(), count));
    used.resize(count, 0u);
    const int median = referenceMedianBin(used);
    const float width = (params.logMax - params.logMin) / float(count);
    const float logMedian = median >= 0 ? params.logMin + (float(median) + 0.5f) * width : 0.0f;
    std::vector<float> curve(hd::kCurveHeaderWords + count, 0.0f);
    curve[hd::kCurveLogMin] = params.logMin;
    curve[hd::kCurveLogMax] = params.logMax;
    curve[hd::kCurveSampleCount] = float(count);
    curve[hd::kCurveChannels] = 1.0f;
    curve[hd::kCurveMode] = hd::kCurveModeLut;
    for (std::uint32_t i = 0; i < count; ++i) {
        const float x = kKey * std::exp2(params.logMin + (float(i) + 0.5f) * width - logMedian);
        curve[hd::kCurveHeaderWords + i] = x / (1.0f + x);
    }
    return curve;
}

std::uint32_t referenceApplyPixelCpu(float r,
                                     float g,
                                     float b,
                                     const std::vector<float>& curve,
                                     const ReferenceChainParams& params)
{
    const std::uint32_t opaqueBlack = 0xFF000000u;
    const float Lw = params.weights.r * r + params.weights.g * g + params.weights.b * b;
    if (!(Lw > 0.0f) || std::isinf(Lw) || curve.size() <= hd::kCurveHeaderWords)
        return opaqueBlack;
    const int samples =
        std::clamp(int(curve[hd::kCurveSampleCount]), 1,
                   int(std::min<std::size_t>(hd::kMaxCurveSamples, curve.size() - hd::kCurveHeaderWords)));
    const float logMin = curve[hd::kCurveLogMin];
    const float span = curve[hd::kCurveLogMax] - logMin;
    const float samplesPerEv = float(samples) / (span > 0.0f ? span : 1.0f);
    const float position = std::clamp((std::log2(Lw) - logMin) * samplesPerEv - 0.5f, 0.0f, float(samples - 1));
    const int below = int(position);
    const int above = std::min(below + 1, samples - 1);
    const float low = curve[hd::kCurveHeaderWords + std::size_t(below)];
    const float high = curve[hd::kCurveHeaderWords + std::size_t(above)];
    const float Ld = low + (high - low) * (position - float(below));
    const float scale = Ld * params.cdPerUnit / Lw;
    return packUnorm(encodeSrgb(r * scale)) | packUnorm(encodeSrgb(g * scale)) << 8 |
           packUnorm(encodeSrgb(b * scale)) << 16 | opaqueBlack;
}

}  // namespace app
