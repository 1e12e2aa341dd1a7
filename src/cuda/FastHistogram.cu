// FastHistogram.cu: cuda-fast, the fastest log-luminance histogram we know how to write for 1..4096
// bins. Techniques (performance.md §5 items 1-3):
//  * persistent grid (blocksPerSm x SMs blocks of 512 threads) with warp-uniform grid-stride loops;
//  * several pixels in flight per thread: the linear RGBA16F path issues four 16-byte loads (8
//    pixels) before binning them; the texture path fetches a 32x4 strip per warp (4 per thread);
//  * R replicated shared-memory histograms (warp w adds into copy w % R), each padded to an odd
//    stride so one bin's copies sit in different banks (Gomez-Luna et al. 2013); R is the largest
//    power of two <= 16 that fits 40 KB;
//  * warp aggregation (option, off by default): lanes with equal slots find each other with
//    __match_any_sync and only the leader adds the group's __popc; measured on the H200 it costs
//    more than it saves, even on a uniform frame (the hardware merges same-address shared atomics);
//  * fast binning (option, on by default): __log2f and a reciprocal range instead of log2f and a
//    division; the same bins except within a few ulps of an edge (the GL methods' GLSL log2 is the
//    same approximate instruction on NVIDIA);
//  * merge: each block stores its histogram plainly to a partials array and the last block to
//    finish (atomic ticket after __threadfence) sums them column-wise (FastMerge::LastBlock), or each
//    block adds its nonzero slots with global atomics (FastMerge::GlobalAtomics, the Auto choice but
//    for tiny grids: measured faster, the atomics of different blocks arrive spread out in time);
//  * the last block also scans the bins into the CDF, so histogram -> CDF is one launch.
// Limits: the ticket/last-block scheme needs no co-residency (no block waits for another).
#include "cuda/Histogram.h"

#include "cuda/HistogramDevice.cuh"
#include "cuda/WarpShuffleScan.cuh"

#include <algorithm>
#include <stdexcept>

namespace cuda {

namespace {

using histogram_detail::Params;

constexpr int kFastBlock = 512;
constexpr unsigned kNoSlot = 0xffffffffu;
constexpr unsigned kMaxReplicas = kFastBlock / 32;
constexpr std::size_t kSharedBudgetWords = 40 * 1024 / 4;
/// Auto merge: LastBlock only while the partials (blocks x slots words) are tiny. Measured on the
/// H200 (4K, 264 blocks): global atomics of the block histograms beat the last-block sum already
/// at 256 bins (30 vs 33 us) and by far at 4096 (34 vs 79 us): one SM reading all partials is the
/// tail, while the atomics of different blocks spread over time and L2 slices.
constexpr std::size_t kLastBlockMaxPartialWords = 16 * 1024;

/// Adds one pixel's slot to the block's histogram copy. Every lane of the warp must call it
/// (lanes without a pixel pass kNoSlot).
template <bool kAggregate>
__device__ __forceinline__ void addSlot(unsigned* histogram, unsigned slot)
{
    if constexpr (kAggregate) {
        const unsigned peers = __match_any_sync(0xffffffffu, slot);
        const unsigned leader = unsigned(__ffs(peers)) - 1u;
        if ((threadIdx.x & 31u) == leader && slot != kNoSlot)
            atomicAdd(&histogram[slot], unsigned(__popc(peers)));
    } else {
        if (slot != kNoSlot)
            atomicAdd(&histogram[slot], 1u);
    }
}

/// hdBinOf with __log2f and a multiplication by binCount / (logMax - logMin); `scale` must be finite.
/// Not bit-exact: __log2f differs from hdLog2 in the last bits, so pixels near edges can move.
__device__ __forceinline__ unsigned fastSlotOf(float r, float g, float b, const Params& params, float scale)
{
    const float luminance = histogram_detail::luminanceOf(r, g, b, params);
    int bin;
    if (isnan(luminance))
        bin = hd::kBinNaN;
    else if (isinf(luminance))
        bin = hd::kBinInf;
    else if (luminance <= 0.0f)
        bin = hd::kBinNonPositive;
    else {
        const float position = (__log2f(luminance) - params.logMin) * scale;  // t * binCount
        if (position < 0.0f)
            bin = params.outOfRange == hd::kOutOfRangeSeparate ? hd::kBinBelow : 0;
        else if (position > float(params.binCount))
            bin = params.outOfRange == hd::kOutOfRangeSeparate ? hd::kBinAbove : int(params.binCount) - 1;
        else
            bin = min(int(position), int(params.binCount) - 1);
    }
    return bin >= 0 ? unsigned(bin) : params.binCount + hd::hdCounterOfCode(bin);
}

struct FastArgs
{
    cudaTextureObject_t texture;
    const uint4* linear;  ///< 2 RGBA16F pixels per element
    unsigned width;
    unsigned height;
    const std::uint32_t* paramWords;
    unsigned capacity;
    unsigned replicas;
    unsigned replicaStride;
    bool lastBlockMerge;
    bool fastMath;
    std::uint32_t* histogram;
    std::uint32_t* cdf;
    std::uint32_t* partials;
    std::uint32_t* ticket;
};

template <bool kTexture, bool kAggregate>
__global__ void __launch_bounds__(kFastBlock) fastHistogramKernel(FastArgs args)
{
    extern __shared__ unsigned shared[];
    const Params params = histogram_detail::loadParams(args.paramWords, args.capacity);
    const unsigned slots = histogram_detail::extendedSlots(params);
    const unsigned lane = threadIdx.x & 31u;
    const unsigned warp = threadIdx.x >> 5;
    const float scale = float(params.binCount) / (params.logMax - params.logMin);  // fast path only
    const bool fast = args.fastMath && isfinite(scale) && scale > 0.0f;
    auto slotOf = [&](float r, float g, float b) {
        return fast ? fastSlotOf(r, g, b, params, scale) : histogram_detail::extendedSlotOf(r, g, b, params);
    };

    for (unsigned i = threadIdx.x; i < args.replicas * args.replicaStride; i += kFastBlock)
        shared[i] = 0;
    __syncthreads();
    unsigned* copy = shared + (warp % args.replicas) * args.replicaStride;

    if constexpr (kTexture) {
        // Work unit: a strip 32 pixels wide and 4 rows high per warp; lane = column.
        const unsigned stripsX = (args.width + 31) / 32;
        const unsigned strips = stripsX * ((args.height + 3) / 4);
        const unsigned warps = gridDim.x * (kFastBlock / 32);
        for (unsigned strip = blockIdx.x * (kFastBlock / 32) + warp; strip < strips; strip += warps) {
            const unsigned x = (strip % stripsX) * 32 + lane;
            const unsigned y0 = (strip / stripsX) * 4;
            float4 pixels[4];
#pragma unroll
            for (int k = 0; k < 4; ++k)
                pixels[k] = tex2D<float4>(args.texture, float(x) + 0.5f, float(y0 + k) + 0.5f);
#pragma unroll
            for (int k = 0; k < 4; ++k) {
                const bool inside = x < args.width && y0 + k < args.height;
                const unsigned slot = inside ? slotOf(pixels[k].x, pixels[k].y, pixels[k].z) : kNoSlot;
                addSlot<kAggregate>(copy, slot);
            }
        }
    } else {
        // Work unit: 4 x 16-byte loads per thread (8 pixels), strided by the grid so a warp's loads coalesce.
        const std::size_t pixelCount = std::size_t(args.width) * args.height;
        const std::size_t pairs = pixelCount / 2;
        const std::size_t threads = std::size_t(gridDim.x) * kFastBlock;
        const std::size_t warpBase = std::size_t(blockIdx.x) * kFastBlock + (threadIdx.x - lane);
        for (std::size_t base = warpBase; base < pairs; base += 4 * threads) {
            uint4 words[4];
#pragma unroll
            for (int k = 0; k < 4; ++k) {
                const std::size_t pair = base + lane + std::size_t(k) * threads;
                words[k] = pair < pairs ? __ldcs(args.linear + pair) : make_uint4(0, 0, 0, 0);
            }
#pragma unroll
            for (int k = 0; k < 4; ++k) {
                const bool inside = base + lane + std::size_t(k) * threads < pairs;
                const float2 rg0 = histogram_detail::unpackHalf2(words[k].x);
                const float2 b0 = histogram_detail::unpackHalf2(words[k].y);
                const float2 rg1 = histogram_detail::unpackHalf2(words[k].z);
                const float2 b1 = histogram_detail::unpackHalf2(words[k].w);
                const unsigned slot0 = inside ? slotOf(rg0.x, rg0.y, b0.x) : kNoSlot;
                const unsigned slot1 = inside ? slotOf(rg1.x, rg1.y, b1.x) : kNoSlot;
                addSlot<kAggregate>(copy, slot0);
                addSlot<kAggregate>(copy, slot1);
            }
        }
        if ((pixelCount & 1) != 0 && blockIdx.x == 0 && threadIdx.x == 0) {
            const uint2 last = reinterpret_cast<const uint2*>(args.linear)[pixelCount - 1];
            const float2 rg = histogram_detail::unpackHalf2(last.x);
            const float2 ba = histogram_detail::unpackHalf2(last.y);
            atomicAdd(&copy[slotOf(rg.x, rg.y, ba.x)], 1u);
        }
    }
    __syncthreads();

    // This block's histogram: sum of its copies, stored plainly or added atomically.
    for (unsigned slot = threadIdx.x; slot < slots; slot += kFastBlock) {
        unsigned sum = 0;
        for (unsigned r = 0; r < args.replicas; ++r)
            sum += shared[r * args.replicaStride + slot];
        if (args.lastBlockMerge)
            args.partials[std::size_t(blockIdx.x) * slots + slot] = sum;
        else if (sum != 0)
            atomicAdd(&args.histogram[histogram_detail::bufferWordOfSlot(slot, params)], sum);
    }
    __threadfence();  // our partials/atomics are visible device-wide before the ticket says so
    __syncthreads();
    __shared__ bool isLast;
    if (threadIdx.x == 0)
        isLast = atomicAdd(args.ticket, 1u) == gridDim.x - 1;
    __syncthreads();
    if (!isLast)
        return;
    __threadfence();  // every other block's writes happened before their ticket; read after ours

    if (args.lastBlockMerge) {
        for (unsigned slot = threadIdx.x; slot < slots; slot += kFastBlock) {
            unsigned sums[4] = {0, 0, 0, 0};
            unsigned b = 0;
            for (; b + 4 <= gridDim.x; b += 4) {
#pragma unroll
                for (int k = 0; k < 4; ++k)
                    sums[k] += __ldcg(&args.partials[std::size_t(b + k) * slots + slot]);
            }
            for (; b < gridDim.x; ++b)
                sums[0] += __ldcg(&args.partials[std::size_t(b) * slots + slot]);
            args.histogram[histogram_detail::bufferWordOfSlot(slot, params)] = sums[0] + sums[1] + sums[2] + sums[3];
        }
    }
    if (args.cdf != nullptr) {
        __syncthreads();  // the merged bins (global writes of this block) are visible to the whole block
        constexpr unsigned kPerThread = (hd::kMaxHistogramBins + kFastBlock - 1) / kFastBlock;
        const unsigned first = threadIdx.x * kPerThread;
        unsigned running = 0;
        unsigned values[kPerThread];
#pragma unroll
        for (unsigned k = 0; k < kPerThread; ++k) {
            const unsigned bin = first + k;
            running += bin < params.binCount ? __ldcg(&args.histogram[bin]) : 0u;
            values[k] = running;
        }
        unsigned total;
        const unsigned offset = scan_detail::blockExclusiveScan<kFastBlock>(running, total);
#pragma unroll
        for (unsigned k = 0; k < kPerThread; ++k)
            if (first + k < params.binCount)
                args.cdf[first + k] = offset + values[k];
    }
    if (threadIdx.x == 0)
        *args.ticket = 0;  // every block has taken its ticket: ready for the next launch
}

/// Largest power of two <= kMaxReplicas whose copies fit the shared budget.
unsigned replicaCount(unsigned stride)
{
    unsigned replicas = kMaxReplicas;
    while (replicas > 1 && std::size_t(replicas) * stride > kSharedBudgetWords)
        replicas /= 2;
    return replicas;
}

}  // namespace

FastHistogramWorkspace::FastHistogramWorkspace() : mTicket(1)
{
    // cudaMemset runs on the legacy default stream, which our non-blocking streams do not wait
    // for: finish it here (once per workspace, never in the frame).
    CUDA_CHECK(cudaMemset(mTicket.data(), 0, sizeof(std::uint32_t)));
    CUDA_CHECK(cudaDeviceSynchronize());
}

FastMerge histogramFast(const HistogramInput& input,
                        const std::uint32_t* params,
                        unsigned binCapacity,
                        const HistogramOutput& output,
                        FastHistogramWorkspace& workspace,
                        const FastHistogramOptions& options,
                        cudaStream_t stream)
{
    if (binCapacity < 1 || binCapacity > hd::kMaxHistogramBins)
        throw std::invalid_argument("cuda-fast: bin count out of range");
    if (input.width <= 0 || input.height <= 0)
        throw std::invalid_argument("cuda-fast: empty image");
    if (input.texture == 0 && input.linearRgba16f == nullptr)
        throw std::invalid_argument("cuda-fast: no input");
    if (input.texture == 0 && (reinterpret_cast<std::uintptr_t>(input.linearRgba16f) % 16) != 0)
        throw std::invalid_argument("cuda-fast: the linear input must be 16-byte aligned");

    int multiprocessors = options.multiprocessors;
    if (multiprocessors <= 0) {
        int device = 0;
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
    }
    const std::size_t pixels = std::size_t(input.width) * std::size_t(input.height);
    const std::size_t minPixelsPerBlock = std::size_t(kFastBlock) * 8;
    const std::size_t wanted = std::size_t(std::max(1, options.blocksPerSm)) * std::size_t(multiprocessors);
    const unsigned grid =
        unsigned(std::clamp<std::size_t>((pixels + minPixelsPerBlock - 1) / minPixelsPerBlock, 1, wanted));

    const unsigned slots = binCapacity + hd::kCounterCount;
    const unsigned stride = slots | 1u;
    const unsigned replicas = replicaCount(stride);
    const std::size_t partialWords = std::size_t(grid) * slots;

    FastMerge merge = options.merge;
    if (merge == FastMerge::Auto)
        merge = partialWords <= kLastBlockMaxPartialWords ? FastMerge::LastBlock : FastMerge::GlobalAtomics;

    FastArgs args{};
    args.texture = input.texture;
    args.linear = reinterpret_cast<const uint4*>(input.linearRgba16f);
    args.width = unsigned(input.width);
    args.height = unsigned(input.height);
    args.paramWords = params;
    args.capacity = binCapacity;
    args.replicas = replicas;
    args.replicaStride = stride;
    args.lastBlockMerge = merge == FastMerge::LastBlock;
    args.fastMath = options.fastMath;
    args.histogram = output.histogram;
    args.cdf = output.cdf;
    args.ticket = workspace.ticket();
    if (merge == FastMerge::LastBlock) {
        args.partials = workspace.partials(partialWords);
    } else {
        CUDA_CHECK(cudaMemsetAsync(output.histogram, 0, binCapacity * sizeof(std::uint32_t), stream));
        CUDA_CHECK(cudaMemsetAsync(output.histogram + hd::kHistogramCountersOffset, 0,
                                   hd::kCounterCount * sizeof(std::uint32_t), stream));
    }

    const std::size_t sharedBytes = std::size_t(replicas) * stride * sizeof(unsigned);
    const bool texture = input.texture != 0;
    if (texture && options.warpAggregation)
        fastHistogramKernel<true, true><<<grid, kFastBlock, sharedBytes, stream>>>(args);
    else if (texture)
        fastHistogramKernel<true, false><<<grid, kFastBlock, sharedBytes, stream>>>(args);
    else if (options.warpAggregation)
        fastHistogramKernel<false, true><<<grid, kFastBlock, sharedBytes, stream>>>(args);
    else
        fastHistogramKernel<false, false><<<grid, kFastBlock, sharedBytes, stream>>>(args);
    CUDA_CHECK_LAUNCH("fastHistogramKernel");
    return merge;
}

}  // namespace cuda
