// HistogramReadback.h: asynchronous readback of the histogram, params, curve and display histogram
// for the histogram view, without ever stalling the frame.
//
// Each frame the GPU copies the buffers into one slot of an AsyncReadback ring; poll() reads back
// only a slot whose fence has signalled, frames later, and decodes it. When every slot is still in
// flight the frame is skipped instead of waiting.
#pragma once

#include "post/AsyncReadback.h"
#include "post/PipelineSettings.h"

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
    static constexpr int kRingSize = AsyncReadback::kRingSize;

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
    static HistogramSnapshot decode(AsyncReadback::Result&& slot);

    AsyncReadback mRing;
};

}  // namespace post
