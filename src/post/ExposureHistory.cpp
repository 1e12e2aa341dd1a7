#include "post/ExposureHistory.h"

#include <algorithm>
#include <cmath>

namespace post {

namespace {

/// Calls `visit(rate)` for every pair of consecutive frames of one shot that both have a key value.
template <typename Visit>
void forEachRate(const std::deque<ExposureHistory::Frame>& frames, Visit visit)
{
    for (std::size_t i = 1; i < frames.size(); ++i) {
        const ExposureHistory::Frame& a = frames[i - 1];
        const ExposureHistory::Frame& b = frames[i];
        const double dt = b.timeSeconds - a.timeSeconds;
        if (b.frameIndex != a.frameIndex + 1 || !a.keyEv || !b.keyEv || !(dt > 0.0) || b.cut)
            continue;
        visit((double(*b.keyEv) - double(*a.keyEv)) / dt);
    }
}

}  // namespace

ExposureHistory::ExposureHistory(double windowSeconds, std::size_t maxFrames)
    : mWindowSeconds(windowSeconds), mMaxFrames(std::max<std::size_t>(maxFrames, 2))
{
}

void ExposureHistory::addFrame(std::uint64_t frameIndex, double timeSeconds, double frameMs)
{
    if (!mFrames.empty() && frameIndex <= mFrames.back().frameIndex)
        mFrames.clear();  // a rewound camera path or a new run: the series starts over
    mFrames.push_back({frameIndex, timeSeconds, frameMs, std::nullopt});
    trim();
}

ExposureHistory::Frame* ExposureHistory::find(std::uint64_t frameIndex)
{
    if (mFrames.empty() || frameIndex < mFrames.front().frameIndex || frameIndex > mFrames.back().frameIndex)
        return nullptr;
    const auto it = std::lower_bound(mFrames.begin(), mFrames.end(), frameIndex,
                                     [](const Frame& f, std::uint64_t index) { return f.frameIndex < index; });
    return it != mFrames.end() && it->frameIndex == frameIndex ? &*it : nullptr;
}

void ExposureHistory::setKeyValue(std::uint64_t frameIndex, float ev)
{
    if (Frame* frame = find(frameIndex))
        frame->keyEv = ev;
}

void ExposureHistory::markCut(std::uint64_t frameIndex)
{
    if (Frame* frame = find(frameIndex))
        frame->cut = true;
}

std::size_t ExposureHistory::cutCount() const
{
    return std::size_t(std::count_if(mFrames.begin(), mFrames.end(), [](const Frame& f) { return f.cut; }));
}

void ExposureHistory::setWindowSeconds(double seconds)
{
    mWindowSeconds = seconds;
    trim();
}

void ExposureHistory::trim()
{
    while (mFrames.size() > mMaxFrames)
        mFrames.pop_front();
    while (mFrames.size() > 1 && mFrames.back().timeSeconds - mFrames.front().timeSeconds > mWindowSeconds)
        mFrames.pop_front();
}

std::optional<double> ExposureHistory::flickerEvPerSecond(const std::deque<Frame>& frames)
{
    double sumSquares = 0.0;
    std::size_t pairs = 0;
    forEachRate(frames, [&](double rate) {
        sumSquares += rate * rate;
        ++pairs;
    });
    if (pairs == 0)
        return std::nullopt;
    return std::sqrt(sumSquares / double(pairs));
}

std::size_t ExposureHistory::flickerPairs(const std::deque<Frame>& frames)
{
    std::size_t pairs = 0;
    forEachRate(frames, [&](double) { ++pairs; });
    return pairs;
}

}  // namespace post
