// Scan.cu: the tile-scan kernels of every algorithm (one template instantiated per algorithm,
// block size and type), the "add the scanned tile totals" kernel, and the host dispatch that
// scans inputs of any length as tiles + recursively scanned tile totals (Bilgic et al. Fig. 3).
#include "cuda/Scan.h"

#include "cuda/BlellochScan.cuh"
#include "cuda/BrentKungScan.cuh"
#include "cuda/KoggeStoneDoubleBufferScan.cuh"
#include "cuda/KoggeStoneScan.cuh"
#include "cuda/WarpShuffleScan.cuh"

#include <stdexcept>
#include <string>

namespace cuda {

namespace {

constexpr unsigned kTile = unsigned(kScanTile);

template <ScanAlgorithm Algorithm, int BLOCK, typename T>
__global__ void __launch_bounds__(BLOCK)
    scanTilesKernel(const T* in, T* out, std::size_t n, T* tileTotals, bool listingBug)
{
    const std::size_t base = std::size_t(blockIdx.x) * kTile;
    const unsigned count = unsigned(n - base < kTile ? n - base : kTile);
    T total;
    if constexpr (Algorithm == ScanAlgorithm::KoggeStone)
        total = scan_detail::koggeStoneTileScan<BLOCK, kTile>(in + base, out + base, count);
    else if constexpr (Algorithm == ScanAlgorithm::KoggeStoneDoubleBuffer)
        total = scan_detail::koggeStoneDoubleBufferTileScan<BLOCK, kTile>(in + base, out + base, count, listingBug);
    else if constexpr (Algorithm == ScanAlgorithm::BrentKung)
        total = scan_detail::brentKungTileScan<BLOCK, kTile>(in + base, out + base, count);
    else if constexpr (Algorithm == ScanAlgorithm::Blelloch)
        total = scan_detail::blellochTileScan<BLOCK, kTile>(in + base, out + base, count);
    else
        total = scan_detail::warpShuffleTileScan<BLOCK, kTile>(in + base, out + base, count);
    if (tileTotals != nullptr && threadIdx.x == 0)
        tileTotals[blockIdx.x] = total;
}

/// out[i] += scannedTotals[tile(i) - 1] for every element past the first tile.
template <typename T>
__global__ void addTileOffsetsKernel(T* out, std::size_t n, const T* scannedTotals)
{
    const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
    for (std::size_t i = kTile + std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
        out[i] += scannedTotals[i / kTile - 1];
}

template <ScanAlgorithm Algorithm, typename T>
void launchTiles(int block, const T* in, T* out, std::size_t n, T* tileTotals, bool listingBug, cudaStream_t stream)
{
    const unsigned tiles = unsigned((n + kTile - 1) / kTile);
    switch (block) {
        case 256:
            scanTilesKernel<Algorithm, 256, T><<<tiles, 256, 0, stream>>>(in, out, n, tileTotals, listingBug);
            break;
        case 512:
            scanTilesKernel<Algorithm, 512, T><<<tiles, 512, 0, stream>>>(in, out, n, tileTotals, listingBug);
            break;
        case 1024:
            scanTilesKernel<Algorithm, 1024, T><<<tiles, 1024, 0, stream>>>(in, out, n, tileTotals, listingBug);
            break;
        default:
            throw std::invalid_argument("scan block size must be 256, 512 or 1024, not " + std::to_string(block));
    }
    CUDA_CHECK_LAUNCH("scanTilesKernel");
}

template <typename T>
void launchTilesFor(ScanAlgorithm algorithm,
                    int block,
                    const T* in,
                    T* out,
                    std::size_t n,
                    T* tileTotals,
                    bool listingBug,
                    cudaStream_t stream)
{
    switch (algorithm) {
        case ScanAlgorithm::KoggeStone:
            return launchTiles<ScanAlgorithm::KoggeStone>(block, in, out, n, tileTotals, listingBug, stream);
        case ScanAlgorithm::KoggeStoneDoubleBuffer:
            return launchTiles<ScanAlgorithm::KoggeStoneDoubleBuffer>(block, in, out, n, tileTotals, listingBug,
                                                                      stream);
        case ScanAlgorithm::BrentKung:
            return launchTiles<ScanAlgorithm::BrentKung>(block, in, out, n, tileTotals, listingBug, stream);
        case ScanAlgorithm::Blelloch:
            return launchTiles<ScanAlgorithm::Blelloch>(block, in, out, n, tileTotals, listingBug, stream);
        case ScanAlgorithm::WarpShuffle:
            return launchTiles<ScanAlgorithm::WarpShuffle>(block, in, out, n, tileTotals, listingBug, stream);
        case ScanAlgorithm::Cub:
            break;
    }
    throw std::invalid_argument("launchTilesFor: not a tile-scan algorithm");
}

/// Elements of tile totals needed by all recursion levels for length n.
std::size_t totalsElements(std::size_t n)
{
    std::size_t elements = 0;
    while (n > kTile) {
        n = (n + kTile - 1) / kTile;
        elements += n;
    }
    return elements;
}

/// Scans in place-or-not with tiles; `totals` has room for totalsElements(n).
template <typename T>
void scanTiled(ScanAlgorithm algorithm,
               const T* in,
               T* out,
               std::size_t n,
               T* totals,
               const ScanOptions& options,
               cudaStream_t stream)
{
    if (n <= kTile) {
        launchTilesFor<T>(algorithm, options.blockSize, in, out, n, nullptr, options.reproduceListingBug, stream);
        return;
    }
    const std::size_t tiles = (n + kTile - 1) / kTile;
    launchTilesFor<T>(algorithm, options.blockSize, in, out, n, totals, options.reproduceListingBug, stream);
    scanTiled<T>(algorithm, totals, totals, tiles, totals + tiles, options, stream);
    const unsigned blocks = unsigned(std::min<std::size_t>((n - kTile + 255) / 256, 65535));
    addTileOffsetsKernel<T><<<blocks, 256, 0, stream>>>(out, n, totals);
    CUDA_CHECK_LAUNCH("addTileOffsetsKernel");
}

DeviceScratch& threadWorkspace()
{
    thread_local DeviceScratch workspace;
    return workspace;
}

template <typename T>
void scanInclusiveImpl(ScanAlgorithm algorithm,
                       const T* in,
                       T* out,
                       std::size_t n,
                       cudaStream_t stream,
                       const ScanOptions& options)
{
    if (n == 0)
        return;
    if (in == nullptr || out == nullptr)
        throw std::invalid_argument("scanInclusive: null pointer");
    DeviceScratch& workspace = options.workspace ? *options.workspace : threadWorkspace();
    if (algorithm == ScanAlgorithm::Cub) {
        cubInclusiveSum(in, out, n, stream, workspace);
        return;
    }
    T* totals = static_cast<T*>(workspace.reserve(std::max<std::size_t>(totalsElements(n), 1) * sizeof(T)));
    scanTiled<T>(algorithm, in, out, n, totals, options, stream);
}

}  // namespace

std::string_view scanAlgorithmId(ScanAlgorithm algorithm)
{
    switch (algorithm) {
        case ScanAlgorithm::KoggeStone:
            return "cuda-kogge-stone";
        case ScanAlgorithm::KoggeStoneDoubleBuffer:
            return "cuda-kogge-stone-db";
        case ScanAlgorithm::BrentKung:
            return "cuda-brent-kung";
        case ScanAlgorithm::Blelloch:
            return "cuda-blelloch";
        case ScanAlgorithm::WarpShuffle:
            return "cuda-warp-shuffle";
        case ScanAlgorithm::Cub:
            return "cuda-cub";
    }
    return "?";
}

std::string_view scanAlgorithmLabel(ScanAlgorithm algorithm)
{
    switch (algorithm) {
        case ScanAlgorithm::KoggeStone:
            return "CUDA Kogge-Stone (Bugetti)";
        case ScanAlgorithm::KoggeStoneDoubleBuffer:
            return "CUDA Kogge-Stone double buffer (Bugetti, fixed)";
        case ScanAlgorithm::BrentKung:
            return "CUDA Brent-Kung (Bugetti)";
        case ScanAlgorithm::Blelloch:
            return "CUDA Blelloch work-efficient (Harris/Bilgic)";
        case ScanAlgorithm::WarpShuffle:
            return "CUDA warp shuffle";
        case ScanAlgorithm::Cub:
            return "CUDA CUB DeviceScan";
    }
    return "?";
}

std::optional<ScanAlgorithm> scanAlgorithmFromId(std::string_view id)
{
    for (ScanAlgorithm algorithm : kAllScanAlgorithms)
        if (scanAlgorithmId(algorithm) == id)
            return algorithm;
    return std::nullopt;
}

void scanInclusive(ScanAlgorithm algorithm,
                   const std::uint32_t* in,
                   std::uint32_t* out,
                   std::size_t n,
                   cudaStream_t stream,
                   const ScanOptions& options)
{
    scanInclusiveImpl(algorithm, in, out, n, stream, options);
}

void scanInclusive(ScanAlgorithm algorithm,
                   const float* in,
                   float* out,
                   std::size_t n,
                   cudaStream_t stream,
                   const ScanOptions& options)
{
    scanInclusiveImpl(algorithm, in, out, n, stream, options);
}

}  // namespace cuda
