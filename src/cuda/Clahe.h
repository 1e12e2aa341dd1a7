// Clahe.h: OpenCV's CLAHE on the GPU with CUDA, bit-exact against OpenCV's x86-64 CPU build
// (reference/Clahe.h; the arithmetic of every step is shaders/shared/Clahe.h's). The padded image's
// tile histograms (each tile split over many blocks, so that an 8x8 grid fills a 132-SM GPU:
// OpenCV's GPU structure runs one block per tile), the tiles' clip, redistribution and LUTs, and the
// bilinear blend over the original image. 8-bit (256 bins): two launches, the LUTs folded into the
// histogram kernel (each tile's last block computes its LUT) and the blend; 16-bit (65536 bins): a
// memset and three kernels. Implemented in Clahe.cu (kernels in ClaheHistogram.cuh, ClaheBlend.cuh).
#pragma once

#include "shared/Clahe.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace cuda {

/// Kernel times of one run, from CUDA events (ms).
struct ClaheTimings
{
    /// 16-bit: the clear of the tile histograms (a memset) and the histogram kernel. 8-bit: the one
    /// kernel that makes the histograms and the LUTs (it leaves its buffers cleared for the next run;
    /// the clear after an upload is not timed); single launch: the whole (blendMs 0).
    double histogramMs = 0.0;
    double lutMs = 0.0;  ///< 16-bit: the LUT kernel; 8-bit: 0 (folded into histogramMs)
    double blendMs = 0.0;
    /// An empty kernel between two events, launched before the stages: the platform's per-launch
    /// floor, which every stage's time includes once. Not part of totalMs.
    double launchFloorMs = 0.0;
    double totalMs() const { return histogramMs + lutMs + blendMs; }
};

/// Experiment switches, so that variants can be compared on one GPU in one run; every variant gives
/// the same bytes (the CUDA tests run each). The defaults are the variants expected to be fastest.
/// fromEnvironment() reads HDRLAB_CLAHE_CUDA_BLEND (`convert`: int/float conversion instructions in
/// the blends; otherwise conversion-free), HDRLAB_CLAHE_CUDA_HIST16 (`global`: one global atomic per
/// run of equal pixels; otherwise 16-bit shared counters), HDRLAB_CLAHE_CUDA_SLAB8 and
/// HDRLAB_CLAHE_CUDA_SLAB16 (padded pixels a histogram block reads; unset or 0: the defaults; the
/// shared 16-bit variant takes at most 65535) and HDRLAB_CLAHE_CUDA_LAUNCH (`single`: the 8-bit
/// histograms, LUTs and blend in one launch; otherwise two).
struct ClaheVariant
{
    bool conversionFreeBlend = true;
    bool sharedHistogram16 = true;
    bool singleLaunch8 = false;  ///< 8-bit in one launch (histogram items, then blend items waiting on LUT flags)
    int slabPixels8 = 0;         ///< 0: 8192 (single launch: 4096, 256 threads a block)
    int slabPixels16 = 0;        ///< 0: 65535 (shared counters) or 8192 (global atomics)
    static ClaheVariant fromEnvironment();
    std::string describe() const;  ///< e.g. "launch8=two blend=bits hist16=shared slab8=8192 slab16=65535"
};

/// Device buffers for one geometry, reused while it stays the same (reallocated when it changes).
class ClaheProgram
{
public:
    explicit ClaheProgram(const ClaheVariant& variant = ClaheVariant::fromEnvironment());
    ~ClaheProgram();
    ClaheProgram(const ClaheProgram&) = delete;
    ClaheProgram& operator=(const ClaheProgram&) = delete;

    /// Uploads the image (geometry.width x geometry.height samples, rows packed), runs the
    /// kernels, downloads the result; fills `timings` when given (events read after the run).
    /// geometry.bins must be 256 for run8 and 65536 for run16 (std::invalid_argument otherwise).
    std::vector<std::uint8_t> run8(const std::uint8_t* samples,
                                   const hd::ClaheGeometry& geometry,
                                   ClaheTimings* timings = nullptr);
    std::vector<std::uint16_t> run16(const std::uint16_t* samples,
                                     const hd::ClaheGeometry& geometry,
                                     ClaheTimings* timings = nullptr);

    const ClaheVariant& variant() const;

    /// Runs the kernels again on the image the last run uploaded (benchmarks: no transfers).
    ClaheTimings rerun();

    /// The last run's tile histograms (tileCount x bins) and LUTs (tileCount x bins), read back (tests).
    std::vector<std::uint32_t> readTileHistograms() const;
    std::vector<std::uint16_t> readLuts() const;
    /// The last run's (or rerun's) output image (width x height samples), read back (tests).
    std::vector<std::uint8_t> readImage8() const;
    std::vector<std::uint16_t> readImage16() const;

private:
    struct Impl;
    std::unique_ptr<Impl> mImpl;
};

}  // namespace cuda
