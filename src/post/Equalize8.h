// Equalize8.h: 8-bit grey histogram equalization on the GPU (Bugetti, "Histogram Equalization",
// section 2.2): a 256-bin shared-memory histogram with run aggregation, an inclusive scan (any
// ScanMethod), then the cdf_min normalisation and the mapping in one pass:
//   level = ((cdf - cdf_min) * 255 + (N - cdf_min) / 2) / (N - cdf_min)  (integer, round half up)
// A uniform image (N == cdf_min) comes back unchanged. CPU reference: ref::equalize8. Used by the
// known-answer test (the report's 8x8 example) and by `hdrlab tonemap` on 8-bit grey PNGs.
// Limits: up to 2^30 pixels; 64-bit intermediate products in the shader.
#pragma once

#include "post/PostTypes.h"
#include "post/scan/ScanMethod.h"

#include <cstdint>
#include <vector>

namespace post {

class Equalize8
{
public:
    static constexpr std::uint32_t kLevels = 256;
    static constexpr std::size_t kMaxPixels = std::size_t(1) << 30;

    /// Equalizes `count` grey pixels; synchronous (uploads, runs, reads the result back).
    std::vector<std::uint8_t> run(PassContext& ctx, ScanMethod& scan, const std::uint8_t* pixels, std::size_t count);

    /// The last run's histogram and CDF (uint[kLevels] each), for tests.
    const gl::Buffer& histogram() const { return mHistogram; }
    const gl::Buffer& cdf() const { return mCdf; }

private:
    gl::Program mHistogramProgram;
    gl::Program mMapProgram;
    gl::Buffer mHistogram;
    gl::Buffer mCdf;
};

}  // namespace post
