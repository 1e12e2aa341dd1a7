// HistogramReadback.h: asynchronous readback of the histogram, params, curve and display histogram
// for the histogram view, without ever stalling the frame.
//
// Each frame the GPU copies the buffers into one slot of a ring (glCopyNamedBufferSubData) and a
// fence is inserted; poll() checks the older slots' fences with glClientWaitSync(fence, 0, 0) (never
// waits) and reads back only slots whose fence has signalled, frames later. When every slot is still
// in flight the frame is skipped instead of waiting.
#pragma once

#include "gl/Fence.h"
#include "post/PostPipeline.h"

#include <array>
#include <optional>

namespace post {

struct ReadbackSources
{
    const gl::Buffer& histogram;    ///< uint[hd::kHistogramBufferWords]
    const gl::Buffer& params;       ///< uint[hd::kHistogramParamsWords]
    const gl::Buffer& curve;        ///< float[hd::kCurveBufferWords]; the header and first channel are copied
    const gl::Buffer& displayBins;  ///< uint[displayBinCount]
    std::uint32_t displayBinCount = 64;
};

class HistogramReadback
{
public:
    static constexpr int kRingSize = 4;

    HistogramReadback();
    ~HistogramReadback();
    HistogramReadback(const HistogramReadback&) = delete;
    HistogramReadback& operator=(const HistogramReadback&) = delete;

    /// Queues a GPU copy of `sources` for frame `frame`; returns false when every slot is busy.
    bool enqueue(const ReadbackSources& sources, std::uint64_t frame, bool countersValid);
    /// The newest snapshot whose copy has completed since the last call, if any; never waits.
    std::optional<HistogramSnapshot> poll();
    /// Number of copies queued and not read yet.
    int pending() const;

private:
    struct Slot
    {
        gl::Buffer buffer;
        gl::Fence fence;
        std::uint64_t frame = 0;
        std::uint64_t sequence = 0;
        bool countersValid = true;
        std::uint32_t displayBinCount = 0;
    };
    HistogramSnapshot decode(const Slot& slot) const;

    std::array<Slot, kRingSize> mSlots;
    std::uint64_t mSequence = 0;
};

}  // namespace post
