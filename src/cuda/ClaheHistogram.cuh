// ClaheHistogram.cuh: the CLAHE histogram and LUT kernels of cuda/Clahe.cu (the file comment there
// describes them and their sequencing); included by Clahe.cu only. Every value is computed with
// shared/Clahe.h's functions.
#pragma once

#include "shared/Clahe.h"

#include <cstddef>
#include <cstdint>

namespace cuda::clahe_kernels {

constexpr int kHistogram16Threads = 256;
constexpr int kHistogram8Threads = 128;
constexpr int kHistogram8Warps = kHistogram8Threads / 32;
constexpr int kReplicaStride = hd::kClaheBins8 + 1;  // odd: bin b of copy r in bank (b + r) % 32
/// Pixels one 16-bit histogram block reads: its global atomics go straight to the tile, so a slab
/// only needs enough pixels to keep 256 threads busy; a 4K 8x8 frame makes ~1000 blocks.
constexpr int kSlabPixels16 = 8192;
/// The shared-counter 16-bit variant: 1024 threads, slabs of at most 65535 padded pixels (16-bit
/// counters); 480 x 136 = 65280 pixels of a 4K 8x8 tile make 2 slabs a tile, 128 blocks: one per SM.
constexpr int kHistogram16SharedThreads = 1024;
constexpr int kMaxSlabPixels16Shared = 65535;
constexpr int kSharedBytes16 = hd::kClaheBins16 * 2;
/// Pixels one 8-bit block reads: 8192, 4 aligned 16-byte units per thread of 128, loaded together.
/// A 4K 8x8 frame (tiles 480 x 270) makes 64 x 15 = 960 blocks, a 1080p one (240 x 135) 64 x 4 =
/// 256. Measured on the H200 (4K 8-bit, 8x8, clip 40, medians of 500, bench clahe totals): 1024
/// pixels 47.7 us, 2048 45.7 (histogram + LUT 22.8), 4096 42.7, 8192 42.3 (histogram + LUT 19.4):
/// fewer, fuller blocks pay a block's fixed cost (clear 4 x 257 shared words, merge 256 bins,
/// <= 256 global atomics, the ticket) less often, and (probably) a thread's four loads in flight
/// hide latency as well as more resident blocks did. 1080p was measured only at 2048 (22.1 us total).
/// Per-warp shared histograms plus per-thread runs of equal samples are kept rather than
/// __match_any_sync aggregation: the runs already reduce smooth (photo-like) content to about one
/// atomic per run, and conflicts stay inside a warp's own copy; match_any would cost a warp-wide
/// match for each of a unit's 16 samples on every image, narrow-band or not.
/// (ClaheVariant::slabPixels8 overrides it, for experiments.)
constexpr int kSlabPixels8 = 8192;
constexpr int kSlabPixelsFused8 = 4096;  ///< the single launch's histogram items: 256 threads a block
constexpr int kUnitBytes = 16;

struct HistogramArgs
{
    const void* image;
    std::uint32_t* histograms;     ///< working tile histograms (8-bit: zero between launches)
    std::uint32_t* histogramCopy;  ///< 8-bit: the last launch's tile histograms (tests)
    std::uint16_t* luts;           ///< 8-bit: written by each tile's last block
    unsigned* tickets;             ///< 8-bit: one counter per tile, 0 between launches
    int width, height;
    int tilesX, tileWidth, tileHeight;
    int slabRows, slabsPerTile;
    int clipLimit;
    float lutScale;
};

/// One thread's run of equal samples: added to the histogram when the value changes and at the end.
struct Run
{
    unsigned value = 0;
    unsigned count = 0;
};

/// Where a run's count goes: a 32-bit counter per bin (shared or global memory).
struct WordAdder
{
    unsigned* counters;
    __device__ __forceinline__ void operator()(unsigned value, unsigned count) const
    {
        atomicAdd(counters + value, count);
    }
};

/// 16-bit counters, two to a 32-bit word (bin v in the low half of word v / 2 when v is even, the high
/// half when odd): a block that reads at most 65535 pixels never carries out of a half, so a 32-bit
/// atomicAdd of count << 16 or count adds to one bin exactly. 65536 bins fit in 128 KB.
struct PackedHalfAdder
{
    unsigned* words;
    __device__ __forceinline__ void operator()(unsigned value, unsigned count) const
    {
        atomicAdd(words + (value >> 1), count << ((value & 1u) * 16u));
    }
};

template <class Adder>
__device__ __forceinline__ void addToRun(Run& run, unsigned value, const Adder& add)
{
    if (value != run.value) {
        if (run.count != 0)
            add(run.value, run.count);
        run.value = value;
        run.count = 0;
    }
    ++run.count;
}

/// Sample k of a 16-byte unit.
template <class Sample>
__device__ __forceinline__ unsigned unitSample(const uint4& unit, int k)
{
    const unsigned word = k * int(sizeof(Sample)) < 8 ? (k * int(sizeof(Sample)) < 4 ? unit.x : unit.y)
                                                      : (k * int(sizeof(Sample)) < 12 ? unit.z : unit.w);
    const unsigned shift = unsigned(k * int(sizeof(Sample)) % 4) * 8u;
    return (word >> shift) & (sizeof(Sample) == 1 ? 0xffu : 0xffffu);
}

/// Adds the padded image's samples of block `block`'s slab (tile = block / slabsPerTile, slab =
/// the rest) through `add` (atomics into shared or global counters); every count added before it
/// returns. Each thread issues the loads of kBatch units before it counts any of their samples, so
/// that a slab of several units a thread keeps kBatch loads in flight (the counting's atomics would
/// otherwise order each load after the previous unit's counts).
template <class Sample, int kThreads, class Adder>
__device__ __forceinline__ void accumulateSlab(const HistogramArgs& args, int block, const Adder& add)
{
    constexpr int kUnitSamples = kUnitBytes / int(sizeof(Sample));
    constexpr int kBatch = 4;
    const int tile = block / args.slabsPerTile;
    const int slab = block - tile * args.slabsPerTile;
    const int tx = tile % args.tilesX;
    const int ty = tile / args.tilesX;
    const int y0 = ty * args.tileHeight + slab * args.slabRows;
    const int y1 = min(y0 + args.slabRows, (ty + 1) * args.tileHeight);
    const int rows = y1 - y0;  // >= 1: slabsPerTile = ceil(tileHeight / slabRows)
    const int c0 = tx * args.tileWidth;
    const int c1 = c0 + args.tileWidth;
    const Sample* image = static_cast<const Sample*>(args.image);

    Run run;
    // The columns inside the image, [c0, min(c1, width)): aligned 16-byte units of each row segment,
    // samples outside the segment masked. A segment of n samples spans at most ceil(n / unit) + 1 units.
    const int segment = min(c1, args.width) - c0;
    if (segment > 0) {
        const int unitsPerRow = (segment + kUnitSamples - 1) / kUnitSamples + 1;
        const int items = rows * unitsPerRow;
        const uint4* units = static_cast<const uint4*>(args.image);
        for (int first = threadIdx.x; first < items; first += kBatch * kThreads) {
            uint4 unit[kBatch];
            long long offset[kBatch];  // sample index of the unit's first sample minus the segment's start
            int valid[kBatch];         // samples of the segment from `offset` on (<= 0: none)
#pragma unroll
            for (int b = 0; b < kBatch; ++b) {
                const int i = first + b * kThreads;
                valid[b] = 0;
                offset[b] = 0;
                unit[b] = make_uint4(0u, 0u, 0u, 0u);
                if (i < items) {
                    const int r = i / unitsPerRow;
                    const int u = i - r * unitsPerRow;
                    const int sourceRow = hd::hdClaheReflect101(y0 + r, args.height);
                    const std::size_t start = std::size_t(sourceRow) * std::size_t(args.width) + std::size_t(c0);
                    const std::size_t unitIndex = start / kUnitSamples + std::size_t(u);
                    offset[b] = (long long)(unitIndex * kUnitSamples) - (long long)start;  // > -kUnitSamples
                    valid[b] = int(segment - offset[b]);
                    if (valid[b] > 0)
                        unit[b] = __ldg(units + unitIndex);
                }
            }
#pragma unroll
            for (int b = 0; b < kBatch; ++b) {
                if (valid[b] <= 0)
                    continue;
                if (offset[b] >= 0 && valid[b] >= kUnitSamples) {
#pragma unroll
                    for (int k = 0; k < kUnitSamples; ++k)
                        addToRun(run, unitSample<Sample>(unit[b], k), add);
                } else {
#pragma unroll
                    for (int k = 0; k < kUnitSamples; ++k)
                        if (offset[b] + k >= 0 && k < valid[b])
                            addToRun(run, unitSample<Sample>(unit[b], k), add);
                }
            }
        }
    }
    // The padded columns, [max(c0, width), c1): reflected one sample at a time.
    const int padFirst = max(c0, args.width);
    const int padColumns = c1 - padFirst;
    if (padColumns > 0) {
        const int items = rows * padColumns;
        for (int i = threadIdx.x; i < items; i += kThreads) {
            const int r = i / padColumns;
            const int k = i - r * padColumns;
            const int sourceRow = hd::hdClaheReflect101(y0 + r, args.height);
            const int sourceColumn = hd::hdClaheReflect101(padFirst + k, args.width);
            const unsigned value = image[std::size_t(sourceRow) * std::size_t(args.width) + std::size_t(sourceColumn)];
            addToRun(run, value, add);
        }
    }
    if (run.count != 0)
        add(run.value, run.count);
}

__global__ void __launch_bounds__(kHistogram16Threads) claheHistogram16Kernel(HistogramArgs args)
{
    const int tile = int(blockIdx.x) / args.slabsPerTile;
    accumulateSlab<std::uint16_t, kHistogram16Threads>(
        args, int(blockIdx.x), WordAdder{args.histograms + std::size_t(tile) * hd::kClaheBins16});
}

/// 16-bit, the shared-counter variant (ClaheVariant::sharedHistogram16): the slab's counts go into
/// 65536 16-bit counters in shared memory (128 KB of dynamic shared memory, PackedHalfAdder: the host
/// keeps a slab at or below kMaxSlabPixels16Shared padded pixels), then every non-zero counter is one
/// global atomicAdd into the tile's histogram (cleared by a memset before the kernel). A photograph's
/// tile spans a narrow band of values, so a slab of 65535 pixels has far fewer distinct values than
/// pixels: global atomics drop by that factor and no longer collide within the band.
__global__ void __launch_bounds__(kHistogram16SharedThreads) claheHistogram16SharedKernel(HistogramArgs args)
{
    extern __shared__ uint4 sharedCounters[];  // kClaheBins16 / 2 words
    unsigned* words = reinterpret_cast<unsigned*>(sharedCounters);
    constexpr int kWords = hd::kClaheBins16 / 2;
    for (int i = threadIdx.x; i < kWords / 4; i += kHistogram16SharedThreads)
        sharedCounters[i] = make_uint4(0u, 0u, 0u, 0u);
    __syncthreads();
    accumulateSlab<std::uint16_t, kHistogram16SharedThreads>(args, int(blockIdx.x), PackedHalfAdder{words});
    __syncthreads();  // every shared count in
    const int tile = int(blockIdx.x) / args.slabsPerTile;
    std::uint32_t* tileHistogram = args.histograms + std::size_t(tile) * hd::kClaheBins16;
    for (int i = threadIdx.x; i < kWords; i += kHistogram16SharedThreads) {
        const unsigned word = words[i];
        if ((word & 0xffffu) != 0u)
            atomicAdd(tileHistogram + 2 * i, word & 0xffffu);
        if ((word >> 16) != 0u)
            atomicAdd(tileHistogram + 2 * i + 1, word >> 16);
    }
}

/// The single-launch variant's LUT flags (ClaheVariant::singleLaunch8): the last block of tile t
/// stores `epoch` (the launch's number, never 0) in lutReady[t] after the tile's LUT is written; a
/// blend block waits for the flags of the tiles it reads. Null: the two-launch sequencing.
struct LutFlags
{
    unsigned* lutReady;
    unsigned epoch;
};

/// The 8-bit histogram and LUT work of histogram block `block`, kThreads threads (one shared
/// replica per warp in `replicas`, (kThreads / 32) x kReplicaStride words). Precondition: the
/// histograms and tickets of every tile are 0; postcondition: the same, with the LUTs and
/// histogramCopy written (and, with flags, the tile's flag set).
template <int kThreads>
__device__ __forceinline__ void histogramLut8(const HistogramArgs& args,
                                              int block,
                                              unsigned* replicas,
                                              unsigned& ticket,
                                              LutFlags flags)
{
    constexpr int kBins = hd::kClaheBins8;
    constexpr int kWarps = kThreads / 32;
    static_assert(kThreads >= 32 && kThreads % 32 == 0, "whole warps");
    for (int i = threadIdx.x; i < kWarps * kReplicaStride; i += kThreads)
        replicas[i] = 0;
    __syncthreads();
    accumulateSlab<std::uint8_t, kThreads>(args, block, WordAdder{replicas + (threadIdx.x >> 5) * kReplicaStride});
    __syncthreads();  // every shared count in

    const int tile = block / args.slabsPerTile;
    std::uint32_t* tileHistogram = args.histograms + std::size_t(tile) * kBins;
    for (int bin = threadIdx.x; bin < kBins; bin += kThreads) {
        unsigned sum = 0;
#pragma unroll
        for (int r = 0; r < kWarps; ++r)
            sum += replicas[r * kReplicaStride + bin];
        if (sum != 0)
            atomicAdd(&tileHistogram[bin], sum);
    }
    // Release: each thread's global atomics are ordered before the barrier, the barrier before the
    // ticket. The ticket's atomicAdd returns how many of the tile's blocks took one before.
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0)
        ticket = atomicAdd(args.tickets + tile, 1u);
    __syncthreads();
    if (ticket != unsigned(args.slabsPerTile - 1) || threadIdx.x >= 32)
        return;  // block-uniform ticket; only warp 0 of the tile's last block goes on (no barrier follows)

    // Acquire: the other blocks' counts are at L2; __ldcg reads them there.
    __threadfence();
    const int lane = int(threadIdx.x);
    uint4* histogram4 = reinterpret_cast<uint4*>(tileHistogram) + 2 * lane;  // bins 8 lane .. 8 lane + 7
    const uint4 a = __ldcg(histogram4);
    const uint4 b = __ldcg(histogram4 + 1);
    uint4* copy4 = reinterpret_cast<uint4*>(args.histogramCopy + std::size_t(tile) * kBins) + 2 * lane;
    copy4[0] = a;
    copy4[1] = b;
    const uint4 zero = make_uint4(0u, 0u, 0u, 0u);
    __stcg(histogram4, zero);  // each lane clears only the bins it has read
    __stcg(histogram4 + 1, zero);
    if (lane == 0)
        args.tickets[tile] = 0u;  // every block of the tile has taken its ticket

    int v[8] = {int(a.x), int(a.y), int(a.z), int(a.w), int(b.x), int(b.y), int(b.z), int(b.w)};
    if (args.clipLimit > 0) {
        int excess = 0;
#pragma unroll
        for (int k = 0; k < 8; ++k)
            excess += max(v[k] - args.clipLimit, 0);
#pragma unroll
        for (int offset = 16; offset > 0; offset >>= 1)
            excess += __shfl_xor_sync(0xffffffffu, excess, offset);  // every lane: the tile's clipped total
#pragma unroll
        for (int k = 0; k < 8; ++k)
            v[k] = hd::hdClaheRedistributed(v[k], 8 * lane + k, kBins, args.clipLimit, excess);
    }
    const int local = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
    int inclusive = local;
#pragma unroll
    for (int offset = 1; offset < 32; offset <<= 1) {
        const int other = __shfl_up_sync(0xffffffffu, inclusive, offset);
        if (lane >= offset)
            inclusive += other;
    }
    int sum = inclusive - local;  // the bins below 8 lane
    unsigned out[8];
#pragma unroll
    for (int k = 0; k < 8; ++k) {
        sum += v[k];
        out[k] = unsigned(hd::hdClaheLutValue(sum, args.lutScale, kBins - 1));
    }
    reinterpret_cast<uint4*>(args.luts + std::size_t(tile) * kBins)[lane] =
        make_uint4(out[0] | out[1] << 16, out[2] | out[3] << 16, out[4] | out[5] << 16, out[6] | out[7] << 16);
    if (flags.lutReady != nullptr) {
        // Release: every lane's LUT store is ordered before its fence, the fences before the warp
        // barrier, the barrier before lane 0's flag (an atomic, performed at L2).
        __threadfence();
        __syncwarp();
        if (lane == 0)
            atomicExch(flags.lutReady + tile, flags.epoch);
    }
}

/// 8-bit histograms and LUTs in one launch (see the file comment and histogramLut8).
__global__ void __launch_bounds__(kHistogram8Threads) claheHistogramLut8Kernel(HistogramArgs args)
{
    __shared__ unsigned replicas[kHistogram8Warps * kReplicaStride];
    __shared__ unsigned ticket;
    histogramLut8<kHistogram8Threads>(args, int(blockIdx.x), replicas, ticket, LutFlags{nullptr, 0u});
}

/// Inclusive scan of one int per thread over the block; `total` is the block's sum. Every thread
/// must call it; `warpTotals` holds kThreads / 32 ints. Ends with a barrier (warpTotals reusable).
template <int kThreads>
__device__ __forceinline__ int blockInclusiveScan(int value, int* warpTotals, int& total)
{
    constexpr int kWarps = kThreads / 32;
    static_assert(kThreads % 32 == 0 && kWarps <= 32, "block of whole warps, at most 32");
    const int lane = int(threadIdx.x) & 31;
    const int warp = int(threadIdx.x) >> 5;
#pragma unroll
    for (int offset = 1; offset < 32; offset <<= 1) {
        const int other = __shfl_up_sync(0xffffffffu, value, offset);
        if (lane >= offset)
            value += other;
    }
    if (lane == 31)
        warpTotals[warp] = value;
    __syncthreads();
    if (warp == 0) {
        int warpTotal = lane < kWarps ? warpTotals[lane] : 0;
#pragma unroll
        for (int offset = 1; offset < 32; offset <<= 1) {
            const int other = __shfl_up_sync(0xffffffffu, warpTotal, offset);
            if (lane >= offset)
                warpTotal += other;
        }
        if (lane < kWarps)
            warpTotals[lane] = warpTotal;  // inclusive prefix of the warp totals
    }
    __syncthreads();
    if (warp > 0)
        value += warpTotals[warp - 1];
    total = warpTotals[kWarps - 1];
    __syncthreads();
    return value;
}

/// One block per tile; each thread takes 4 consecutive bins of a chunk of 4 x kThreads bins.
template <int kBins, int kThreads>
__global__ void __launch_bounds__(kThreads) claheLutKernel(const std::uint32_t* __restrict__ histograms,
                                                           std::uint16_t* __restrict__ luts,
                                                           int clipLimit,
                                                           float lutScale)
{
    constexpr int kChunk = 4 * kThreads;
    static_assert(kBins % kChunk == 0, "whole chunks");
    __shared__ int warpTotals[kThreads / 32];
    const std::size_t base = std::size_t(blockIdx.x) * kBins;
    const uint4* histogram = reinterpret_cast<const uint4*>(histograms + base);  // 16-byte aligned: kBins % 4 == 0
    ushort4* lut = reinterpret_cast<ushort4*>(luts + base);                      // 8-byte aligned

    int clipped = 0;
    if (clipLimit > 0) {
        int excess = 0;
        for (int i = threadIdx.x; i < kBins / 4; i += kThreads) {
            const uint4 h = __ldg(histogram + i);
            excess += max(int(h.x) - clipLimit, 0) + max(int(h.y) - clipLimit, 0) + max(int(h.z) - clipLimit, 0) +
                      max(int(h.w) - clipLimit, 0);
        }
        blockInclusiveScan<kThreads>(excess, warpTotals, clipped);
    }
    int carry = 0;
    uint4 next = __ldg(histogram + threadIdx.x);  // the first chunk's bins; later chunks load one ahead
    for (int chunk = 0; chunk < kBins; chunk += kChunk) {
        const int first = chunk + 4 * int(threadIdx.x);
        const uint4 h = next;
        if (chunk + kChunk < kBins)
            next = __ldg(histogram + (first + kChunk) / 4);
        int v[4] = {int(h.x), int(h.y), int(h.z), int(h.w)};
        if (clipLimit > 0) {
#pragma unroll
            for (int k = 0; k < 4; ++k)
                v[k] = hd::hdClaheRedistributed(v[k], first + k, kBins, clipLimit, clipped);
        }
        const int local = v[0] + v[1] + v[2] + v[3];
        int chunkTotal = 0;
        int sum = carry + blockInclusiveScan<kThreads>(local, warpTotals, chunkTotal) - local;
        ushort4 out;
        sum += v[0];
        out.x = std::uint16_t(hd::hdClaheLutValue(sum, lutScale, kBins - 1));
        sum += v[1];
        out.y = std::uint16_t(hd::hdClaheLutValue(sum, lutScale, kBins - 1));
        sum += v[2];
        out.z = std::uint16_t(hd::hdClaheLutValue(sum, lutScale, kBins - 1));
        sum += v[3];
        out.w = std::uint16_t(hd::hdClaheLutValue(sum, lutScale, kBins - 1));
        lut[first / 4] = out;
        carry += chunkTotal;
    }
}

}  // namespace cuda::clahe_kernels
