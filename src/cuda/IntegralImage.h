// IntegralImage.h: integral images (summed-area tables) on the GPU, Bilgic, Horn & Masaki,
// "Efficient Integral Image Computation on the GPU" (2010), for float, float4 (four channels at
// once, 16-byte elements) and double.
//  * BilgicTranspose: every row scanned with the work-efficient (Blelloch) scan in segments of 1024
//    elements by 512 threads (segment totals scanned and added back, the paper's Figure 3), the
//    result transposed through padded shared-memory tiles, scanned again, transposed back.
//    Traffic ~32 B/px for float (4 read+write passes).
//  * TransposeFree: the same row pass, then a column pass that walks down each column carrying a
//    running sum (column chunks of 64 rows; chunk sums, a scan of them, then the carried pass):
//    ~20 B/px, no transpose (performance.md 5.5; OpenCV's cudev integral does likewise).
// Layouts as in ref::IntegralKind: Inclusive, or Bilgic's ExclusivePadded.
// Precision: float sums of many pixels lose low bits (8.3 MP of O(1) values reach 2^23, where the
// float spacing is 1); use double, or subtract the mean first (LocalAdaptation does both).
// Limits: width, height <= 65535 (grid y), width <= 1024 * 1024 (one segment-total scan per row).
#pragma once

#include "cuda/CudaRaii.h"

#include <cstddef>
#include <string_view>

namespace cuda {

enum class IntegralMethod { BilgicTranspose, TransposeFree };
enum class IntegralLayout { Inclusive, ExclusivePadded };

std::string_view integralMethodName(IntegralMethod method);

/// `out` (w*h elements, row-major) = integral image of `in`; enqueued on `stream`. in != out.
void integralImage(IntegralMethod method,
                   const float* in,
                   float* out,
                   int width,
                   int height,
                   IntegralLayout layout,
                   cudaStream_t stream,
                   DeviceScratch& workspace);
void integralImage(IntegralMethod method,
                   const float4* in,
                   float4* out,
                   int width,
                   int height,
                   IntegralLayout layout,
                   cudaStream_t stream,
                   DeviceScratch& workspace);
void integralImage(IntegralMethod method,
                   const double* in,
                   double* out,
                   int width,
                   int height,
                   IntegralLayout layout,
                   cudaStream_t stream,
                   DeviceScratch& workspace);

}  // namespace cuda
