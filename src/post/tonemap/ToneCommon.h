// ToneCommon.h: small pieces the tone operators share: an asynchronous readback of an operator's
// state words (status line and markers, frames late, never stalling), the ImGui help marker and the
// display-curve widgets.
#pragma once

#include "gl/Buffer.h"
#include "post/Parameter.h"
#include "post/tonemap/ToneSettings.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace post {

/// A ring of small buffers: capture() copies words of a GPU buffer into the next slot and fences it;
/// poll() keeps the newest slot whose fence has signalled (glClientWaitSync with a zero timeout) and
/// never waits. When every slot is in flight the capture is skipped.
class StateReadback
{
public:
    static constexpr int kSlots = 4;

    StateReadback(std::string_view label, std::size_t bytes);
    ~StateReadback();
    StateReadback(const StateReadback&) = delete;
    StateReadback& operator=(const StateReadback&) = delete;

    void capture(const gl::Buffer& source, std::size_t offsetBytes = 0);
    /// True when newer data arrived.
    bool poll();
    bool hasData() const { return !mLatest.empty(); }
    /// The newest completed copy (floats; empty until one arrived).
    const std::vector<float>& latest() const { return mLatest; }

private:
    struct Slot
    {
        gl::Buffer buffer;
        GLsync fence = nullptr;
        std::uint64_t sequence = 0;
    };
    std::array<Slot, kSlots> mSlots;
    std::size_t mBytes = 0;
    std::uint64_t mSequence = 0;
    std::uint64_t mLatestSequence = 0;
    int mNext = 0;
    std::vector<float> mLatest;
};

/// "(?)" with a tooltip, placed on the same line as the previous widget.
void helpMarker(const char* text);

/// Widgets for a display curve; true on change.
bool displayCurveUi(DisplayCurveSettings& settings);
/// The display-curve keys "<prefix>.display_curve" and "<prefix>.reinhard_white", bound to `settings`.
void appendDisplayCurveParameters(std::vector<Parameter>& out,
                                  const std::string& prefix,
                                  DisplayCurveSettings& settings);

/// Text like "+3.2" for an EV value.
std::string formatEv(double ev);

}  // namespace post
