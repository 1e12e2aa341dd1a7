// FramePacer.h: keeps the CPU at most kFramesInFlight frames ahead of the GPU with fence syncs, as
// a swap chain does for a window. Headless runs have no swap chain, so without it the CPU queues
// hundreds of frames, GPU timer results arrive too late for the profiler's ring and the timings of
// most frames are lost. It waits only for work kFramesInFlight frames old, never for the current one.
#pragma once

#include "gl/Fence.h"

#include <array>

namespace gl {

class FramePacer
{
public:
    static constexpr int kFramesInFlight = 2;

    /// Waits until the GPU has finished the frame begun kFramesInFlight frames ago.
    void beginFrame();
    /// Marks the end of this frame's GL commands.
    void endFrame();

private:
    std::array<Fence, kFramesInFlight> mFences;
    int mNext = 0;
};

}  // namespace gl
