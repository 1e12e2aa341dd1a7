// Clahe.h: OpenCV's CLAHE on the GPU with CUDA, bit-exact against OpenCV's x86-64 CPU build
// (reference/Clahe.h; the arithmetic of every step is shaders/shared/Clahe.h's). Three kernels:
// the padded image's tile histograms (each tile split over many blocks, so that an 8x8 grid fills a
// 132-SM GPU: OpenCV's GPU structure runs one block per tile), the tiles' clip, redistribution and
// LUTs, and the bilinear blend over the original image. 8-bit (256 bins) and 16-bit (65536 bins).
// Implemented in Clahe.cu.
#pragma once

#include "shared/Clahe.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace cuda {

/// Kernel times of one run, from CUDA events (ms).
struct ClaheTimings
{
    double histogramMs = 0.0;  ///< including the clear of the tile histograms
    double lutMs = 0.0;
    double blendMs = 0.0;
    double totalMs() const { return histogramMs + lutMs + blendMs; }
};

/// Device buffers for one geometry, reused while it stays the same (reallocated when it changes).
class ClaheProgram
{
public:
    ClaheProgram();
    ~ClaheProgram();
    ClaheProgram(const ClaheProgram&) = delete;
    ClaheProgram& operator=(const ClaheProgram&) = delete;

    /// Uploads the image (geometry.width x geometry.height samples, rows packed), runs the three
    /// kernels, downloads the result; fills `timings` when given (events read after the run).
    /// geometry.bins must be 256 for run8 and 65536 for run16 (std::invalid_argument otherwise).
    std::vector<std::uint8_t> run8(const std::uint8_t* samples, const hd::ClaheGeometry& geometry,
                                   ClaheTimings* timings = nullptr);
    std::vector<std::uint16_t> run16(const std::uint16_t* samples, const hd::ClaheGeometry& geometry,
                                     ClaheTimings* timings = nullptr);

    /// Runs the kernels again on the image the last run uploaded (benchmarks: no transfers).
    ClaheTimings rerun();

    /// The last run's tile histograms (tileCount x bins) and LUTs (tileCount x bins), read back (tests).
    std::vector<std::uint32_t> readTileHistograms() const;
    std::vector<std::uint16_t> readLuts() const;

private:
    struct Impl;
    std::unique_ptr<Impl> mImpl;
};

}  // namespace cuda
