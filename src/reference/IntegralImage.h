// IntegralImage.h: CPU reference of integral images (summed-area tables), Bilgic, Horn & Masaki,
// "Efficient Integral Image Computation on the GPU" (2010), section II.
//
// Two layouts, both w x h like the input, row-major:
//  * Inclusive:        S(x, y) = sum of I(i, j) for i <= x, j <= y.
//  * ExclusivePadded:  Bilgic's output: E(x, y) = sum of I(i, j) for i < x, j < y, so the first row and
//                      column are 0 and the input's last row and column do not appear
//                      ([[2,1,3,1],[3,2,1,1],[4,1,3,1]] -> [[0,0,0,0],[0,2,3,6],[0,5,8,12]]).
// The published sequential loop writes I_int[x + y*w + 1] for x up to w-1, i.e. one element past
// each row (into the next row's first element, which the next row then zeroes, and past the end of
// the array on the last row); the loop here stops at x = w-2.
// `Accumulator` picks the type the running sums are kept in (e.g. float data summed in double for a
// precision reference).
#pragma once

#include <cstddef>
#include <vector>

namespace ref {

enum class IntegralKind { Inclusive, ExclusivePadded };

/// Sequential integral image of a w x h single-channel image (channels > 1: interleaved channels,
/// each integrated separately). Returns w * h * channels values of type T.
template <typename T, typename Accumulator = T>
std::vector<T> integralImage(const T* image, int width, int height, IntegralKind kind, int channels = 1);

/// Sum over the rectangle [x0, x1) x [y0, y1) from an inclusive integral image (4 lookups).
double boxSum(const std::vector<double>& inclusive, int width, int x0, int y0, int x1, int y1);

}  // namespace ref
