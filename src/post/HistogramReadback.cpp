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
constexpr std::size_t kWord = sizeof(std::uint32_t);
}  // namespace

HistogramReadback::HistogramReadback()
{
    for (int i = 0; i < kRingSize; ++i)
        mSlots[std::size_t(i)].buffer = gl::Buffer("histogram-view.readback." + std::to_string(i), kSlotWords * kWord);
}

HistogramReadback::~HistogramReadback() = default;

int HistogramReadback::pending() const
{
    return int(std::count_if(mSlots.begin(), mSlots.end(), [](const Slot& slot) { return slot.fence.pending(); }));
}

bool HistogramReadback::enqueue(const ReadbackSources& sources, std::uint64_t frame, bool countersValid)
{
    auto free = std::find_if(mSlots.begin(), mSlots.end(), [](const Slot& slot) { return !slot.fence.pending(); });
    if (free == mSlots.end())
        return false;
    Slot& slot = *free;
    const std::size_t displayWords = std::min<std::size_t>(sources.displayBinCount, kMaxDisplayBins);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    sources.histogram.copyTo(slot.buffer, 0, kHistogramAt * kWord, hd::kHistogramBufferWords * kWord);
    sources.params.copyTo(slot.buffer, 0, kParamsAt * kWord, hd::kHistogramParamsWords * kWord);
    sources.curve.copyTo(slot.buffer, 0, kCurveAt * kWord, kCurveWords * kWord);
    if (displayWords != 0)
        sources.displayBins.copyTo(slot.buffer, 0, kDisplayAt * kWord, displayWords * kWord);
    slot.fence = gl::Fence::insert();
    slot.frame = frame;
    slot.sequence = ++mSequence;
    slot.countersValid = countersValid;
    slot.displayBinCount = std::uint32_t(displayWords);
    return true;
}

std::optional<HistogramSnapshot> HistogramReadback::poll()
{
    Slot* newest = nullptr;
    for (Slot& slot : mSlots) {
        if (!slot.fence.signalled())
            continue;
        slot.fence.reset();
        if (!newest || slot.sequence > newest->sequence)
            newest = &slot;
    }
    if (!newest)
        return std::nullopt;
    return decode(*newest);
}

HistogramSnapshot HistogramReadback::decode(const Slot& slot) const
{
    std::vector<std::uint32_t> words(kSlotWords);
    // The fence has signalled: this read does not wait for the GPU.
    glGetNamedBufferSubData(slot.buffer.id(), 0, GLsizeiptr(kSlotWords * kWord), words.data());

    HistogramSnapshot snapshot;
    snapshot.frame = slot.frame;
    snapshot.binCount = std::clamp(words[kParamsAt + hd::kParamBinCount], 1u, hd::kMaxHistogramBins);
    snapshot.logMin = std::bit_cast<float>(words[kParamsAt + hd::kParamLogMin]);
    snapshot.logMax = std::bit_cast<float>(words[kParamsAt + hd::kParamLogMax]);
    snapshot.bins.assign(words.begin() + kHistogramAt, words.begin() + kHistogramAt + snapshot.binCount);
    for (std::size_t i = 0; i < hd::kCounterCount; ++i)
        snapshot.counters[i] = words[kHistogramAt + hd::kHistogramCountersOffset + i];
    snapshot.countersValid = slot.countersValid;
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
    snapshot.displayBins.assign(words.begin() + kDisplayAt, words.begin() + kDisplayAt + slot.displayBinCount);
    return snapshot;
}

}  // namespace post
