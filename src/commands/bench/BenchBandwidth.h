// BenchBandwidth.h: the streaming rates behind `hdrlab bench pipeline`'s memory floors
// (commands/bench/BenchFloors.h). Kernels that only read a buffer or only write it, each tried in several
// configurations and timed on the GPU, at the sizes the chain moves (the frame at each --size) and
// at 1 GiB for reference:
//   GL compute (commands/bench/BenchBandwidthGl.cpp): shaders/bench/StreamRead.comp and StreamWrite.comp,
//     16-byte uvec4 accesses, ITEMS of them in flight per invocation per grid-stride step, a few
//     workgroup sizes and workgroup counts; GL_TIME_ELAPSED queries; StreamCopy.comp as a reference
//     copy;
//   CUDA (commands/bench/BenchBandwidthCuda.cpp over cuda/StreamBandwidth.h): the same shape with uint4 loads
//     through the read-only path (__ldg) or marked streaming (__ldcs), plain or streaming (__stcs)
//     stores; CUDA events; cudaMemcpy device to device as a reference copy.
// Each configuration: one untimed run, then `runs` timed runs, their median. A buffer is streamed run
// after run, so where it is smaller than the L2 cache part of it stays there between runs, as a frame
// that an earlier pass of the chain just wrote can: the floor must hold for that case too.
// On software GL (llvmpipe) the timers read 0: one configuration, timed with the CPU clock around
// glFinish, and every sample says so (gpuTimed false).
#pragma once

#include "commands/bench/BenchFloors.h"
#include "gl/Buffer.h"
#include "gl/Program.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace app {

/// 1 GiB: the reference size, well past any cache (the H200's L2 is 50 MB).
inline constexpr std::uint64_t kReferenceStreamBytes = std::uint64_t(1) << 30;

/// What to measure.
struct BandwidthPlan
{
    std::vector<std::uint64_t> bufferBytes;  ///< each a multiple of 16 (see streamBytesFor)
    int runs = 10;                           ///< timed runs per configuration (median)
    bool sweep = true;                       ///< every configuration; false: one (software GL)
    std::optional<int> multiprocessors;      ///< SM count, for workgroup counts that fill whole waves
};

/// The buffer size a streaming kernel uses for `bytes` of data: whole 16-byte elements.
std::uint64_t streamBytesFor(std::uint64_t bytes);

/// StreamRead.comp and StreamWrite.comp built for one shape: `groupSize` invocations per workgroup,
/// `items` uvec4 accesses per invocation per grid-stride step. Each call dispatches once, followed by a
/// shader-storage barrier.
class GlStreamKernels
{
public:
    GlStreamKernels(const gl::ShaderLibrary& shaders, int groupSize, int items);

    int groupSize() const { return mGroupSize; }
    int items() const { return mItems; }
    /// Reads `elements` uvec4 of `source`; writes `sink` (one uvec4) only if an invocation's fold of
    /// what it read equals `sentinel` (StreamRead.comp).
    void read(const gl::Buffer& source,
              std::uint32_t elements,
              const gl::Buffer& sink,
              unsigned sentinel,
              unsigned groups) const;
    /// Writes `value` into every word of the first `elements` uvec4 of `target`.
    void write(const gl::Buffer& target, std::uint32_t elements, unsigned value, unsigned groups) const;

private:
    int mGroupSize;
    int mItems;
    gl::Program mRead;
    gl::Program mWrite;
};

/// GL compute read, write and copy samples (needs a current GL context).
std::vector<BandwidthSample> measureGlBandwidth(const gl::ShaderLibrary& shaders,
                                                bool glTimersUseful,
                                                const BandwidthPlan& plan);

struct CudaBandwidth
{
    std::vector<BandwidthSample> samples;
    std::string deviceName;  ///< "NVIDIA H200"; empty when CUDA did not run
    int multiprocessors = 0;
    std::string unavailableReason;  ///< why there are no samples
};
/// CUDA read, write and copy samples on the CUDA context's device (commands/bench/BenchBandwidthCuda.cpp; without
/// the CUDA backend commands/CudaCommandsFallback.cpp returns only the reason). Never throws: a CUDA
/// error becomes unavailableReason.
CudaBandwidth measureCudaBandwidth(const BandwidthPlan& plan);

}  // namespace app
