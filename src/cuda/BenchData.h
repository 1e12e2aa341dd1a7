// BenchData.h: synthetic inputs generated on the device for `hdrlab bench` (no host upload).
#pragma once

#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace cuda {

/// An RGBA16F frame: `uniform` false gives a realistic HDR spread (smooth log2 L field over about
/// -8..+12 EV, per-pixel noise, sparse bright highlights, tinted colours); true gives one grey value.
void fillHdrFrame(__half* rgba, int width, int height, std::uint32_t seed, bool uniform, cudaStream_t stream);
/// 8-bit grey: a low-contrast image (levels mostly in 50..160, like the report's Hubble photos).
void fillGrey8(std::uint8_t* pixels, std::size_t count, int width, std::uint32_t seed, cudaStream_t stream);
/// uint32 in [0, modulus).
void fillUint32(std::uint32_t* values,
                std::size_t count,
                std::uint32_t modulus,
                std::uint32_t seed,
                cudaStream_t stream);
/// Values in [0, 1).
void fillFloat(float* values, std::size_t count, std::uint32_t seed, cudaStream_t stream);
void fillDouble(double* values, std::size_t count, std::uint32_t seed, cudaStream_t stream);

}  // namespace cuda
