// ReferenceChain.h: host launchers of the CUDA half of `hdrlab bench pipeline`'s reference chain
// (commands/bench/ReferenceChain.h): the kernels of shaders/bench/ReferenceHistogram.comp,
// ReferenceCurve.comp and ReferenceApply.comp, line for line, on a linear device copy of the frame
// (packed RGBA16F, two pixels per 16-byte load, or RGBA32F, one), with the histogram params words
// (hd::kParam*) in device memory. Same limits: the histogram bins with __log2f (not bit-exact), the
// curve is a 50th-percentile exposure with Reinhard's curve, the apply writes packed RGBA8.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace cuda {

/// Threads per block of every reference kernel (the GL shaders' GROUP_SIZE).
inline constexpr unsigned kReferenceBlockSize = 256;
/// 16-byte loads in flight per thread per grid-stride step (the GL shaders' ITEMS).
inline constexpr int kReferenceHistogramItems = 4;
inline constexpr int kReferenceApplyItems = 2;

struct ReferenceLaunch
{
    std::size_t pixels = 0;
    bool halfFrame = true;
    unsigned bins = 256;  ///< the shared array's bins (the params' bin count is clamped to it)
    unsigned histogramBlocks = 1;
    unsigned applyBlocks = 1;
};

/// Clears `histogram` (hd::kHistogramBufferWords words) and bins `frame` into it.
void referenceHistogram(const uint4* frame,
                        const std::uint32_t* params,
                        std::uint32_t* histogram,
                        const ReferenceLaunch& launch,
                        cudaStream_t stream);
/// One block: the 50th-percentile bin of `histogram` and the LUT into `curve` (hd::kCurve* layout).
void referenceCurve(const std::uint32_t* histogram, const std::uint32_t* params, float* curve, cudaStream_t stream);
/// Every pixel through `curve` into `display` (one packed RGBA8 word per pixel, whole 16-byte input
/// elements: a half frame's padding pixel included).
void referenceApply(const uint4* frame,
                    const float* curve,
                    const std::uint32_t* params,
                    std::uint32_t* display,
                    const ReferenceLaunch& launch,
                    cudaStream_t stream);

}  // namespace cuda
