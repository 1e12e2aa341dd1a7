// LocalAdaptationKernels.h: device launchers behind cuda::LocalAdaptation (plain pointers, so the
// tests can run them without GL).
#pragma once

#include "cuda/IntegralImage.h"

#include <cstdint>

namespace cuda {

/// logLuminance[y*w + x] = log2 L of pixel (x, y) of the texture, clamped to the params' range
/// [logMin, logMax] (NaN and L <= 0 count as logMin, +Inf as logMax, like the clamp policy), minus
/// the range centre (logMin + logMax) / 2 so that the double SAT sums values around 0.
void launchLogLuminance(cudaTextureObject_t frame,
                        int width,
                        int height,
                        const std::uint32_t* params,
                        double* logLuminance,
                        cudaStream_t stream);

/// out[y*w + x] = range centre + mean of the (2r+1)^2 window around (x, y) clipped to the image,
/// read off the inclusive double SAT with 4 lookups: the local mean of log2 L.
void launchBoxMean(const double* inclusiveSat,
                   int width,
                   int height,
                   int radius,
                   const std::uint32_t* params,
                   float* out,
                   cudaStream_t stream);

}  // namespace cuda
