// ToneCommon.h: small pieces the tone operators share: an asynchronous readback of an operator's
// state words (status line and markers, frames late, never stalling) and the display-curve widgets
// (the help marker the operators draw is post/HelpMarker.h).
#pragma once

#include "gl/Buffer.h"
#include "gl/Fence.h"
#include "post/HelpMarker.h"
#include "post/Parameter.h"
#include "tone/ToneSettings.h"

#include <array>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace post {

/// A ring of small buffers: request() names words of GPU buffers and flush() copies them into the next
/// slot, tagged with the frame index they belong to, and fences it; poll() reads every slot whose fence has signalled
/// (glClientWaitSync with a zero timeout), keeps the newest as latest() and queues each for
/// takeArrived(); it never waits. When every slot is in flight the capture is skipped.
class StateReadback
{
public:
    static constexpr int kSlots = 4;
    static constexpr std::size_t kMaxArrived = 64;  ///< arrivals nobody takes: the oldest are dropped

    /// One source range of a capture; the ranges are copied one after the other into the slot.
    struct Part
    {
        const gl::Buffer& source;
        std::size_t offsetBytes = 0;
        std::size_t bytes = 0;
    };
    /// A completed copy and the frame index given to request().
    struct Arrival
    {
        std::uint64_t frameIndex = 0;
        std::vector<float> words;
    };

    StateReadback(std::string_view label, std::size_t bytes);
    ~StateReadback();
    StateReadback(const StateReadback&) = delete;
    StateReadback& operator=(const StateReadback&) = delete;

    /// The copy to make at flush(), after the frame's other passes (an operator asks while it builds
    /// its curve; the pipeline flushes in its view/readback scope, so the copy and its fence are timed
    /// with the readbacks, not as the curve): the slot's bytes of `source` from `offsetBytes`, or the
    /// parts one after the other (their bytes summing to at most the slot's size). The sources must
    /// live and keep their words until then; a second request before the flush replaces the first.
    void request(const gl::Buffer& source, std::size_t offsetBytes, std::uint64_t frameIndex);
    void request(std::initializer_list<Part> parts, std::uint64_t frameIndex);
    /// Copies the pending request into the next slot and fences it, if there is one.
    void flush();
    /// True when newer data arrived.
    bool poll();
    bool hasData() const { return !mLatest.empty(); }
    /// The newest completed copy (floats; empty until one arrived).
    const std::vector<float>& latest() const { return mLatest; }
    /// Every copy completed since the last call, oldest frame first.
    std::vector<Arrival> takeArrived();

private:
    struct Slot
    {
        gl::Buffer buffer;
        gl::Fence fence;
        std::uint64_t sequence = 0;
        std::uint64_t frameIndex = 0;
    };
    std::vector<Arrival> mArrived;
    std::array<Slot, kSlots> mSlots;
    std::size_t mBytes = 0;
    std::uint64_t mSequence = 0;
    std::uint64_t mLatestSequence = 0;
    int mNext = 0;
    std::vector<float> mLatest;
    std::vector<Part> mRequested;  ///< the pending request's parts (empty: none)
    std::uint64_t mRequestedFrame = 0;

    void captureParts(std::span<const Part> parts, std::uint64_t frameIndex);
};

/// Widgets for a display curve; true on change.
bool displayCurveUi(DisplayCurveSettings& settings);
/// The display-curve keys "<prefix>.display_curve" and "<prefix>.reinhard_white", bound to `settings`.
void appendDisplayCurveParameters(std::vector<Parameter>& out,
                                  const std::string& prefix,
                                  DisplayCurveSettings& settings);

/// Text like "+3.2" for an EV value.
std::string formatEv(double ev);

}  // namespace post
