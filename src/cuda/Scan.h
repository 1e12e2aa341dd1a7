// Scan.h: inclusive prefix sums on the GPU with the scan algorithms hdrlab compares (Kogge-Stone,
// Kogge-Stone double-buffered, Brent-Kung, Blelloch work-efficient, warp shuffle, CUB), for any
// length. Each block scans a tile of kScanTile elements in shared memory with the chosen
// algorithm; longer inputs are scanned as tiles whose totals are scanned recursively and added back
// (Bilgic et al. Figure 3, Harris "scan of large arrays"). A histogram's CDF (<= 4096 bins) is one
// launch. Plain device pointers: used by the CUDA scan methods, the equalize8 program, tests and
// benchmarks. Types: uint32 (wraps modulo 2^32 like the CPU) and float.
#pragma once

#include "cuda/CudaRaii.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace cuda {

enum class ScanAlgorithm { KoggeStone, KoggeStoneDoubleBuffer, BrentKung, Blelloch, WarpShuffle, Cub };

inline constexpr ScanAlgorithm kAllScanAlgorithms[] = {
    ScanAlgorithm::KoggeStone,  ScanAlgorithm::KoggeStoneDoubleBuffer,
    ScanAlgorithm::BrentKung,   ScanAlgorithm::Blelloch,
    ScanAlgorithm::WarpShuffle, ScanAlgorithm::Cub};

/// Elements one block scans (one launch up to this length, except CUB which decides itself).
inline constexpr std::size_t kScanTile = 4096;

/// "cuda-kogge-stone", "cuda-kogge-stone-db", "cuda-brent-kung", "cuda-blelloch", "cuda-warp-shuffle", "cuda-cub"
std::string_view scanAlgorithmId(ScanAlgorithm algorithm);
std::string_view scanAlgorithmLabel(ScanAlgorithm algorithm);
std::optional<ScanAlgorithm> scanAlgorithmFromId(std::string_view id);

struct ScanOptions
{
    int blockSize = 1024;                ///< threads per block for the tile kernel: 256, 512 or 1024
    DeviceScratch* workspace = nullptr;  ///< nullptr: a workspace private to this thread
    /// Test only (kogge-stone-db): copy out the buffer the published listing copies out after the
    /// last swap (the stale one), to show that the listing is wrong.
    bool reproduceListingBug = false;
};

/// out[i] = in[0] + ... + in[i] for i < n, enqueued on `stream`. `in == out` is allowed.
/// Throws std::invalid_argument for a bad block size, std::runtime_error on CUDA errors.
void scanInclusive(ScanAlgorithm algorithm,
                   const std::uint32_t* in,
                   std::uint32_t* out,
                   std::size_t n,
                   cudaStream_t stream,
                   const ScanOptions& options = {});
void scanInclusive(ScanAlgorithm algorithm,
                   const float* in,
                   float* out,
                   std::size_t n,
                   cudaStream_t stream,
                   const ScanOptions& options = {});

/// CUB baselines (CubBaseline.cu): DeviceScan::InclusiveSum.
void cubInclusiveSum(const std::uint32_t* in,
                     std::uint32_t* out,
                     std::size_t n,
                     cudaStream_t stream,
                     DeviceScratch& workspace);
void cubInclusiveSum(const float* in, float* out, std::size_t n, cudaStream_t stream, DeviceScratch& workspace);

}  // namespace cuda
