// ExposureHistory.h: the tone operator's key value and the frame time over the last N seconds, and the
// flicker figure of that series (pure CPU; the exposure plot, --capture and the headless report).
//
// Frames are added as they are rendered (frame index, time, frame ms); the key value of a frame
// (ToneOperator::takeKeyValues, EV) arrives a few frames later and is attached to its frame by index,
// so the series never depends on when a readback completed.
//
// Flicker figure (EV/s): the RMS of the rate of change of the key value between consecutive frames,
//   flicker = sqrt( mean_i ( (ev[i+1] - ev[i]) / (t[i+1] - t[i]) )^2 ),
// over every pair of frames i, i+1 (consecutive frame indices, t[i+1] > t[i]) that both have a key
// value, within shots: a pair whose second frame is a cut (markCut: the operator found one there,
// TonePercentile.h) is left out, so a cut's jump, and the ramp across it, do not count as flicker. Why
// a rate and not the per-frame step: a steady ramp of r EV/s reads r at any frame rate, so
// window runs at different rates and headless runs (fixed 1/60 s) compare; a constant key value reads
// 0. Limits: a frame whose key value never arrived (readback skipped) breaks its two pairs, which are
// left out; in a window run t is the wall clock, so the figure also follows frame-time jitter.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <vector>

namespace post {

class ExposureHistory
{
public:
    struct Frame
    {
        std::uint64_t frameIndex = 0;
        double timeSeconds = 0.0;
        double frameMs = 0.0;
        std::optional<float> keyEv;  ///< empty until the operator's readback for this frame arrived
        bool cut = false;            ///< a cut: the first frame of a new shot
    };

    /// Keeps frames whose time is within `windowSeconds` of the newest, and at most `maxFrames`.
    explicit ExposureHistory(double windowSeconds = 10.0, std::size_t maxFrames = 1u << 16);

    /// A rendered frame; frame indices must increase (an older or equal one clears the history first).
    void addFrame(std::uint64_t frameIndex, double timeSeconds, double frameMs);
    /// The key value of a frame added before; ignored when that frame is no longer kept.
    void setKeyValue(std::uint64_t frameIndex, float ev);
    /// Marks a frame added before as the first of a new shot; ignored when it is no longer kept.
    void markCut(std::uint64_t frameIndex);
    /// Cuts among the kept frames.
    std::size_t cutCount() const;
    void clear() { mFrames.clear(); }

    void setWindowSeconds(double seconds);
    double windowSeconds() const { return mWindowSeconds; }
    const std::deque<Frame>& frames() const { return mFrames; }

    /// The flicker figure of the kept frames (EV/s, definition above), nullopt with no pair.
    std::optional<double> flickerEvPerSecond() const { return flickerEvPerSecond(mFrames); }
    /// Pairs (consecutive frames with key values) the figure is taken over.
    std::size_t flickerPairs() const { return flickerPairs(mFrames); }

    static std::optional<double> flickerEvPerSecond(const std::deque<Frame>& frames);
    static std::size_t flickerPairs(const std::deque<Frame>& frames);

private:
    void trim();
    Frame* find(std::uint64_t frameIndex);

    double mWindowSeconds;
    std::size_t mMaxFrames;
    std::deque<Frame> mFrames;
};

}  // namespace post
