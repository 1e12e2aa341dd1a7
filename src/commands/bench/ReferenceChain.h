// ReferenceChain.h: the achievable reference of `hdrlab bench pipeline` (issue 25): beside the memory
// floors, a minimal chain timed on the same frame, so each stage of the pipeline can be read against
// an implementation that simply streams, on the GPU at hand:
//   copy       the frame texture into a linear storage buffer (shaders/bench/ReferenceCopy.comp);
//              timed, but not part of the chain: it stands for a renderer that writes its frame linearly;
//   histogram  the global bins cleared, then one dispatch: a shared bin array per workgroup sized by
//              the bin count, shared atomics, hardware log2 (not bit-exact), 16-byte loads
//              (ReferenceHistogram.comp);
//   curve      one workgroup: the scan, the 50th percentile, a Reinhard LUT (ReferenceCurve.comp);
//   apply      the LUT looked up per pixel, sRGB-encoded RGBA8 written to a linear buffer
//              (ReferenceApply.comp);
//   chain      histogram + curve + apply, timed as one span.
// GL compute here (GL_TIMESTAMP pairs around each stage, the runs queued back to back after
// untimed warm-up runs, one wait at the end, as `bench histogram-factors` times its variants; on a
// software renderer the CPU clock around glFinish); CUDA, where the backend is built and a device is
// present, runs the same three kernels on a device copy of the linear frame, timed with CUDA events
// (commands/bench/ReferenceChainCuda.cpp, cuda/ReferenceChain.h).
// Limits: the frame must be RGBA16F or RGBA32F; the histogram is exact only away from bin edges
// (tests/app/ReferenceChainGlTest.cpp states the tolerance); the curve is a stand-in for "a curve in
// one dispatch", not one of the pipeline's operators.
#pragma once

#include "gl/Buffer.h"
#include "gl/Program.h"
#include "gl/Texture.h"

#include <glm/vec2.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace app {

/// The launch shape the reference shaders are built with (GROUP_SIZE, ITEMS) and the histogram's
/// persistent grid (at most this many workgroups; fewer where one pass over the frame needs fewer).
inline constexpr std::uint32_t kReferenceGroupSize = 256;
inline constexpr std::uint32_t kReferenceHistogramItems = 4;
inline constexpr std::uint32_t kReferenceApplyItems = 2;
inline constexpr std::uint32_t kReferenceHistogramMaxGroups = 1024;

/// Bytes of the linear frame: whole 16-byte elements (two RGBA16F pixels, or one RGBA32F pixel).
std::size_t referenceFrameBytes(glm::ivec2 size, bool halfFrame);
/// Workgroups (CUDA: blocks) of the histogram and of the apply for a frame of `pixels`.
std::uint32_t referenceHistogramGroups(std::uint64_t pixels, bool halfFrame);
std::uint32_t referenceApplyGroups(std::uint64_t pixels, bool halfFrame);

/// Every timed run of one API's reference chain, microseconds per stage.
struct ReferenceTimes
{
    std::string api;     ///< "gl" or "cuda"
    std::string source;  ///< gl-timer-query, cuda-event or cpu-fallback (the bench's time sources)
    std::vector<double> copyUs, histogramUs, curveUs, applyUs, chainUs;
    std::string unavailableReason;  ///< why there are no runs

    bool measured() const { return !chainUs.empty(); }
    /// The median of a stage: "copy", "histogram", "curve", "apply" or "chain"; 0 for any other.
    double medianUs(const std::string& stage) const;
};

class GlReferenceChain
{
public:
    explicit GlReferenceChain(const gl::ShaderLibrary& shaders);

    /// Sizes the buffers for a frame of `size` stored as `internalFormat` (GL_RGBA16F or GL_RGBA32F,
    /// else std::invalid_argument) and builds the programs for `bins` (1..hd::kMaxHistogramBins).
    void prepare(glm::ivec2 size, unsigned internalFormat, std::uint32_t bins);

    // The stages, one dispatch each (the histogram with its clear), each followed by a barrier. The
    // params buffer has the pipeline's layout (hd::kParam*): range, bin count, policy, weights.
    void copyFrame(const gl::Texture& frame);
    void histogram(const gl::Buffer& params);
    void curve(const gl::Buffer& params);
    void apply(const gl::Buffer& params);

    /// `runs` timed runs of copy then chain, after `warmup` untimed ones: GPU timestamps where
    /// `gpuTimers`, else the CPU clock around glFinish (software GL). Waits for the GPU at the end.
    ReferenceTimes time(const gl::Texture& frame, const gl::Buffer& params, int runs, int warmup, bool gpuTimers);

    glm::ivec2 size() const { return mSize; }
    bool halfFrame() const { return mHalfFrame; }
    const gl::Buffer& linearFrame() const { return mFrame; }          ///< the copy (referenceFrameBytes)
    const gl::Buffer& histogramBuffer() const { return mHistogram; }  ///< hd::kHistogramBufferWords layout
    const gl::Buffer& curveBuffer() const { return mCurve; }          ///< hd::kCurve* layout
    const gl::Buffer& displayBuffer() const { return mDisplay; }      ///< packUnorm4x8 per pixel, row-major

private:
    const gl::ShaderLibrary& mShaders;
    glm::ivec2 mSize{0};
    bool mHalfFrame = true;
    std::uint32_t mBins = 0;
    std::map<std::string, gl::Program> mPrograms;  ///< by name and defines, built once
    const gl::Program* mCopy = nullptr;
    const gl::Program* mHistogramProgram = nullptr;
    const gl::Program* mCurveProgram = nullptr;
    const gl::Program* mApply = nullptr;
    gl::Buffer mFrame, mHistogram, mCurve, mDisplay;

    const gl::Program& program(const std::string& path, const gl::ShaderDefines& defines);
};

/// The CUDA reference chain on a device copy of `linearFrame` (GlReferenceChain::linearFrame's bytes,
/// `pixels` pixels) with the histogram params `params` (hd::kHistogramParamsWords words): `runs` timed
/// runs after `warmup` untimed ones; each run's copy is a device-to-device copy of the uploaded frame
/// into the buffer the chain reads. Never throws: without the CUDA backend
/// (commands/CudaCommandsFallback.cpp) or on a CUDA error, only unavailableReason is set.
ReferenceTimes measureCudaReferenceChain(const std::vector<std::uint8_t>& linearFrame,
                                         std::uint64_t pixels,
                                         bool halfFrame,
                                         const std::vector<std::uint32_t>& params,
                                         int runs,
                                         int warmup);

}  // namespace app
