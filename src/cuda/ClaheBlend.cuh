// ClaheBlend.cuh: the CLAHE blend kernels of cuda/Clahe.cu (the file comment there describes them);
// included by Clahe.cu only. kBits selects the conversion-free arithmetic (shared/Clahe.h's
// hdClaheSmallFloat and hdClaheSaturateBits: float adds and integer operations where the plain form
// takes six int/float conversions a pixel, which an H200 SM issues at 16 a clock against 128 float
// adds); both give the same bytes (ClaheSteps.ConversionFreeFormsEqualThePlainOnes proves the
// functions equal, the CUDA tests run both kernels).
#pragma once

#include "cuda/ClaheHistogram.cuh"
#include "shared/Clahe.h"

#include <cstddef>
#include <cstdint>

namespace cuda::clahe_kernels {

constexpr int kBlendThreads = 256;

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

/// A LUT value (at most 65535) as a float: a conversion instruction (kBits false) or the exact
/// conversion-free form (shared/Clahe.h's hdClaheSmallFloat).
template <bool kBits>
__device__ __forceinline__ float lutFloat(unsigned value)
{
    if constexpr (kBits)
        return hd::hdClaheSmallFloat(value);
    else
        return float(value);
}

/// Byte k of `word` as a float: with kBits, one byte permute builds 0x4B0000bb (2^23 + byte) and one
/// exact subtract removes 2^23 (hdClaheSmallFloat of the byte, bit for bit).
template <bool kBits>
__device__ __forceinline__ float byteFloat(unsigned word, int k)
{
    if constexpr (kBits)
        return __fsub_rn(__uint_as_float(__byte_perm(word, 0x4B000000u, 0x7440u | unsigned(k))), 8388608.0f);
    else
        return float((word >> (8 * k)) & 0xffu);
}

/// saturate_cast of a blended value: hdClaheSaturate, or its conversion-free equal hdClaheSaturateBits.
template <bool kBits>
__device__ __forceinline__ int saturateBlend(float value, int maxValue)
{
    if constexpr (kBits)
        return hd::hdClaheSaturateBits(value, maxValue);
    else
        return hd::hdClaheSaturate(value, maxValue);
}

template <class Sample, bool kBits>
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
            const float blended =
                hd::hdClaheBlend(lutFloat<kBits>(__ldg(top + left)), lutFloat<kBits>(__ldg(top + right)),
                                 lutFloat<kBits>(__ldg(bottom + left)), lutFloat<kBits>(__ldg(bottom + right)),
                                 column.upperWeight, column.lowerWeight, row.upperWeight, row.lowerWeight);
            results[k] = Sample(saturateBlend<kBits>(blended, kBins - 1));
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

/// The LUT entry at `p`: through the read-only cache, or (kFused: the LUTs were written by this
/// launch) from L2.
template <bool kFused>
__device__ __forceinline__ unsigned lutLoad(const std::uint16_t* p)
{
    if constexpr (kFused)
        return __ldcg(p);
    else
        return __ldg(p);
}

/// Waits until `flag` holds `epoch` (set by the tile's last histogram block in this launch). 2^22
/// polls (each an L2 round trip plus 64 ns: about 3 s, never under 0.25 s) are a bug, not a wait:
/// the launch fails (a trap) rather than hang the GPU. A legitimate wait is at most the histogram
/// phase of one launch (microseconds to a millisecond).
__device__ __forceinline__ void waitForFlag(unsigned* flag, unsigned epoch)
{
    unsigned spins = 0;
    while (atomicOr(flag, 0u) != epoch) {
        __nanosleep(64);
        if (++spins > (1u << 22))
            __trap();
    }
}

/// The 8-bit blend of block (blockX, blockY), thread (tx, ty) of 64 x 4, `table` kPackedMaxCells x
/// 256 shared words. kFused (the single launch): first waits for the LUT flags of the tiles the block
/// reads, and reads the LUTs from L2.
template <bool kBits, bool kFused>
__device__ __forceinline__ void
blend8Block(const BlendArgs& args, int blockX, int blockY, int tx, int ty, unsigned* table, LutFlags flags)
{
    constexpr int kBins = hd::kClaheBins8;
    const int bx0 = blockX * kPackedColumns;
    const int by0 = blockY * kPackedRows;
    const int bx1 = min(bx0 + kPackedColumns, args.width) - 1;
    const int by1 = min(by0 + kPackedRows, args.height) - 1;
    const int x0 = bx0 + 4 * tx;
    const bool active = x0 < args.width;  // inactive threads still fill the table and pass the barrier
    const int count = min(4, args.width - x0);
    const bool vector = args.width % 4 == 0;  // then every row start and x0 are multiples of 4, count == 4
    const std::uint8_t* input = static_cast<const std::uint8_t*>(args.image);

    // This thread's samples: row by0 + ty + 4 j, columns x0 .. x0 + count - 1, byte k = column x0 + k.
    unsigned words[kRowsPerThread];
#pragma unroll
    for (int j = 0; j < kRowsPerThread; ++j) {
        const int y = by0 + ty + j * kPackedThreadsY;
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
    if constexpr (kFused) {
        // The tiles the block reads: rows cellY0 - 1 .. cellY0 + cellsY - 1, columns likewise (clamped).
        const int tileY0 = max(cellY0 - 1, 0), tileY1 = min(cellY0 + cellsY - 1, args.tilesY - 1);
        const int tileX0 = max(cellX0 - 1, 0), tileX1 = min(cellX0 + cellsX - 1, args.tilesX - 1);
        const int spanX = tileX1 - tileX0 + 1;
        const int waits = (tileY1 - tileY0 + 1) * spanX;
        for (int i = ty * kPackedThreadsX + tx; i < waits; i += kPackedThreadsX * kPackedThreadsY)
            waitForFlag(flags.lutReady + (tileY0 + i / spanX) * args.tilesX + tileX0 + i % spanX, flags.epoch);
        __threadfence();  // acquire: the LUT loads below come after the flags were seen
        __syncthreads();
    }
    if (packed) {
        const int level = ty * kPackedThreadsX + tx;
        for (int cell = 0; cell < cellsX * cellsY; ++cell) {
            const int cy = cellY0 + cell / cellsX;
            const int cx = cellX0 + cell % cellsX;
            const std::uint16_t* top = args.luts + std::size_t(max(cy - 1, 0)) * std::size_t(args.tilesX) * kBins;
            const std::uint16_t* bottom =
                args.luts + std::size_t(min(cy, args.tilesY - 1)) * std::size_t(args.tilesX) * kBins;
            const int left = max(cx - 1, 0) * kBins + level;
            const int right = min(cx, args.tilesX - 1) * kBins + level;
            table[cell * kBins + level] = lutLoad<kFused>(top + left) | lutLoad<kFused>(top + right) << 8 |
                                          lutLoad<kFused>(bottom + left) << 16 | lutLoad<kFused>(bottom + right) << 24;
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
        const int y = by0 + ty + j * kPackedThreadsY;
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
                l11 = byteFloat<kBits>(word, 0);
                l12 = byteFloat<kBits>(word, 1);
                l21 = byteFloat<kBits>(word, 2);
                l22 = byteFloat<kBits>(word, 3);
            } else {
                const int left = columns[k].lower * kBins + value;
                const int right = columns[k].upper * kBins + value;
                l11 = lutFloat<kBits>(lutLoad<kFused>(top + left));
                l12 = lutFloat<kBits>(lutLoad<kFused>(top + right));
                l21 = lutFloat<kBits>(lutLoad<kFused>(bottom + left));
                l22 = lutFloat<kBits>(lutLoad<kFused>(bottom + right));
            }
            const float blended = hd::hdClaheBlend(l11, l12, l21, l22, columns[k].upperWeight, columns[k].lowerWeight,
                                                   row.upperWeight, row.lowerWeight);
            result |= unsigned(saturateBlend<kBits>(blended, kBins - 1)) << (8 * k);
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

template <bool kBits>
__global__ void __launch_bounds__(kPackedThreadsX* kPackedThreadsY) claheBlend8Kernel(BlendArgs args)
{
    __shared__ unsigned table[kPackedMaxCells * hd::kClaheBins8];
    blend8Block<kBits, false>(args, int(blockIdx.x), int(blockIdx.y), int(threadIdx.x), int(threadIdx.y), table,
                              LutFlags{nullptr, 0u});
}

/// The single-launch variant's work order (ClaheVariant::singleLaunch8).
struct FusedArgs
{
    unsigned* workCounter;  ///< taken by every block; counts on across launches (mod 2^32)
    unsigned workBase;      ///< its value when this launch began
    unsigned histogramItems;
    unsigned blendBlocksX;  ///< blend items are row-major blocks of kPackedColumns x kPackedRows
    LutFlags flags;
};

constexpr int kFusedThreads = kPackedThreadsX * kPackedThreadsY;
static_assert((kFusedThreads / 32) * kReplicaStride <= kPackedMaxCells * hd::kClaheBins8, "shared memory reused");

/// 8-bit CLAHE in one launch: each block takes the next work item from a global counter, so every
/// histogram item (tile-major, as claheHistogramLut8Kernel's blocks, 256 threads) is taken before any
/// blend item (row-major blocks, as claheBlend8Kernel's); a blend block waits only for the LUTs of
/// its own tiles, which blocks that are already running will write, so the waits cannot deadlock
/// whatever the number of resident blocks, and the blend of the top rows overlaps the histograms of
/// the bottom tiles. One launch instead of two: the launch floor is paid once.
template <bool kBits>
__global__ void __launch_bounds__(kFusedThreads) claheFused8Kernel(HistogramArgs h, BlendArgs b, FusedArgs f)
{
    __shared__ unsigned shared[kPackedMaxCells * hd::kClaheBins8];  // replicas, then (blend) the table
    __shared__ unsigned item;
    __shared__ unsigned ticket;
    if (threadIdx.x == 0)
        item = atomicAdd(f.workCounter, 1u) - f.workBase;
    __syncthreads();
    const unsigned work = item;
    if (work < f.histogramItems) {
        histogramLut8<kFusedThreads>(h, int(work), shared, ticket, f.flags);
        return;
    }
    const unsigned blendItem = work - f.histogramItems;
    blend8Block<kBits, true>(b, int(blendItem % f.blendBlocksX), int(blendItem / f.blendBlocksX),
                             int(threadIdx.x) % kPackedThreadsX, int(threadIdx.x) / kPackedThreadsX, shared, f.flags);
}

}  // namespace cuda::clahe_kernels
