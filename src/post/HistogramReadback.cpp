#include "post/HistogramReadback.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <string>
#include <vector>

namespace post {

namespace {
// Slot layout in 32-bit words.
constexpr std::size_t kHistogramAt = 0;
constexpr std::size_t kParamsAt = kHistogramAt + hd::kHistogramBufferWords;
constexpr std::size_t kCurveAt = kParamsAt + hd::kHistogramParamsWords;
constexpr std::size_t kCurveWords = hd::kCurveHeaderWords + hd::kMaxCurveSamples;
constexpr std::size_t kDisplayAt = kCurveAt + kCurveWords;
constexpr std::size_t kMaxDisplayBins = 256;
constexpr std::size_t kSlotWords = kDisplayAt + kMaxDisplayBins;
}  // namespace

HistogramReadback::HistogramReadback() : mRing("histogram-view.readback", kSlotWords)
{
}

HistogramReadback::~HistogramReadback() = default;

int HistogramReadback::pending() const
{
    return mRing.pending();
}

bool HistogramReadback::enqueue(const ReadbackSources& sources, std::uint64_t frame, bool countersValid)
{
    const std::size_t displayWords = std::min<std::size_t>(sources.displayBinCount, kMaxDisplayBins);
    return mRing.enqueue({{sources.histogram, hd::kHistogramBufferWords, kHistogramAt},
                          {sources.params, hd::kHistogramParamsWords, kParamsAt},
                          {sources.curve, kCurveWords, kCurveAt},
                          {sources.displayBins, displayWords, kDisplayAt}},
                         frame, {countersValid ? 1u : 0u, std::uint32_t(displayWords), 0u, 0u});
}

std::optional<HistogramSnapshot> HistogramReadback::poll()
{
    std::optional<AsyncReadback::Result> slot = mRing.poll();
    if (!slot)
        return std::nullopt;
    return decode(std::move(*slot));
}

HistogramSnapshot HistogramReadback::decode(AsyncReadback::Result&& slot)
{
    std::vector<std::uint32_t> words = std::move(slot.words);
    words.resize(kSlotWords);  // the copies end at the last display bin; the layout is fixed
    const bool countersValid = slot.tag[0] != 0;
    const std::uint32_t displayBinCount = slot.tag[1];

    HistogramSnapshot snapshot;
    snapshot.frame = slot.frame;
    snapshot.binCount = std::clamp(words[kParamsAt + hd::kParamBinCount], 1u, hd::kMaxHistogramBins);
    snapshot.logMin = std::bit_cast<float>(words[kParamsAt + hd::kParamLogMin]);
    snapshot.logMax = std::bit_cast<float>(words[kParamsAt + hd::kParamLogMax]);
    snapshot.bins.assign(words.begin() + kHistogramAt, words.begin() + kHistogramAt + snapshot.binCount);
    for (std::size_t i = 0; i < hd::kCounterCount; ++i)
        snapshot.counters[i] = words[kHistogramAt + hd::kHistogramCountersOffset + i];
    snapshot.countersValid = countersValid;
    snapshot.curveLogMin = std::bit_cast<float>(words[kCurveAt + hd::kCurveLogMin]);
    snapshot.curveLogMax = std::bit_cast<float>(words[kCurveAt + hd::kCurveLogMax]);
    const float mode = std::bit_cast<float>(words[kCurveAt + hd::kCurveMode]);
    const float sampleCount = std::bit_cast<float>(words[kCurveAt + hd::kCurveSampleCount]);
    if (mode == hd::kCurveModeLut && sampleCount >= 1.0f) {
        std::size_t samples = std::min<std::size_t>(std::size_t(sampleCount), hd::kMaxCurveSamples);
        snapshot.curve.resize(samples);
        for (std::size_t i = 0; i < samples; ++i)
            snapshot.curve[i] = std::bit_cast<float>(words[kCurveAt + hd::kCurveHeaderWords + i]);
    } else if (mode == hd::kCurveModeLinearScale) {
        // Sample the straight line over the histogram range so the view can draw it like a LUT.
        const float scale = std::bit_cast<float>(words[kCurveAt + hd::kCurveScale]);
        constexpr std::size_t kLineSamples = 64;
        snapshot.curveLogMin = snapshot.logMin;
        snapshot.curveLogMax = snapshot.logMax;
        snapshot.curve.resize(kLineSamples);
        for (std::size_t i = 0; i < kLineSamples; ++i) {
            float logL = snapshot.logMin + (float(i) + 0.5f) * (snapshot.logMax - snapshot.logMin) / kLineSamples;
            snapshot.curve[i] = std::min(1.0f, scale * std::exp2(logL));
        }
    }
    snapshot.displayBins.assign(words.begin() + kDisplayAt, words.begin() + kDisplayAt + displayBinCount);
    return snapshot;
}

}  // namespace post
