// BenchData.cu: hash-based generators of BenchData.h (deterministic for a seed).
#include "cuda/BenchData.h"

#include "cuda/CudaCheck.h"

namespace cuda {

namespace {

__device__ __forceinline__ std::uint32_t hash32(std::uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

__device__ __forceinline__ float unit(std::uint32_t x)
{
    return float(hash32(x) >> 8) * (1.0f / 16777216.0f);
}

__global__ void hdrFrameKernel(__half* rgba, int width, int height, std::uint32_t seed, bool uniform)
{
    const std::size_t count = std::size_t(width) * height;
    for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
         i += std::size_t(gridDim.x) * blockDim.x) {
        float r = 0.5f, g = 0.5f, b = 0.5f;
        if (!uniform) {
            const float x = float(i % std::size_t(width)) / float(width);
            const float y = float(i / std::size_t(width)) / float(height);
            const std::uint32_t key = std::uint32_t(i) * 3u + seed * 0x9e3779b9u;
            float logL = 2.0f + 6.0f * __sinf(6.3f * x) * __cosf(4.1f * y) + 4.0f * (0.5f - y);
            logL += 1.5f * (unit(key) - 0.5f);
            if (unit(key + 1u) < 0.01f)
                logL += 8.0f;  // highlights
            const float luminance = exp2f(logL);
            const float tint = 0.3f * (unit(key + 2u) - 0.5f);
            r = luminance * (1.0f + tint);
            b = luminance * (1.0f - tint);
            g = luminance;
        }
        const std::size_t base = i * 4;
        rgba[base + 0] = __float2half(r);
        rgba[base + 1] = __float2half(g);
        rgba[base + 2] = __float2half(b);
        rgba[base + 3] = __float2half(1.0f);
    }
}

__global__ void grey8Kernel(std::uint8_t* pixels, std::size_t count, int width, std::uint32_t seed)
{
    for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
         i += std::size_t(gridDim.x) * blockDim.x) {
        const float x = float(i % std::size_t(width)) / float(width);
        const float y = float(i / std::size_t(width)) / float(width);
        const float value =
            100.0f + 40.0f * __sinf(9.0f * x + 3.0f * y) + 15.0f * (unit(std::uint32_t(i) + seed) - 0.5f);
        pixels[i] = std::uint8_t(fminf(fmaxf(value, 0.0f), 255.0f));
    }
}

__global__ void uint32Kernel(std::uint32_t* values, std::size_t count, std::uint32_t modulus, std::uint32_t seed)
{
    for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
         i += std::size_t(gridDim.x) * blockDim.x)
        values[i] = hash32(std::uint32_t(i) ^ (seed * 0x9e3779b9u)) % modulus;
}

template <typename T>
__global__ void unitKernel(T* values, std::size_t count, std::uint32_t seed)
{
    for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
         i += std::size_t(gridDim.x) * blockDim.x)
        values[i] = T(unit(std::uint32_t(i) ^ (seed * 0x9e3779b9u)));
}

constexpr unsigned kBlocks = 1024;
constexpr unsigned kThreads = 256;

}  // namespace

void fillHdrFrame(__half* rgba, int width, int height, std::uint32_t seed, bool uniform, cudaStream_t stream)
{
    hdrFrameKernel<<<kBlocks, kThreads, 0, stream>>>(rgba, width, height, seed, uniform);
    CUDA_CHECK_LAUNCH("hdrFrameKernel");
}

void fillGrey8(std::uint8_t* pixels, std::size_t count, int width, std::uint32_t seed, cudaStream_t stream)
{
    grey8Kernel<<<kBlocks, kThreads, 0, stream>>>(pixels, count, width, seed);
    CUDA_CHECK_LAUNCH("grey8Kernel");
}

void fillUint32(std::uint32_t* values,
                std::size_t count,
                std::uint32_t modulus,
                std::uint32_t seed,
                cudaStream_t stream)
{
    uint32Kernel<<<kBlocks, kThreads, 0, stream>>>(values, count, modulus, seed);
    CUDA_CHECK_LAUNCH("uint32Kernel");
}

void fillFloat(float* values, std::size_t count, std::uint32_t seed, cudaStream_t stream)
{
    unitKernel<float><<<kBlocks, kThreads, 0, stream>>>(values, count, seed);
    CUDA_CHECK_LAUNCH("unitKernel<float>");
}

void fillDouble(double* values, std::size_t count, std::uint32_t seed, cudaStream_t stream)
{
    unitKernel<double><<<kBlocks, kThreads, 0, stream>>>(values, count, seed);
    CUDA_CHECK_LAUNCH("unitKernel<double>");
}

}  // namespace cuda
