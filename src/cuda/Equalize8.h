// Equalize8.h: Bugetti's whole CUDA histogram-equalization program for 8-bit grey images
// ("Histogram Equalization", section 2.2): CalculateHistogram (shared memory, run aggregation,
// quarter grid) -> inclusive scan of the 256 bins with the chosen scan kernel -> NormalizeCdf
// (cdf_min, integer round half up) -> EqualizeHistogram (CDF in shared memory, quarter grid).
// Block size 256 or 512 for every kernel but NormalizeCdf (one block of 256, one thread per bin).
//
// Fixes against the listings: NormalizeCdf computes (cdf - cdf_min) * 255 in 64 bits (the 32-bit
// product overflows past 2^32 / 255 = 16.8 M pixels, e.g. the report's 8192x8192 case); levels
// below cdf_min (no pixels) map to 0 instead of wrapping around; a one-level image (N == cdf_min,
// a division by zero in the kernel) maps every level to itself, as the report's CPU version does.
#pragma once

#include "cuda/Scan.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace cuda {

/// Kernel times of one run, from CUDA events (ms).
struct Equalize8Timings
{
    double histogramMs = 0.0;  ///< including the histogram clear
    double scanMs = 0.0;
    double normalizeMs = 0.0;
    double equalizeMs = 0.0;
    double totalMs() const { return histogramMs + scanMs + normalizeMs + equalizeMs; }
};

/// Device buffers of one image size, reused across runs.
class Equalize8Program
{
public:
    /// `block` 256 or 512 (throws std::invalid_argument otherwise).
    Equalize8Program(ScanAlgorithm scan, int block);

    /// Uploads `count` pixels, runs the four kernels, downloads; fills `timings` when given (the
    /// events are read after the run has finished).
    std::vector<std::uint8_t> run(const std::uint8_t* pixels, std::size_t count, Equalize8Timings* timings = nullptr);

    /// The same on device data already in place (benchmarks): input()/output() hold `count` bytes.
    void runOnDevice(std::size_t count, Equalize8Timings* timings);
    std::uint8_t* input(std::size_t count);
    const std::uint8_t* output() const { return mOutput.data(); }
    /// The last run's histogram and normalised CDF (256 each), read back (tests).
    std::vector<std::uint32_t> readHistogram() const;
    std::vector<std::uint32_t> readCdf() const;

private:
    ScanAlgorithm mScan;
    int mBlock;
    DeviceBuffer<std::uint8_t> mInput;
    DeviceBuffer<std::uint8_t> mOutput;
    DeviceBuffer<std::uint32_t> mHistogram;
    DeviceBuffer<std::uint32_t> mCdf;
    DeviceScratch mWorkspace;
    Event mMarks[5];
};

}  // namespace cuda
