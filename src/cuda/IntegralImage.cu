// IntegralImage.cu: the kernels of IntegralImage.h (row scan with the Blelloch segment scan,
// segment-offset add, padded tiled transpose, column chunk sums / carried column pass) and their
// host sequencing.
#include "cuda/IntegralImage.h"

#include <algorithm>
#include <stdexcept>
#include <string>

// float4 arithmetic for the generic scans (global namespace, found by argument-dependent lookup).
__device__ __forceinline__ float4 operator+(const float4& a, const float4& b)
{
    return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}
__device__ __forceinline__ float4& operator+=(float4& a, const float4& b)
{
    a = a + b;
    return a;
}

#include "cuda/BlellochScan.cuh"

namespace cuda {

namespace {

constexpr int kSegment = 1024;        ///< elements per row segment
constexpr int kSegmentThreads = 512;  ///< 2 elements per thread (Bilgic: 512 with 256 threads)
constexpr int kTileDim = 32;          ///< transpose tile
constexpr int kTileRows = 8;
constexpr int kColumnChunk = 64;  ///< rows per column chunk (transpose-free pass)
constexpr int kColumnThreads = 256;

template <typename T, bool kInclusive>
__global__ void __launch_bounds__(kSegmentThreads)
    rowScanKernel(const T* in, T* out, int width, T* segmentTotals, int segments)
{
    __shared__ T shared[kSegment + scan_detail::conflictFreeOffset(kSegment - 1)];
    const unsigned tid = threadIdx.x;
    const std::size_t rowBase = std::size_t(blockIdx.y) * std::size_t(width);
    const int x0 = int(blockIdx.x) * kSegment;
    for (unsigned i = tid; i < unsigned(kSegment); i += kSegmentThreads) {
        const int x = x0 + int(i);
        shared[i + scan_detail::conflictFreeOffset(i)] = x < width ? in[rowBase + std::size_t(x)] : T{};
    }
    const T total = scan_detail::blellochExclusiveInShared<kSegmentThreads>(shared, kSegment);
    for (unsigned i = tid; i < unsigned(kSegment); i += kSegmentThreads) {
        const int x = x0 + int(i);
        if (x >= width)
            continue;
        T value;
        if constexpr (kInclusive) {
            const unsigned next = i + 1;
            value = next < unsigned(kSegment) ? shared[next + scan_detail::conflictFreeOffset(next)] : total;
        } else {
            value = shared[i + scan_detail::conflictFreeOffset(i)];
        }
        out[rowBase + std::size_t(x)] = value;
    }
    if (segmentTotals != nullptr && tid == 0)
        segmentTotals[std::size_t(blockIdx.y) * std::size_t(segments) + blockIdx.x] = total;
}

template <typename T>
__global__ void addSegmentOffsetsKernel(T* out, int width, const T* segmentOffsets, int segments)
{
    const int x = int(blockIdx.x * blockDim.x + threadIdx.x) + kSegment;
    if (x >= width)
        return;
    const std::size_t y = blockIdx.y;
    out[y * std::size_t(width) + std::size_t(x)] +=
        segmentOffsets[y * std::size_t(segments) + std::size_t(x / kSegment)];
}

/// out (width rows of height) = transpose of in (height rows of width); 32x32 tiles padded by one
/// column so the column reads hit 32 different banks (Bilgic's transpose, after the CUDA SDK).
template <typename T>
__global__ void transposeKernel(const T* in, T* out, int width, int height)
{
    __shared__ T tile[kTileDim][kTileDim + 1];
    int x = int(blockIdx.x) * kTileDim + int(threadIdx.x);
    int y = int(blockIdx.y) * kTileDim + int(threadIdx.y);
    for (int j = 0; j < kTileDim; j += kTileRows)
        if (x < width && y + j < height)
            tile[threadIdx.y + j][threadIdx.x] = in[std::size_t(y + j) * std::size_t(width) + std::size_t(x)];
    __syncthreads();
    x = int(blockIdx.y) * kTileDim + int(threadIdx.x);
    y = int(blockIdx.x) * kTileDim + int(threadIdx.y);
    for (int j = 0; j < kTileDim; j += kTileRows)
        if (x < height && y + j < width)
            out[std::size_t(y + j) * std::size_t(height) + std::size_t(x)] = tile[threadIdx.x][threadIdx.y + j];
}

/// chunkSums[c * width + x] = sum of rows [c*64, c*64+64) of column x.
template <typename T>
__global__ void columnChunkSumsKernel(const T* data, int width, int height, T* chunkSums)
{
    const int x = int(blockIdx.x * blockDim.x + threadIdx.x);
    if (x >= width)
        return;
    const int y0 = int(blockIdx.y) * kColumnChunk;
    const int y1 = min(height, y0 + kColumnChunk);
    T sum{};
    for (int y = y0; y < y1; ++y)
        sum += data[std::size_t(y) * std::size_t(width) + std::size_t(x)];
    chunkSums[std::size_t(blockIdx.y) * std::size_t(width) + std::size_t(x)] = sum;
}

/// In place: chunkSums of each column become the exclusive prefix over chunks (the carry-in).
template <typename T>
__global__ void columnChunkOffsetsKernel(T* chunkSums, int width, int chunks)
{
    const int x = int(blockIdx.x * blockDim.x + threadIdx.x);
    if (x >= width)
        return;
    T carry{};
    for (int c = 0; c < chunks; ++c) {
        T& slot = chunkSums[std::size_t(c) * std::size_t(width) + std::size_t(x)];
        const T sum = slot;
        slot = carry;
        carry += sum;
    }
}

/// In place: each column of a chunk becomes its (inclusive or exclusive) running sum plus the carry.
template <typename T, bool kInclusive>
__global__ void columnCarryKernel(T* data, int width, int height, const T* chunkOffsets)
{
    const int x = int(blockIdx.x * blockDim.x + threadIdx.x);
    if (x >= width)
        return;
    const int y0 = int(blockIdx.y) * kColumnChunk;
    const int y1 = min(height, y0 + kColumnChunk);
    T carry = chunkOffsets[std::size_t(blockIdx.y) * std::size_t(width) + std::size_t(x)];
    for (int y = y0; y < y1; ++y) {
        T& element = data[std::size_t(y) * std::size_t(width) + std::size_t(x)];
        const T value = element;
        if constexpr (kInclusive) {
            carry += value;
            element = carry;
        } else {
            element = carry;
            carry += value;
        }
    }
}

std::size_t alignUp(std::size_t bytes)
{
    return (bytes + 255) / 256 * 256;
}

/// Scans every row of a (height x width) image; `scratch` holds 2 * height * segments elements.
template <typename T>
void scanRows(const T* in, T* out, int width, int height, bool inclusive, T* scratch, cudaStream_t stream)
{
    const int segments = (width + kSegment - 1) / kSegment;
    T* totals = segments > 1 ? scratch : nullptr;
    const dim3 grid{unsigned(segments), unsigned(height)};
    if (inclusive)
        rowScanKernel<T, true><<<grid, kSegmentThreads, 0, stream>>>(in, out, width, totals, segments);
    else
        rowScanKernel<T, false><<<grid, kSegmentThreads, 0, stream>>>(in, out, width, totals, segments);
    CUDA_CHECK_LAUNCH("rowScanKernel");
    if (segments == 1)
        return;
    T* offsets = scratch + std::size_t(height) * std::size_t(segments);
    rowScanKernel<T, false>
        <<<dim3(1, unsigned(height)), kSegmentThreads, 0, stream>>>(totals, offsets, segments, nullptr, 1);
    CUDA_CHECK_LAUNCH("rowScanKernel (segment totals)");
    const dim3 addGrid(unsigned((width - kSegment + 255) / 256), unsigned(height));
    addSegmentOffsetsKernel<T><<<addGrid, 256, 0, stream>>>(out, width, offsets, segments);
    CUDA_CHECK_LAUNCH("addSegmentOffsetsKernel");
}

template <typename T>
void transpose(const T* in, T* out, int width, int height, cudaStream_t stream)
{
    const dim3 grid(unsigned((width + kTileDim - 1) / kTileDim), unsigned((height + kTileDim - 1) / kTileDim));
    transposeKernel<T><<<grid, dim3(kTileDim, kTileRows), 0, stream>>>(in, out, width, height);
    CUDA_CHECK_LAUNCH("transposeKernel");
}

template <typename T>
void integralImageImpl(IntegralMethod method,
                       const T* in,
                       T* out,
                       int width,
                       int height,
                       IntegralLayout layout,
                       cudaStream_t stream,
                       DeviceScratch& workspace)
{
    if (width <= 0 || height <= 0)
        return;
    if (width > 65535 || height > 65535)
        throw std::invalid_argument("integralImage: width and height must be at most 65535");
    if (in == nullptr || out == nullptr || static_cast<const void*>(in) == static_cast<const void*>(out))
        throw std::invalid_argument("integralImage: need distinct input and output");
    const bool inclusive = layout == IntegralLayout::Inclusive;
    const std::size_t pixels = std::size_t(width) * std::size_t(height);
    const std::size_t maxSegments = std::size_t((std::max(width, height) + kSegment - 1) / kSegment);
    const std::size_t segmentScratch = 2 * std::size_t(std::max(width, height)) * maxSegments;

    if (method == IntegralMethod::BilgicTranspose) {
        const std::size_t imageBytes = alignUp(pixels * sizeof(T));
        auto* base =
            static_cast<unsigned char*>(workspace.reserve(2 * imageBytes + alignUp(segmentScratch * sizeof(T))));
        T* rows = reinterpret_cast<T*>(base);
        T* transposed = reinterpret_cast<T*>(base + imageBytes);
        T* scratch = reinterpret_cast<T*>(base + 2 * imageBytes);
        scanRows(in, rows, width, height, inclusive, scratch, stream);
        transpose(rows, transposed, width, height, stream);
        scanRows(transposed, rows, height, width, inclusive, scratch, stream);  // rows of the transpose = columns
        transpose(rows, out, height, width, stream);
        return;
    }

    const int chunks = (height + kColumnChunk - 1) / kColumnChunk;
    const std::size_t chunkBytes = alignUp(std::size_t(chunks) * std::size_t(width) * sizeof(T));
    auto* base = static_cast<unsigned char*>(workspace.reserve(chunkBytes + alignUp(segmentScratch * sizeof(T))));
    T* chunkSums = reinterpret_cast<T*>(base);
    T* scratch = reinterpret_cast<T*>(base + chunkBytes);
    scanRows(in, out, width, height, inclusive, scratch, stream);
    const unsigned columnsGrid = unsigned((width + kColumnThreads - 1) / kColumnThreads);
    columnChunkSumsKernel<T>
        <<<dim3(columnsGrid, unsigned(chunks)), kColumnThreads, 0, stream>>>(out, width, height, chunkSums);
    CUDA_CHECK_LAUNCH("columnChunkSumsKernel");
    columnChunkOffsetsKernel<T><<<columnsGrid, kColumnThreads, 0, stream>>>(chunkSums, width, chunks);
    CUDA_CHECK_LAUNCH("columnChunkOffsetsKernel");
    if (inclusive)
        columnCarryKernel<T, true>
            <<<dim3(columnsGrid, unsigned(chunks)), kColumnThreads, 0, stream>>>(out, width, height, chunkSums);
    else
        columnCarryKernel<T, false>
            <<<dim3(columnsGrid, unsigned(chunks)), kColumnThreads, 0, stream>>>(out, width, height, chunkSums);
    CUDA_CHECK_LAUNCH("columnCarryKernel");
}

}  // namespace

std::string_view integralMethodName(IntegralMethod method)
{
    return method == IntegralMethod::BilgicTranspose ? "bilgic-transpose" : "transpose-free";
}

void integralImage(IntegralMethod method,
                   const float* in,
                   float* out,
                   int width,
                   int height,
                   IntegralLayout layout,
                   cudaStream_t stream,
                   DeviceScratch& workspace)
{
    integralImageImpl(method, in, out, width, height, layout, stream, workspace);
}

void integralImage(IntegralMethod method,
                   const float4* in,
                   float4* out,
                   int width,
                   int height,
                   IntegralLayout layout,
                   cudaStream_t stream,
                   DeviceScratch& workspace)
{
    integralImageImpl(method, in, out, width, height, layout, stream, workspace);
}

void integralImage(IntegralMethod method,
                   const double* in,
                   double* out,
                   int width,
                   int height,
                   IntegralLayout layout,
                   cudaStream_t stream,
                   DeviceScratch& workspace)
{
    integralImageImpl(method, in, out, width, height, layout, stream, workspace);
}

}  // namespace cuda
