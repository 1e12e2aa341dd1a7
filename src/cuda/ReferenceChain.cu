// ReferenceChain.cu: the reference chain's kernels (ReferenceChain.h), the GL shaders' arithmetic in
// CUDA: plain weighted sums, __log2f, exp2f and __powf.
#include "cuda/ReferenceChain.h"

#include "cuda/CudaCheck.h"
#include "shared/HostDevice.h"

#include <cuda_fp16.h>

namespace cuda {

namespace {

constexpr float kKey = 0.18f;  // ReferenceCurve.comp's kKey

struct Frame
{
    std::uint32_t binCount;
    std::uint32_t policy;
    float logMin;
    float scale;
    float wr, wg, wb;
};

__device__ __forceinline__ float2 halves(unsigned word)
{
    __half2 pair = *reinterpret_cast<__half2*>(&word);
    return __half22float2(pair);
}

__device__ __forceinline__ unsigned slotOf(float r, float g, float b, const Frame& f)
{
    const float L = f.wr * r + f.wg * g + f.wb * b;
    if (isnan(L))
        return f.binCount + hd::kCounterNaN;
    if (isinf(L))
        return f.binCount + hd::kCounterInf;
    if (!(L >= hd::kMinLuminance))
        return f.binCount + hd::kCounterNonPositive;
    const float position = (__log2f(L) - f.logMin) * f.scale;
    if (position < 0.0f)
        return f.policy == hd::kOutOfRangeSeparate ? f.binCount + hd::kCounterBelow : 0u;
    if (position > float(f.binCount))
        return f.policy == hd::kOutOfRangeSeparate ? f.binCount + hd::kCounterAbove : f.binCount - 1u;
    return min(unsigned(position), f.binCount - 1u);
}

/// The grid-stride walk both kernels make over the frame's 16-byte elements (2 RGBA16F pixels or 1
/// RGBA32F pixel): Items loads issued before any is used (loads in flight), then the tail one at a
/// time; `visit(element, index)` for each.
template <int Items, typename Visit>
__device__ __forceinline__ void forEachElement(const uint4* __restrict__ frame, std::size_t elements, Visit visit)
{
    const std::size_t chunk = std::size_t(blockDim.x) * Items;
    const std::size_t stride = std::size_t(gridDim.x) * chunk;
    std::size_t base = std::size_t(blockIdx.x) * chunk + threadIdx.x;
    for (; base + std::size_t(Items - 1) * blockDim.x < elements; base += stride) {
        uint4 v[Items];
#pragma unroll
        for (int k = 0; k < Items; ++k)
            v[k] = __ldg(&frame[base + std::size_t(k) * blockDim.x]);
#pragma unroll
        for (int k = 0; k < Items; ++k)
            visit(v[k], base + std::size_t(k) * blockDim.x);
    }
    for (int k = 0; k < Items; ++k) {
        const std::size_t i = base + std::size_t(k) * blockDim.x;
        if (i < elements)
            visit(__ldg(&frame[i]), i);
    }
}

template <bool Half>
__device__ __forceinline__ void binElement(unsigned* bins,
                                           uint4 e,
                                           std::size_t index,
                                           std::size_t pixels,
                                           const Frame& f)
{
    if constexpr (Half) {
        const float2 rg0 = halves(e.x), ba0 = halves(e.y);
        atomicAdd(&bins[slotOf(rg0.x, rg0.y, ba0.x, f)], 1u);
        if (index * 2 + 1 < pixels) {
            const float2 rg1 = halves(e.z), ba1 = halves(e.w);
            atomicAdd(&bins[slotOf(rg1.x, rg1.y, ba1.x, f)], 1u);
        }
    } else {
        atomicAdd(&bins[slotOf(__uint_as_float(e.x), __uint_as_float(e.y), __uint_as_float(e.z), f)], 1u);
    }
}

template <bool Half>
__global__ void histogramKernel(const uint4* __restrict__ frame,
                                std::size_t pixels,
                                const std::uint32_t* __restrict__ params,
                                std::uint32_t* histogram,
                                unsigned capacity)
{
    extern __shared__ unsigned sBins[];  // binCount bins, then the counters
    Frame f;
    const unsigned bins = params[hd::kParamBinCount];
    f.binCount = bins < 1u ? 1u : (bins > capacity ? capacity : bins);
    f.policy = params[hd::kParamOutOfRange];
    f.logMin = __uint_as_float(params[hd::kParamLogMin]);
    f.scale = float(f.binCount) / (__uint_as_float(params[hd::kParamLogMax]) - f.logMin);
    f.wr = __uint_as_float(params[hd::kParamLumaR]);
    f.wg = __uint_as_float(params[hd::kParamLumaG]);
    f.wb = __uint_as_float(params[hd::kParamLumaB]);
    const unsigned slots = f.binCount + hd::kCounterCount;
    for (unsigned i = threadIdx.x; i < slots; i += blockDim.x)
        sBins[i] = 0u;
    __syncthreads();

    const std::size_t elements = Half ? (pixels + 1) / 2 : pixels;
    forEachElement<kReferenceHistogramItems>(frame, elements,
                                             [&](uint4 e, std::size_t i) { binElement<Half>(sBins, e, i, pixels, f); });
    __syncthreads();

    for (unsigned i = threadIdx.x; i < f.binCount; i += blockDim.x)
        if (sBins[i] != 0u)
            atomicAdd(&histogram[i], sBins[i]);
    if (threadIdx.x < hd::kCounterCount && sBins[f.binCount + threadIdx.x] != 0u)
        atomicAdd(&histogram[hd::kHistogramCountersOffset + threadIdx.x], sBins[f.binCount + threadIdx.x]);
}

__global__ void curveKernel(const std::uint32_t* __restrict__ histogram,
                            const std::uint32_t* __restrict__ params,
                            float* curve)
{
    __shared__ unsigned sSums[kReferenceBlockSize];
    __shared__ int sMedianBin;
    const unsigned local = threadIdx.x;
    const unsigned requested = params[hd::kParamBinCount];
    const unsigned bins = requested < 1u ? 1u : (requested > hd::kMaxHistogramBins ? hd::kMaxHistogramBins : requested);
    const unsigned perThread = (bins + kReferenceBlockSize - 1) / kReferenceBlockSize;
    const unsigned first = min(local * perThread, bins);
    const unsigned last = min(first + perThread, bins);
    unsigned own = 0;
    for (unsigned b = first; b < last; ++b)
        own += histogram[b];
    sSums[local] = own;
    if (local == 0)
        sMedianBin = -1;
    __syncthreads();
    for (unsigned offset = 1; offset < kReferenceBlockSize; offset *= 2) {
        const unsigned before = local >= offset ? sSums[local - offset] : 0u;
        __syncthreads();
        sSums[local] += before;
        __syncthreads();
    }
    const unsigned total = sSums[kReferenceBlockSize - 1];
    const unsigned inclusive = sSums[local];
    const unsigned exclusive = inclusive - own;
    if (total > 0 && inclusive >= total - inclusive && exclusive < total - exclusive) {
        unsigned running = exclusive;
        for (unsigned b = first; b < last; ++b) {
            running += histogram[b];
            if (running >= total - running) {
                sMedianBin = int(b);
                break;
            }
        }
    }
    __syncthreads();

    const float logMin = __uint_as_float(params[hd::kParamLogMin]);
    const float logMax = __uint_as_float(params[hd::kParamLogMax]);
    const float width = (logMax - logMin) / float(bins);
    const float logMedian = sMedianBin >= 0 ? logMin + (float(sMedianBin) + 0.5f) * width : 0.0f;
    if (local == 0) {
        curve[hd::kCurveLogMin] = logMin;
        curve[hd::kCurveLogMax] = logMax;
        curve[hd::kCurveSampleCount] = float(bins);
        curve[hd::kCurveChannels] = 1.0f;
        curve[hd::kCurveMode] = hd::kCurveModeLut;
    }
    for (unsigned i = local; i < bins; i += kReferenceBlockSize) {
        const float x = kKey * exp2f(logMin + (float(i) + 0.5f) * width - logMedian);
        curve[hd::kCurveHeaderWords + i] = x / (1.0f + x);
    }
}

struct Lookup
{
    float wr, wg, wb;
    float cdPerUnit;
    float logMin;
    float samplesPerEv;
    int samples;
};

__device__ __forceinline__ float encodeSrgb(float linear)
{
    if (!(linear > 0.0f))
        return 0.0f;
    linear = fminf(linear, 1.0f);
    return linear <= 0.0031308f ? 12.92f * linear : 1.055f * __powf(linear, 1.0f / 2.4f) - 0.055f;
}

__device__ __forceinline__ unsigned packUnorm(float value)
{
    return __float2uint_rn(fminf(fmaxf(value, 0.0f), 1.0f) * 255.0f);
}

__device__ __forceinline__ unsigned shade(float r, float g, float b, const float* __restrict__ curve, const Lookup& l)
{
    const unsigned opaqueBlack = 0xFF000000u;
    const float Lw = l.wr * r + l.wg * g + l.wb * b;
    if (!(Lw > 0.0f) || isinf(Lw))
        return opaqueBlack;
    const float position = fminf(fmaxf((__log2f(Lw) - l.logMin) * l.samplesPerEv - 0.5f, 0.0f), float(l.samples - 1));
    const int below = int(position);
    const int above = min(below + 1, l.samples - 1);
    const float low = curve[hd::kCurveHeaderWords + below];
    const float high = curve[hd::kCurveHeaderWords + above];
    const float Ld = low + (high - low) * (position - float(below));
    const float scale = Ld * l.cdPerUnit / Lw;
    return packUnorm(encodeSrgb(r * scale)) | packUnorm(encodeSrgb(g * scale)) << 8 |
           packUnorm(encodeSrgb(b * scale)) << 16 | opaqueBlack;
}

template <bool Half>
__device__ __forceinline__ void applyElement(std::uint32_t* display,
                                             uint4 e,
                                             std::size_t index,
                                             const float* __restrict__ curve,
                                             const Lookup& l)
{
    if constexpr (Half) {
        const float2 rg0 = halves(e.x), ba0 = halves(e.y), rg1 = halves(e.z), ba1 = halves(e.w);
        reinterpret_cast<uint2*>(display)[index] =
            make_uint2(shade(rg0.x, rg0.y, ba0.x, curve, l), shade(rg1.x, rg1.y, ba1.x, curve, l));
    } else {
        display[index] = shade(__uint_as_float(e.x), __uint_as_float(e.y), __uint_as_float(e.z), curve, l);
    }
}

template <bool Half>
__global__ void applyKernel(const uint4* __restrict__ frame,
                            std::size_t pixels,
                            const float* __restrict__ curve,
                            const std::uint32_t* __restrict__ params,
                            std::uint32_t* display)
{
    Lookup l;
    l.wr = __uint_as_float(params[hd::kParamLumaR]);
    l.wg = __uint_as_float(params[hd::kParamLumaG]);
    l.wb = __uint_as_float(params[hd::kParamLumaB]);
    l.cdPerUnit = __uint_as_float(params[hd::kParamCdPerUnit]);
    const int samples = int(curve[hd::kCurveSampleCount]);
    l.samples = samples < 1 ? 1 : (samples > int(hd::kMaxCurveSamples) ? int(hd::kMaxCurveSamples) : samples);
    l.logMin = curve[hd::kCurveLogMin];
    const float span = curve[hd::kCurveLogMax] - l.logMin;
    l.samplesPerEv = float(l.samples) / (span > 0.0f ? span : 1.0f);

    const std::size_t elements = Half ? (pixels + 1) / 2 : pixels;
    forEachElement<kReferenceApplyItems>(frame, elements,
                                         [&](uint4 e, std::size_t i) { applyElement<Half>(display, e, i, curve, l); });
}

}  // namespace

void referenceHistogram(const uint4* frame,
                        const std::uint32_t* params,
                        std::uint32_t* histogram,
                        const ReferenceLaunch& launch,
                        cudaStream_t stream)
{
    CUDA_CHECK(cudaMemsetAsync(histogram, 0, hd::kHistogramBufferWords * sizeof(std::uint32_t), stream));
    const std::size_t shared = (launch.bins + hd::kCounterCount) * sizeof(unsigned);
    if (launch.halfFrame)
        histogramKernel<true><<<launch.histogramBlocks, kReferenceBlockSize, shared, stream>>>(
            frame, launch.pixels, params, histogram, launch.bins);
    else
        histogramKernel<false><<<launch.histogramBlocks, kReferenceBlockSize, shared, stream>>>(
            frame, launch.pixels, params, histogram, launch.bins);
    CUDA_CHECK(cudaGetLastError());
}

void referenceCurve(const std::uint32_t* histogram, const std::uint32_t* params, float* curve, cudaStream_t stream)
{
    curveKernel<<<1, kReferenceBlockSize, 0, stream>>>(histogram, params, curve);
    CUDA_CHECK(cudaGetLastError());
}

void referenceApply(const uint4* frame,
                    const float* curve,
                    const std::uint32_t* params,
                    std::uint32_t* display,
                    const ReferenceLaunch& launch,
                    cudaStream_t stream)
{
    if (launch.halfFrame)
        applyKernel<true>
            <<<launch.applyBlocks, kReferenceBlockSize, 0, stream>>>(frame, launch.pixels, curve, params, display);
    else
        applyKernel<false>
            <<<launch.applyBlocks, kReferenceBlockSize, 0, stream>>>(frame, launch.pixels, curve, params, display);
    CUDA_CHECK(cudaGetLastError());
}

}  // namespace cuda
