// LocalAdaptationKernels.cu: the per-pixel kernels of cuda::LocalAdaptation: clamped log-luminance
// from the mapped frame texture, and the box mean read from the summed-area table.
#include "cuda/LocalAdaptationKernels.h"

#include "cuda/HistogramDevice.cuh"

namespace cuda {

namespace {

__device__ __forceinline__ double rangeCentre(const std::uint32_t* params)
{
    return 0.5 *
           (double(__uint_as_float(params[hd::kParamLogMin])) + double(__uint_as_float(params[hd::kParamLogMax])));
}

__global__ void logLuminanceKernel(cudaTextureObject_t frame,
                                   int width,
                                   int height,
                                   const std::uint32_t* params,
                                   double* out)
{
    const int x = int(blockIdx.x * blockDim.x + threadIdx.x);
    const int y = int(blockIdx.y * blockDim.y + threadIdx.y);
    if (x >= width || y >= height)
        return;
    const float logMin = __uint_as_float(params[hd::kParamLogMin]);
    const float logMax = __uint_as_float(params[hd::kParamLogMax]);
    const float4 pixel = tex2D<float4>(frame, float(x) + 0.5f, float(y) + 0.5f);
    const float luminance =
        hd::hdLuminanceWeighted(pixel.x, pixel.y, pixel.z, __uint_as_float(params[hd::kParamLumaR]),
                                __uint_as_float(params[hd::kParamLumaG]), __uint_as_float(params[hd::kParamLumaB]));
    float value;
    if (isnan(luminance) || luminance <= 0.0f)
        value = logMin;
    else if (isinf(luminance))
        value = logMax;
    else
        value = fminf(fmaxf(log2f(luminance), logMin), logMax);
    out[std::size_t(y) * std::size_t(width) + std::size_t(x)] = double(value) - rangeCentre(params);
}

__global__ void boxMeanKernel(const double* sat,
                              int width,
                              int height,
                              int radius,
                              const std::uint32_t* params,
                              float* out)
{
    const int x = int(blockIdx.x * blockDim.x + threadIdx.x);
    const int y = int(blockIdx.y * blockDim.y + threadIdx.y);
    if (x >= width || y >= height)
        return;
    const int x0 = max(0, x - radius) - 1;  // inclusive SAT: the window is (x0, x1] x (y0, y1]
    const int y0 = max(0, y - radius) - 1;
    const int x1 = min(width - 1, x + radius);
    const int y1 = min(height - 1, y + radius);
    auto at = [&](int px, int py) {
        return px < 0 || py < 0 ? 0.0 : sat[std::size_t(py) * std::size_t(width) + std::size_t(px)];
    };
    const double sum = at(x1, y1) - at(x0, y1) - at(x1, y0) + at(x0, y0);
    const double area = double(x1 - x0) * double(y1 - y0);
    out[std::size_t(y) * std::size_t(width) + std::size_t(x)] = float(rangeCentre(params) + sum / area);
}

}  // namespace

void launchLogLuminance(cudaTextureObject_t frame,
                        int width,
                        int height,
                        const std::uint32_t* params,
                        double* logLuminance,
                        cudaStream_t stream)
{
    const dim3 block(32, 8);
    const dim3 grid(unsigned((width + 31) / 32), unsigned((height + 7) / 8));
    logLuminanceKernel<<<grid, block, 0, stream>>>(frame, width, height, params, logLuminance);
    CUDA_CHECK_LAUNCH("logLuminanceKernel");
}

void launchBoxMean(const double* inclusiveSat,
                   int width,
                   int height,
                   int radius,
                   const std::uint32_t* params,
                   float* out,
                   cudaStream_t stream)
{
    const dim3 block(32, 8);
    const dim3 grid(unsigned((width + 31) / 32), unsigned((height + 7) / 8));
    boxMeanKernel<<<grid, block, 0, stream>>>(inclusiveSat, width, height, radius, params, out);
    CUDA_CHECK_LAUNCH("boxMeanKernel");
}

}  // namespace cuda
