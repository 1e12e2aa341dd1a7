// Histogram.h: host launchers of the CUDA log-luminance histograms (plain device pointers; the GL
// interop methods in post/histogram/HistogramCudaMethods.cpp and the tests/benchmarks call these). All use the
// binning of shared/HostDevice.h (hdBinOf on hdLuminanceWeighted) with the range, bin count, policy and weights read
// on the device from a params buffer laid out as hd::kParam* words, and write a histogram buffer
// laid out as hd::kHistogram* (bins, then counters at hd::kHistogramCountersOffset).
//
// Inputs: a texture object over an RGBA16F/RGBA32F image (the mapped GL frame; read as float4),
// or a linear RGBA16F buffer (`const __half*`, 4 halves per pixel, 16-byte aligned).
#pragma once

#include "cuda/CudaRaii.h"

#include <cuda_fp16.h>

#include <cstdint>

namespace cuda {

/// Where the pixels come from. Exactly one of texture / linearRgba16f is set.
struct HistogramInput
{
    cudaTextureObject_t texture = 0;
    const __half* linearRgba16f = nullptr;
    int width = 0;
    int height = 0;
};

/// Output: `histogram` (hd::kHistogramBufferWords uint32), optional inclusive CDF of the bins.
struct HistogramOutput
{
    std::uint32_t* histogram = nullptr;
    std::uint32_t* cdf = nullptr;  ///< cuda-fast only: inclusive scan of bins [0, binCount)
};

// ---- cuda-bugetti (BugettiHistogram.cu) ---------------------------------------------------------
/// Bugetti's CalculateHistogram, extended to log-luminance bins: one shared-memory histogram per
/// block, per-thread aggregation of runs of equal bins, interleaved (grid-stride) pixel order, a grid
/// of a quarter of ceil(pixels / block) blocks, global atomics to merge. `block` 256 or 512.
/// Clears the histogram words it writes first (async memset on `stream`).
void histogramBugetti(const HistogramInput& input,
                      const std::uint32_t* params,
                      unsigned binCapacity,
                      const HistogramOutput& output,
                      int block,
                      cudaStream_t stream);

// ---- cuda-fast (FastHistogram.cu) -------------------------------------------------------------------
enum class FastMerge {
    Auto,           ///< LastBlock when the partials are tiny (a few blocks), else GlobalAtomics
    LastBlock,      ///< partials stored plainly; the last block (atomic ticket) sums them
    GlobalAtomics,  ///< each block adds its nonzero slots with global atomics; the last block scans
};

/// Scratch of the fast histogram (per-block partials and the ticket); reused across calls.
class FastHistogramWorkspace
{
public:
    FastHistogramWorkspace();
    std::uint32_t* partials(std::size_t words)
    {
        mPartials.reserve(words);
        return mPartials.data();
    }
    std::uint32_t* ticket() { return mTicket.data(); }

private:
    DeviceBuffer<std::uint32_t> mPartials;
    DeviceBuffer<std::uint32_t> mTicket;  ///< zero between launches (the last block resets it)
};

struct FastHistogramOptions
{
    FastMerge merge = FastMerge::Auto;
    int blocksPerSm = 2;      ///< persistent grid size = blocksPerSm x SM count (capped by the work)
    int multiprocessors = 0;  ///< 0: ask the current device
    /// __match_any_sync aggregation of equal slots. Off by default: on the H200 the match costs more
    /// than it saves (Hopper already merges same-address shared atomics of a warp; see docs/CUDA.md).
    bool warpAggregation = false;
    /// Bin with the hardware __log2f and a rounded reciprocal range instead of hdBinOf's bit-exact
    /// hdLog2 and hdBinScale: a little cheaper, but pixels within a few ulps of a bin edge can land in
    /// the neighbouring bin. Off by default, so cuda-fast matches the CPU reference exactly.
    bool fastMath = false;
};

/// The fastest histogram we have: persistent grid, several pixels per thread (16-byte loads on the
/// linear path), replicated padded shared histograms, warp aggregation of equal slots
/// (__match_any_sync), merge without contended global atomics, and the CDF of the bins from the same
/// launch when output.cdf is set. Returns the merge actually used.
FastMerge histogramFast(const HistogramInput& input,
                        const std::uint32_t* params,
                        unsigned binCapacity,
                        const HistogramOutput& output,
                        FastHistogramWorkspace& workspace,
                        const FastHistogramOptions& options,
                        cudaStream_t stream);

// ---- cuda-cub (CubBaseline.cu) --------------------------------------------------------------------
/// Scratch of the CUB histogram (the per-pixel sample buffer and CUB's temporary storage).
class CubHistogramWorkspace
{
public:
    float* samples(std::size_t count)
    {
        mSamples.reserve(count);
        return mSamples.data();
    }
    void* temporary(std::size_t bytes)
    {
        mTemporary.reserve(bytes);
        return mTemporary.data();
    }

private:
    DeviceBuffer<float> mSamples;
    DeviceBuffer<unsigned char> mTemporary;
};

/// Pass 1 (fused luminance kernel): each pixel's position in bin units, t * binCount clamped below
/// binCount (or -1 for pixels in no bin, which it counts into the counters); pass 2:
/// cub::DeviceHistogram::HistogramEven over [0, binCount) with binCount bins. `binCount` must equal
/// the params' bin count (CUB's levels are host values).
void histogramCub(const HistogramInput& input,
                  const std::uint32_t* params,
                  unsigned binCount,
                  const HistogramOutput& output,
                  CubHistogramWorkspace& workspace,
                  cudaStream_t stream);
/// Pass 1 only (for benchmarks).
void cubLuminancePass(const HistogramInput& input,
                      const std::uint32_t* params,
                      unsigned binCount,
                      std::uint32_t* histogram,
                      float* samples,
                      cudaStream_t stream);
/// Pass 2 only (for benchmarks): CUB alone on prepared samples.
void cubHistogramEvenPass(const float* samples,
                          std::size_t count,
                          unsigned binCount,
                          std::uint32_t* histogram,
                          CubHistogramWorkspace& workspace,
                          cudaStream_t stream);

}  // namespace cuda
