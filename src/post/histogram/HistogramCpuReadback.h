// HistogramCpuReadback.h: cpu-readback, the CPU baseline of every paper.
//
// Papers: Kubias et al. 2007 and Scheuermann & Hensley 2007 compare against a CPU loop over a
// read-back (often downsampled, as in Carucci's Black & White 2) frame. The fixed-function
// glGetHistogram of the old ARB imaging subset, which did the same inside the driver, does not
// exist in a core profile.
// Here: a compute pass writes the luminance into an R32F texture; glGetTextureImage copies it into
// a pixel buffer object (GL_PIXEL_PACK_BUFFER) together with the params words, a fence marks the
// copy, and frames later, once the fence has signalled, the buffer is mapped and binned on the
// CPU with hdBinOf; the counts are uploaded into the histogram buffer every frame until a newer
// result arrives. The per-frame path never waits: the histogram is a few frames old and the
// status line shows that latency and the CPU binning cost. setSynchronous(true) (tests, compare)
// waits for the current frame's readback instead.
// Limits: latency of a few frames; CPU time proportional to the pixel count; PCIe traffic of 4
// bytes per pixel. Use the pipeline's downsampling for large frames.
#pragma once

#include "gl/Fence.h"
#include "post/histogram/HistogramMethod.h"

#include <array>
#include <cstdint>
#include <vector>

namespace post {

class HistogramCpuReadback : public HistogramMethod, public ReadbackLatency
{
public:
    static constexpr std::string_view kId = "cpu-readback";
    static constexpr std::size_t kSlots = 3;  ///< readbacks in flight at most

    HistogramCpuReadback();
    ~HistogramCpuReadback() override;

    std::string_view id() const override { return kId; }
    std::string_view label() const override { return "CPU: async readback + CPU loop"; }
    std::string_view description() const override;
    Backend backend() const override { return Backend::Cpu; }
    std::string limits() const override { return "frames of latency; CPU time grows with the pixel count"; }

    void build(PassContext& ctx,
               const ImageInput& image,
               const HistogramSpec& spec,
               const HistogramTargets& targets) override;

    bool ui() override;
    ParameterList parameters() override;
    std::string status() const override;

    /// Waits for each build's own readback (tests and the compare tool); off in the per-frame path.
    void setSynchronous(bool synchronous) override { mSynchronous = synchronous; }
    ReadbackLatency* readbackLatency() override { return this; }
    bool synchronous() const { return mSynchronous; }

private:
    struct Slot
    {
        gl::Buffer buffer;  ///< params words, then width * height floats of luminance
        gl::Fence fence;    ///< pending while the slot's copy is in flight
        std::uint64_t build = 0;
        glm::ivec2 size{0};
    };
    void ensureResources(PassContext& ctx, glm::ivec2 size);
    void issueReadback(PassContext& ctx, const ImageInput& image, const HistogramTargets& targets, Slot& slot);
    void consume(Slot& slot);
    void dropPending();

    bool mSynchronous = false;
    gl::Program mLuminanceProgram;
    gl::Texture mLuminance;
    std::array<Slot, kSlots> mSlots;
    std::uint64_t mBuildCount = 0;

    // The newest result (histogram layout: bins of its own bin count, then the counters).
    std::vector<std::uint32_t> mBins;
    std::array<std::uint32_t, hd::kCounterCount> mCounters{};
    bool mHaveResult = false;
    std::uint64_t mLatencyBuilds = 0;
    double mBinningMs = 0.0;
    std::uint64_t mSkippedReadbacks = 0;
};

}  // namespace post
