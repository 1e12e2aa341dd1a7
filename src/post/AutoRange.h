// AutoRange.h: the histogram params buffer (range, bins, policy, size: hd::kParam* words) and the
// automatic range, found on the GPU so that it never needs a CPU readback.
//
// Automatic range: a compute reduction of the finite positive luminance's min and max (workgroup
// reduction in shared memory, then uint atomicMin/atomicMax on the float bits, which order like the
// values for positive floats), then a one-thread pass that takes log2, widens degenerate ranges
// (min == max) to kMinimumSpan, keeps the previous range on an empty frame, smooths exponentially
// over time (blend 1 - exp(-speed * dt)) and writes the params buffer. On footage, a frame whose own
// range moved more than `cutResetEv` (the cut threshold) jumps to its own range instead of blending
// (AutoRangeFinish.comp), so a cut is binned unclamped and measured on the frame itself.
#pragma once

#include "post/PostTypes.h"

#include <array>

namespace post {

/// A params buffer (uint[hd::kHistogramParamsWords]) labelled for debuggers.
gl::Buffer createHistogramParamsBuffer(std::string_view label);
/// Every word of a params buffer: range, bin count, policy, size and the luminance definition.
std::array<std::uint32_t, hd::kHistogramParamsWords> histogramParamWords(float logMin,
                                                                         float logMax,
                                                                         const HistogramSpec& spec,
                                                                         glm::ivec2 size);
/// Writes every word (manual range).
void writeHistogramParams(gl::Buffer& params, float logMin, float logMax, const HistogramSpec& spec, glm::ivec2 size);
/// Writes every word but the range (bin count, policy, size, luminance), leaving the range the GPU computed.
void writeHistogramShape(gl::Buffer& params, const HistogramSpec& spec, glm::ivec2 size);

class AutoRange
{
public:
    static constexpr float kMinimumSpan = 0.125f;  ///< EV; narrower (uniform) frames are widened to this

    /// Reduces `image` (luminance under the weights `params` holds: writeHistogramShape first) and
    /// writes the smoothed range into `params`. `speed` is 1/s (0: no smoothing);
    /// `reset` jumps to the new range. `fallbackMin/Max` is used when there is no range yet and the
    /// frame has no finite positive pixel. `cutResetEv` > 0: a frame whose range moved more than this
    /// (either end, from the last frame's or beyond the smoothed range) jumps to its own range.
    void update(PassContext& ctx,
                const ImageInput& image,
                gl::Buffer& params,
                double dtSeconds,
                float speed,
                bool reset,
                float fallbackMin,
                float fallbackMax,
                float cutResetEv = 0.0f);
    /// The same smoothing from a min/max already reduced elsewhere: the float bits of the least and
    /// largest finite positive luminance at `offsetBytes` of `rangeBits` (0 and +Inf bits: an empty frame).
    void updateFromBits(PassContext& ctx,
                        const gl::Buffer& rangeBits,
                        std::size_t offsetBytes,
                        gl::Buffer& params,
                        double dtSeconds,
                        float speed,
                        bool reset,
                        float fallbackMin,
                        float fallbackMax);

private:
    void ensurePrograms(PassContext& ctx);
    /// Smooths mRangeBits into `params` (AutoRangeFinish.comp).
    void finish(gl::Buffer& params,
                double dtSeconds,
                float speed,
                bool reset,
                float fallbackMin,
                float fallbackMax,
                float cutResetEv);

    gl::Program mReduce;
    gl::Program mFinish;
    gl::Buffer mRangeBits;  ///< uint[4]: float bits of min L and max L, then of the last frame's log2 range
};

}  // namespace post
