// Clahe.cu: the CLAHE kernels of cuda/Clahe.h and their sequencing. Every value is computed with
// shared/Clahe.h's functions, so the bytes are the CPU reference's (and OpenCV's x86-64 build's).
//  * claheHistogramLut8Kernel (8-bit, one launch for histograms and LUTs, no memset): block = (tile,
//    slab of ~kSlabPixels8 of the tile's pixels), 128 threads. The slab's samples go into one shared
//    histogram per warp (see accumulateSlab), the block adds its non-zero bins to the tile's global
//    histogram (atomicAdd), then every thread fences and thread 0 takes a ticket (atomicAdd on the
//    tile's counter). The block that draws ticket slabsPerTile - 1 is the tile's last: every other
//    block's atomics happened before its ticket (fence + barrier + ticket), so warp 0 of the last
//    block reads the complete histogram from L2 (__ldcg: never the read-only/L1 path, which may hold
//    stale lines), computes the tile's LUT (clip, redistribution, warp scan: 8 bins a lane), copies
//    the histogram to histogramCopy (tests read it there), and leaves the working histogram zeroed
//    and the ticket at 0 for the next launch. The buffers are zeroed by a memset only after an
//    upload (a new image or geometry) or a launch that failed to enqueue, outside the timed stages.
//  * claheHistogram16Kernel (16-bit): block = (tile, slab of ~kSlabPixels16 pixels), 256 threads,
//    global atomics straight into the tile's 65536 bins (cleared by a memset before the kernel);
//    then claheLutKernel: one block per tile, 1024 threads: clipped = sum max(h - clip, 0) (block
//    reduction), then chunks of 4 x threads bins: hdClaheRedistributed, a block-wide inclusive scan
//    with the carried prefix, hdClaheLutValue. (65536 bins are too much for a last histogram block.)
//  * Reading the slab (both depths): the tile's columns inside the image are read as aligned 16-byte
//    units of the packed image (16 8-bit or 8 16-bit samples; the edge units masked per sample), the
//    padded columns (BORDER_REFLECT_101) one sample at a time. Each thread aggregates runs of equal
//    samples (a constant image costs one atomic per thread).
//  * claheBlend8Kernel (8-bit): a block of 64 x 4 threads covers 256 columns x 64 rows, a thread 4
//    consecutive columns (one 32-bit load and store when the width is a multiple of 4) in every 4th
//    row. It first loads all 16 of its image words (their latency overlaps the table fill), then
//    packs the four LUT bytes of each cell (a region whose pixels blend the same four tiles) it
//    overlaps into one 32-bit word per level in shared memory: one shared load a pixel. A block
//    overlapping more than 12 cells (tiles much smaller than 256 x 64) reads the LUTs from global.
//  * claheBlendKernel (16-bit): one thread per 4 consecutive samples of a row (one 64-bit load and
//    store when the width is a multiple of 4), the four LUT values from global memory (L1/L2).
//  * claheEmptyKernel: nothing, launched between two events when timings are read: the launch floor.
#include "cuda/Clahe.h"

#include "cuda/CudaContext.h"
#include "cuda/CudaRaii.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace cuda {

namespace {

constexpr int kHistogram16Threads = 256;
constexpr int kHistogram8Threads = 128;
constexpr int kHistogram8Warps = kHistogram8Threads / 32;
constexpr int kReplicaStride = hd::kClaheBins8 + 1;  // odd: bin b of copy r in bank (b + r) % 32
/// Pixels one 16-bit histogram block reads: its global atomics go straight to the tile, so a slab
/// only needs enough pixels to keep 256 threads busy; a 4K 8x8 frame makes ~1000 blocks.
constexpr int kSlabPixels16 = 8192;
/// Pixels one 8-bit block reads: ~1 aligned 16-byte unit per thread of 128. A 1080p 8x8 frame (tiles
/// 240 x 135) makes 64 x 15 = 960 blocks, a 4K one 64 x 54 = 3456: every SM gets several resident
/// blocks, so the load latency of one block hides behind the others. A block's fixed cost (clear
/// 4 x 257 shared words, merge 256 bins, <= 256 global atomics, the ticket) stays small at 128
/// threads. Per-warp shared histograms plus per-thread runs of equal samples are kept rather than
/// __match_any_sync aggregation: the runs already reduce smooth (photo-like) content to about one
/// atomic per run, and conflicts stay inside a warp's own copy; match_any would cost a warp-wide
/// match for each of a unit's 16 samples on every image, narrow-band or not.
constexpr int kSlabPixels8 = 2048;
constexpr int kBlendThreads = 256;
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

template <class Sample>
__device__ __forceinline__ void addToRun(Run& run, unsigned value, unsigned* histogram)
{
    if (value != run.value) {
        if (run.count != 0)
            atomicAdd(&histogram[run.value], run.count);
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

/// Adds the padded image's samples of this block's slab (tile = blockIdx.x / slabsPerTile, slab =
/// the rest) to `histogram` (shared or global), with atomics; every count added before it returns.
template <class Sample, int kThreads>
__device__ __forceinline__ void accumulateSlab(const HistogramArgs& args, unsigned* histogram)
{
    constexpr int kUnitSamples = kUnitBytes / int(sizeof(Sample));
    const int tile = int(blockIdx.x) / args.slabsPerTile;
    const int slab = int(blockIdx.x) - tile * args.slabsPerTile;
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
        for (int i = threadIdx.x; i < items; i += kThreads) {
            const int r = i / unitsPerRow;
            const int u = i - r * unitsPerRow;
            const int sourceRow = hd::hdClaheReflect101(y0 + r, args.height);
            const std::size_t start = std::size_t(sourceRow) * std::size_t(args.width) + std::size_t(c0);
            const std::size_t end = start + std::size_t(segment);
            const std::size_t unitIndex = start / kUnitSamples + std::size_t(u);
            const std::size_t unitStart = unitIndex * kUnitSamples;
            if (unitStart >= end)
                continue;
            const uint4 unit = __ldg(units + unitIndex);
            if (unitStart >= start && unitStart + kUnitSamples <= end) {
#pragma unroll
                for (int k = 0; k < kUnitSamples; ++k)
                    addToRun<Sample>(run, unitSample<Sample>(unit, k), histogram);
            } else {
#pragma unroll
                for (int k = 0; k < kUnitSamples; ++k) {
                    const std::size_t index = unitStart + std::size_t(k);
                    if (index >= start && index < end)
                        addToRun<Sample>(run, unitSample<Sample>(unit, k), histogram);
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
            addToRun<Sample>(run, value, histogram);
        }
    }
    if (run.count != 0)
        atomicAdd(&histogram[run.value], run.count);
}

__global__ void __launch_bounds__(kHistogram16Threads) claheHistogram16Kernel(HistogramArgs args)
{
    const int tile = int(blockIdx.x) / args.slabsPerTile;
    accumulateSlab<std::uint16_t, kHistogram16Threads>(args, args.histograms + std::size_t(tile) * hd::kClaheBins16);
}

/// 8-bit histograms and LUTs in one launch (see the file comment). Precondition: histograms and
/// tickets of every tile are 0; postcondition: the same, with the LUTs and histogramCopy written.
__global__ void __launch_bounds__(kHistogram8Threads) claheHistogramLut8Kernel(HistogramArgs args)
{
    constexpr int kBins = hd::kClaheBins8;
    __shared__ unsigned replicas[kHistogram8Warps * kReplicaStride];
    __shared__ unsigned ticket;
    for (int i = threadIdx.x; i < kHistogram8Warps * kReplicaStride; i += kHistogram8Threads)
        replicas[i] = 0;
    __syncthreads();
    accumulateSlab<std::uint8_t, kHistogram8Threads>(args, replicas + (threadIdx.x >> 5) * kReplicaStride);
    __syncthreads();  // every shared count in

    const int tile = int(blockIdx.x) / args.slabsPerTile;
    std::uint32_t* tileHistogram = args.histograms + std::size_t(tile) * kBins;
    for (int bin = threadIdx.x; bin < kBins; bin += kHistogram8Threads) {
        unsigned sum = 0;
#pragma unroll
        for (int r = 0; r < kHistogram8Warps; ++r)
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
}

__global__ void claheEmptyKernel()
{
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

struct BlendArgs
{
    const void* image;
    void* output;
    const std::uint16_t* luts;
    int width, height;
    int tilesX, tilesY;
    float inverseTileWidth, inverseTileHeight;
    int groupsPerRow;  ///< ceil(width / 4)
};

/// One axis of a pixel's blend: lower and upper tile, weights (OpenCV's formula, shared/Clahe.h).
struct BlendAxis
{
    int lower, upper;
    float upperWeight, lowerWeight;
    int cell;  ///< floor(position) + 1 in 0..tiles: the pixels of one cell blend the same tiles
};

__device__ __forceinline__ BlendAxis blendAxis(int x, float inverseTileSize, int tiles)
{
    const float position = hd::hdClaheTilePosition(x, inverseTileSize);
    const int lower = int(floorf(position));
    BlendAxis axis;
    axis.cell = lower + 1;
    axis.lower = max(lower, 0);
    axis.upper = min(lower + 1, tiles - 1);
    axis.upperWeight = hd::hdClaheUpperWeight(position);
    axis.lowerWeight = hd::hdClaheLowerWeight(axis.upperWeight);
    return axis;
}

template <class Sample>
__global__ void __launch_bounds__(kBlendThreads) claheBlendKernel(BlendArgs args)
{
    constexpr int kBins = sizeof(Sample) == 1 ? hd::kClaheBins8 : hd::kClaheBins16;
    const std::size_t item = std::size_t(blockIdx.x) * kBlendThreads + threadIdx.x;
    if (item >= std::size_t(args.height) * std::size_t(args.groupsPerRow))
        return;
    const int y = int(item / std::size_t(args.groupsPerRow));
    const int x0 = 4 * int(item - std::size_t(y) * std::size_t(args.groupsPerRow));
    const int count = min(4, args.width - x0);
    const std::size_t rowStart = std::size_t(y) * std::size_t(args.width);
    const Sample* image = static_cast<const Sample*>(args.image) + rowStart;
    Sample* output = static_cast<Sample*>(args.output) + rowStart;
    const bool vector = args.width % 4 == 0;  // then x0 + rowStart is a multiple of 4 and count == 4

    unsigned values[4] = {0, 0, 0, 0};
    if constexpr (sizeof(Sample) == 1) {
        if (vector) {
            const uchar4 v = *reinterpret_cast<const uchar4*>(image + x0);
            values[0] = v.x, values[1] = v.y, values[2] = v.z, values[3] = v.w;
        }
    } else {
        if (vector) {
            const ushort4 v = *reinterpret_cast<const ushort4*>(image + x0);
            values[0] = v.x, values[1] = v.y, values[2] = v.z, values[3] = v.w;
        }
    }
    if (!vector)
        for (int k = 0; k < count; ++k)
            values[k] = image[x0 + k];

    const BlendAxis row = blendAxis(y, args.inverseTileHeight, args.tilesY);
    const std::uint16_t* top = args.luts + std::size_t(row.lower) * std::size_t(args.tilesX) * kBins;
    const std::uint16_t* bottom = args.luts + std::size_t(row.upper) * std::size_t(args.tilesX) * kBins;
    Sample results[4] = {0, 0, 0, 0};
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        if (k < count) {
            const BlendAxis column = blendAxis(x0 + k, args.inverseTileWidth, args.tilesX);
            const std::size_t left = std::size_t(column.lower) * kBins + values[k];
            const std::size_t right = std::size_t(column.upper) * kBins + values[k];
            const float blended = hd::hdClaheBlend(
                float(__ldg(top + left)), float(__ldg(top + right)), float(__ldg(bottom + left)),
                float(__ldg(bottom + right)), column.upperWeight, column.lowerWeight, row.upperWeight, row.lowerWeight);
            results[k] = Sample(hd::hdClaheSaturate(blended, kBins - 1));
        }
    }
    if (vector) {
        if constexpr (sizeof(Sample) == 1)
            *reinterpret_cast<uchar4*>(output + x0) = make_uchar4(results[0], results[1], results[2], results[3]);
        else
            *reinterpret_cast<ushort4*>(output + x0) = make_ushort4(results[0], results[1], results[2], results[3]);
    } else {
        for (int k = 0; k < count; ++k)
            output[x0 + k] = results[k];
    }
}

/// 8-bit blend: a block of 64 x 4 threads covers kPackedColumns columns x kPackedRows rows; a
/// thread takes 4 consecutive columns in every 4th row (kRowsPerThread rows). It loads all its image
/// words first, so that their latency overlaps the table fill's LUT loads. The cells (tile-centre to
/// tile-centre regions) the block overlaps follow from its first and last column and row, as
/// positions are monotonic in x. When there are at most kPackedMaxCells, each cell's four LUT bytes
/// of a level are packed into one shared word (l11 | l12 << 8 | l21 << 16 | l22 << 24): one shared
/// load a pixel. Otherwise (tiles much smaller than the block) the four values come from global
/// memory. 64 rows amortise the fill over 4x more pixels than 16 would; a 1080p frame still makes
/// 8 x 17 = 136 blocks (about one per SM), a 4K one 15 x 34 = 510.
constexpr int kPackedThreadsX = 64;
constexpr int kPackedThreadsY = 4;
constexpr int kPackedColumns = 4 * kPackedThreadsX;
constexpr int kPackedRows = 32;  // 64 (16 rows a thread) measured slower on the H200: 38 against 22.5 us at 4K
constexpr int kRowsPerThread = kPackedRows / kPackedThreadsY;
constexpr int kPackedMaxCells = 12;
static_assert(kPackedThreadsX * kPackedThreadsY == hd::kClaheBins8, "one thread per level fills a cell's table");
static_assert(kPackedRows % kPackedThreadsY == 0, "whole rows per thread");

__global__ void __launch_bounds__(kPackedThreadsX* kPackedThreadsY) claheBlend8Kernel(BlendArgs args)
{
    constexpr int kBins = hd::kClaheBins8;
    __shared__ unsigned table[kPackedMaxCells * kBins];
    const int bx0 = int(blockIdx.x) * kPackedColumns;
    const int by0 = int(blockIdx.y) * kPackedRows;
    const int bx1 = min(bx0 + kPackedColumns, args.width) - 1;
    const int by1 = min(by0 + kPackedRows, args.height) - 1;
    const int x0 = bx0 + 4 * int(threadIdx.x);
    const bool active = x0 < args.width;  // inactive threads still fill the table and pass the barrier
    const int count = min(4, args.width - x0);
    const bool vector = args.width % 4 == 0;  // then every row start and x0 are multiples of 4, count == 4
    const std::uint8_t* input = static_cast<const std::uint8_t*>(args.image);

    // This thread's samples: row by0 + threadIdx.y + 4 j, columns x0 .. x0 + count - 1, byte k = column x0 + k.
    unsigned words[kRowsPerThread];
#pragma unroll
    for (int j = 0; j < kRowsPerThread; ++j) {
        const int y = by0 + int(threadIdx.y) + j * kPackedThreadsY;
        unsigned word = 0;
        if (active && y <= by1) {
            const std::uint8_t* row = input + std::size_t(y) * std::size_t(args.width) + std::size_t(x0);
            if (vector) {
                word = __ldg(reinterpret_cast<const unsigned*>(row));
            } else {
                for (int k = 0; k < count; ++k)
                    word |= unsigned(__ldg(row + k)) << (8 * k);
            }
        }
        words[j] = word;
    }

    const int cellX0 = blendAxis(bx0, args.inverseTileWidth, args.tilesX).cell;
    const int cellsX = blendAxis(bx1, args.inverseTileWidth, args.tilesX).cell - cellX0 + 1;
    const int cellY0 = blendAxis(by0, args.inverseTileHeight, args.tilesY).cell;
    const int cellsY = blendAxis(by1, args.inverseTileHeight, args.tilesY).cell - cellY0 + 1;
    const bool packed = cellsX * cellsY <= kPackedMaxCells;  // block-uniform
    if (packed) {
        const int level = int(threadIdx.y) * kPackedThreadsX + int(threadIdx.x);
        for (int cell = 0; cell < cellsX * cellsY; ++cell) {
            const int cy = cellY0 + cell / cellsX;
            const int cx = cellX0 + cell % cellsX;
            const std::uint16_t* top = args.luts + std::size_t(max(cy - 1, 0)) * std::size_t(args.tilesX) * kBins;
            const std::uint16_t* bottom =
                args.luts + std::size_t(min(cy, args.tilesY - 1)) * std::size_t(args.tilesX) * kBins;
            const int left = max(cx - 1, 0) * kBins + level;
            const int right = min(cx, args.tilesX - 1) * kBins + level;
            table[cell * kBins + level] = unsigned(__ldg(top + left)) | unsigned(__ldg(top + right)) << 8 |
                                          unsigned(__ldg(bottom + left)) << 16 | unsigned(__ldg(bottom + right)) << 24;
        }
        __syncthreads();  // block-uniform condition: every thread of the block is here
    }
    if (!active)
        return;  // no barrier follows

    BlendAxis columns[4];
    int columnOffsets[4];  // (cell column - cellX0) * kBins: the column's part of the table index
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        columns[k] = blendAxis(min(x0 + k, args.width - 1), args.inverseTileWidth, args.tilesX);
        columnOffsets[k] = (columns[k].cell - cellX0) * kBins;
    }
    std::uint8_t* outputImage = static_cast<std::uint8_t*>(args.output);

#pragma unroll
    for (int j = 0; j < kRowsPerThread; ++j) {
        const int y = by0 + int(threadIdx.y) + j * kPackedThreadsY;
        if (y > by1)
            break;  // rows only increase with j
        const BlendAxis row = blendAxis(y, args.inverseTileHeight, args.tilesY);
        const unsigned* tableRow = table + (packed ? (row.cell - cellY0) * cellsX * kBins : 0);
        const std::uint16_t* top = args.luts + std::size_t(row.lower) * std::size_t(args.tilesX) * kBins;
        const std::uint16_t* bottom = args.luts + std::size_t(row.upper) * std::size_t(args.tilesX) * kBins;
        unsigned result = 0;
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            const int value = int((words[j] >> (8 * k)) & 0xffu);
            float l11, l12, l21, l22;
            if (packed) {
                const unsigned word = tableRow[columnOffsets[k] + value];
                l11 = float(word & 0xffu);
                l12 = float((word >> 8) & 0xffu);
                l21 = float((word >> 16) & 0xffu);
                l22 = float(word >> 24);
            } else {
                const int left = columns[k].lower * kBins + value;
                const int right = columns[k].upper * kBins + value;
                l11 = float(__ldg(top + left));
                l12 = float(__ldg(top + right));
                l21 = float(__ldg(bottom + left));
                l22 = float(__ldg(bottom + right));
            }
            const float blended = hd::hdClaheBlend(l11, l12, l21, l22, columns[k].upperWeight, columns[k].lowerWeight,
                                                   row.upperWeight, row.lowerWeight);
            result |= unsigned(hd::hdClaheSaturate(blended, kBins - 1)) << (8 * k);
        }
        std::uint8_t* output = outputImage + std::size_t(y) * std::size_t(args.width) + std::size_t(x0);
        if (vector) {
            *reinterpret_cast<unsigned*>(output) = result;
        } else {
            for (int k = 0; k < count; ++k)
                output[k] = std::uint8_t(result >> (8 * k));
        }
    }
}

double elapsedMs(const Event& from, const Event& to)
{
    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, from.get(), to.get()));
    return double(ms);
}

std::size_t roundUp(std::size_t value, std::size_t multiple)
{
    return (value + multiple - 1) / multiple * multiple;
}

}  // namespace

struct ClaheProgram::Impl
{
    hd::ClaheGeometry geometry;
    bool uploaded = false;
    DeviceBuffer<unsigned char> input;  ///< the image, rounded up to whole 16-byte units (tail zeroed)
    DeviceBuffer<unsigned char> output;
    DeviceBuffer<std::uint32_t> histograms;     ///< working histograms (8-bit: zero between launches)
    DeviceBuffer<std::uint32_t> histogramCopy;  ///< 8-bit: the last launch's histograms (tests)
    DeviceBuffer<std::uint16_t> luts;
    DeviceBuffer<unsigned> tickets;  ///< 8-bit: one per tile, zero between launches
    /// The 8-bit launch's precondition (histograms and tickets zero) may not hold: after an upload
    /// (new buffers or geometry), a 16-bit launch, or a launch that threw before it was enqueued.
    bool needsClear = true;
    Event marks[4];       ///< the stages: before the histograms, before the LUTs, before the blend, after
    Event floorMarks[2];  ///< around the empty kernel

    std::size_t sampleBytes() const { return geometry.bins == hd::kClaheBins8 ? 1 : 2; }
    std::size_t imageBytes() const
    {
        return std::size_t(geometry.width) * std::size_t(geometry.height) * sampleBytes();
    }
    std::size_t tableSize() const { return std::size_t(geometry.tileCount()) * std::size_t(geometry.bins); }

    void check(const hd::ClaheGeometry& g, int bins, const char* what, const void* samples) const;
    void upload(const void* samples, const hd::ClaheGeometry& g);
    ClaheTimings launch(bool readTimings);
    void download(void* result) const;
};

void ClaheProgram::Impl::check(const hd::ClaheGeometry& g, int bins, const char* what, const void* samples) const
{
    const std::string name = std::string("CLAHE (CUDA) ") + what + ": ";
    if (g.bins != bins)
        throw std::invalid_argument(name + "geometry.bins must be " + std::to_string(bins) + ", not " +
                                    std::to_string(g.bins));
    if (g.width <= 0 || g.height <= 0)
        throw std::invalid_argument(name + "empty image (" + std::to_string(g.width) + "x" + std::to_string(g.height) +
                                    ")");
    if (g.tilesX < 1 || g.tilesX > hd::kClaheMaxTiles || g.tilesY < 1 || g.tilesY > hd::kClaheMaxTiles)
        throw std::invalid_argument(name + "tile grid " + std::to_string(g.tilesX) + "x" + std::to_string(g.tilesY) +
                                    " outside 1.." + std::to_string(hd::kClaheMaxTiles) + " a side");
    if (g.tileWidth < 1 || g.tileHeight < 1 || g.paddedWidth != g.tileWidth * g.tilesX ||
        g.paddedHeight != g.tileHeight * g.tilesY || g.paddedWidth < g.width || g.paddedHeight < g.height)
        throw std::invalid_argument(name + "inconsistent geometry (use hd::claheGeometry)");
    if (double(g.tileWidth) * double(g.tileHeight) >= 2147483648.0)
        throw std::invalid_argument(name + "tile area of 2^31 pixels or more");
    if (samples == nullptr)
        throw std::invalid_argument(name + "no samples");
}

void ClaheProgram::Impl::upload(const void* samples, const hd::ClaheGeometry& g)
{
    // Buffers first: if an allocation throws, the program keeps no geometry its buffers cannot hold.
    uploaded = false;
    const std::size_t bytes = std::size_t(g.width) * std::size_t(g.height) * (g.bins == hd::kClaheBins8 ? 1 : 2);
    const std::size_t padded = roundUp(bytes, kUnitBytes);
    const std::size_t table = std::size_t(g.tileCount()) * std::size_t(g.bins);
    needsClear = true;
    input.reserve(padded);
    output.reserve(padded);
    histograms.reserve(table);
    histogramCopy.reserve(g.bins == hd::kClaheBins8 ? table : 0);
    luts.reserve(table);
    tickets.reserve(std::size_t(g.tileCount()));
    geometry = g;
    const cudaStream_t stream = CudaContext::instance().stream();
    CUDA_CHECK(cudaMemcpyAsync(input.data(), samples, bytes, cudaMemcpyHostToDevice, stream));
    if (padded > bytes)  // read by the histogram's last units (masked), never counted
        CUDA_CHECK(cudaMemsetAsync(input.data() + bytes, 0, padded - bytes, stream));
    uploaded = true;
}

ClaheTimings ClaheProgram::Impl::launch(bool readTimings)
{
    const hd::ClaheGeometry& g = geometry;
    const cudaStream_t stream = CudaContext::instance().stream();
    const bool eight = g.bins == hd::kClaheBins8;

    HistogramArgs h{};
    h.image = input.data();
    h.histograms = histograms.data();
    h.histogramCopy = eight ? histogramCopy.data() : nullptr;
    h.luts = luts.data();
    h.tickets = tickets.data();
    h.width = g.width;
    h.height = g.height;
    h.tilesX = g.tilesX;
    h.tileWidth = g.tileWidth;
    h.tileHeight = g.tileHeight;
    const int slabPixels = eight ? kSlabPixels8 : kSlabPixels16;
    h.slabRows = std::min(g.tileHeight, std::max(1, (slabPixels + g.tileWidth - 1) / g.tileWidth));
    h.slabsPerTile = (g.tileHeight + h.slabRows - 1) / h.slabRows;
    h.clipLimit = g.clipLimit;
    h.lutScale = g.lutScale;
    const unsigned histogramBlocks = unsigned(g.tileCount()) * unsigned(h.slabsPerTile);

    BlendArgs b{};
    b.image = input.data();
    b.output = output.data();
    b.luts = luts.data();
    b.width = g.width;
    b.height = g.height;
    b.tilesX = g.tilesX;
    b.tilesY = g.tilesY;
    b.inverseTileWidth = g.inverseTileWidth;
    b.inverseTileHeight = g.inverseTileHeight;
    b.groupsPerRow = (g.width + 3) / 4;
    const std::size_t blendItems = std::size_t(g.height) * std::size_t(b.groupsPerRow);
    const unsigned blendBlocks = unsigned((blendItems + kBlendThreads - 1) / kBlendThreads);
    const dim3 packedGrid(unsigned((g.width + kPackedColumns - 1) / kPackedColumns),
                          unsigned((g.height + kPackedRows - 1) / kPackedRows));

    if (readTimings) {  // the launch floor: what an empty kernel costs between two events
        CUDA_CHECK(cudaEventRecord(floorMarks[0].get(), stream));
        claheEmptyKernel<<<1, 32, 0, stream>>>();
        CUDA_CHECK_LAUNCH("claheEmptyKernel");
        CUDA_CHECK(cudaEventRecord(floorMarks[1].get(), stream));
    }
    if (eight) {
        if (needsClear) {  // untimed: only the first launch after an upload (or a failure) clears
            CUDA_CHECK(cudaMemsetAsync(histograms.data(), 0, tableSize() * sizeof(std::uint32_t), stream));
            CUDA_CHECK(cudaMemsetAsync(tickets.data(), 0, std::size_t(g.tileCount()) * sizeof(unsigned), stream));
        }
        needsClear = true;  // until the launches below are enqueued
        CUDA_CHECK(cudaEventRecord(marks[0].get(), stream));
        claheHistogramLut8Kernel<<<histogramBlocks, kHistogram8Threads, 0, stream>>>(h);
        CUDA_CHECK_LAUNCH("claheHistogramLut8Kernel");
        CUDA_CHECK(cudaEventRecord(marks[1].get(), stream));
        claheBlend8Kernel<<<packedGrid, dim3(kPackedThreadsX, kPackedThreadsY), 0, stream>>>(b);
        CUDA_CHECK_LAUNCH("claheBlend8Kernel");
        CUDA_CHECK(cudaEventRecord(marks[3].get(), stream));
        needsClear = false;  // the kernel leaves histograms and tickets zero
    } else {
        needsClear = true;  // the 16-bit launch leaves its histograms in the buffer
        CUDA_CHECK(cudaEventRecord(marks[0].get(), stream));
        CUDA_CHECK(cudaMemsetAsync(histograms.data(), 0, tableSize() * sizeof(std::uint32_t), stream));
        claheHistogram16Kernel<<<histogramBlocks, kHistogram16Threads, 0, stream>>>(h);
        CUDA_CHECK_LAUNCH("claheHistogram16Kernel");
        CUDA_CHECK(cudaEventRecord(marks[1].get(), stream));
        claheLutKernel<hd::kClaheBins16, 1024>
            <<<unsigned(g.tileCount()), 1024, 0, stream>>>(histograms.data(), luts.data(), g.clipLimit, g.lutScale);
        CUDA_CHECK_LAUNCH("claheLutKernel");
        CUDA_CHECK(cudaEventRecord(marks[2].get(), stream));
        claheBlendKernel<std::uint16_t><<<blendBlocks, kBlendThreads, 0, stream>>>(b);
        CUDA_CHECK_LAUNCH("claheBlendKernel");
        CUDA_CHECK(cudaEventRecord(marks[3].get(), stream));
    }

    ClaheTimings timings;
    if (readTimings) {
        CUDA_CHECK(cudaEventSynchronize(marks[3].get()));
        timings.histogramMs = elapsedMs(marks[0], marks[1]);
        timings.lutMs = eight ? 0.0 : elapsedMs(marks[1], marks[2]);  // 8-bit: folded into the histograms
        timings.blendMs = elapsedMs(eight ? marks[1] : marks[2], marks[3]);
        timings.launchFloorMs = elapsedMs(floorMarks[0], floorMarks[1]);
    }
    return timings;
}

void ClaheProgram::Impl::download(void* result) const
{
    const cudaStream_t stream = CudaContext::instance().stream();
    CUDA_CHECK(cudaMemcpyAsync(result, output.data(), imageBytes(), cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
}

ClaheProgram::ClaheProgram() : mImpl(std::make_unique<Impl>())
{
    for (Event& mark : mImpl->marks)
        mark = Event::create();
    for (Event& mark : mImpl->floorMarks)
        mark = Event::create();
}

ClaheProgram::~ClaheProgram() = default;

std::vector<std::uint8_t> ClaheProgram::run8(const std::uint8_t* samples,
                                             const hd::ClaheGeometry& geometry,
                                             ClaheTimings* timings)
{
    mImpl->check(geometry, hd::kClaheBins8, "run8", samples);
    mImpl->upload(samples, geometry);
    const ClaheTimings measured = mImpl->launch(timings != nullptr);
    std::vector<std::uint8_t> result(std::size_t(geometry.width) * std::size_t(geometry.height));
    mImpl->download(result.data());
    if (timings)
        *timings = measured;
    return result;
}

std::vector<std::uint16_t> ClaheProgram::run16(const std::uint16_t* samples,
                                               const hd::ClaheGeometry& geometry,
                                               ClaheTimings* timings)
{
    mImpl->check(geometry, hd::kClaheBins16, "run16", samples);
    mImpl->upload(samples, geometry);
    const ClaheTimings measured = mImpl->launch(timings != nullptr);
    std::vector<std::uint16_t> result(std::size_t(geometry.width) * std::size_t(geometry.height));
    mImpl->download(result.data());
    if (timings)
        *timings = measured;
    return result;
}

ClaheTimings ClaheProgram::rerun()
{
    if (!mImpl->uploaded)
        throw std::logic_error("CLAHE (CUDA) rerun: no image uploaded (call run8 or run16 first)");
    return mImpl->launch(true);
}

std::vector<std::uint32_t> ClaheProgram::readTileHistograms() const
{
    std::vector<std::uint32_t> values(mImpl->uploaded ? mImpl->tableSize() : 0);
    CUDA_CHECK(cudaStreamSynchronize(CudaContext::instance().stream()));
    if (!values.empty())
        CUDA_CHECK(cudaMemcpyAsync(
            values.data(), mImpl->sampleBytes() == 1 ? mImpl->histogramCopy.data() : mImpl->histograms.data(),
            values.size() * sizeof(std::uint32_t), cudaMemcpyDeviceToHost, CudaContext::instance().stream()));
    CUDA_CHECK(cudaStreamSynchronize(CudaContext::instance().stream()));
    return values;
}

std::vector<std::uint16_t> ClaheProgram::readLuts() const
{
    std::vector<std::uint16_t> values(mImpl->uploaded ? mImpl->tableSize() : 0);
    CUDA_CHECK(cudaStreamSynchronize(CudaContext::instance().stream()));
    if (!values.empty())
        CUDA_CHECK(cudaMemcpyAsync(values.data(), mImpl->luts.data(), values.size() * sizeof(std::uint16_t),
                                   cudaMemcpyDeviceToHost, CudaContext::instance().stream()));
    CUDA_CHECK(cudaStreamSynchronize(CudaContext::instance().stream()));
    return values;
}

std::vector<std::uint8_t> ClaheProgram::readImage8() const
{
    if (!mImpl->uploaded || mImpl->sampleBytes() != 1)
        throw std::logic_error("CLAHE (CUDA) readImage8: the last run was not an 8-bit one");
    std::vector<std::uint8_t> values(std::size_t(mImpl->geometry.width) * std::size_t(mImpl->geometry.height));
    mImpl->download(values.data());
    return values;
}

std::vector<std::uint16_t> ClaheProgram::readImage16() const
{
    if (!mImpl->uploaded || mImpl->sampleBytes() != 2)
        throw std::logic_error("CLAHE (CUDA) readImage16: the last run was not a 16-bit one");
    std::vector<std::uint16_t> values(std::size_t(mImpl->geometry.width) * std::size_t(mImpl->geometry.height));
    mImpl->download(values.data());
    return values;
}

}  // namespace cuda
