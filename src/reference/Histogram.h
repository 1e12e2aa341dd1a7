// Histogram.h: CPU reference of the log-luminance histogram and of the automatic range.
//
// Plain sequential loops over the pixels, using the one binning definition of shared/HostDevice.h
// (hd::hdLuminanceWeighted, hd::hdBinOf). Every GPU histogram method is compared against these.
// `weights` is the luminance definition (the params' hd::kParamLuma* words; default Rec. 709).
#pragma once

#include "shared/HostDevice.h"

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace ref {

enum class OutOfRange { Clamp, Separate };

struct Histogram
{
    std::vector<std::uint32_t> bins;                          ///< binCount counts
    std::array<std::uint64_t, hd::kCounterCount> counters{};  ///< indexed by hd::kCounter*

    std::uint64_t binTotal() const;
    /// Pixels in bins plus every counter: equals the pixel count.
    std::uint64_t total() const;
};

/// Histogram of log2 L over [logMin, logMax] of an RGBA float image (w*h*4 values).
Histogram buildHistogram(const float* rgba,
                         int width,
                         int height,
                         float logMin,
                         float logMax,
                         std::uint32_t binCount,
                         OutOfRange outOfRange,
                         const hd::LuminanceWeights& weights = {});

/// For each inner bin edge e (1..binCount-1, index e) and the two outer ones (0 and binCount), the
/// number of pixels whose log2 L lies within `toleranceBins` bin widths of that edge: the pixels a
/// GPU may legitimately put in the neighbouring bin because its log2 differs in the last bits.
std::vector<std::uint32_t> countNearEdges(const float* rgba,
                                          int width,
                                          int height,
                                          float logMin,
                                          float logMax,
                                          std::uint32_t binCount,
                                          double toleranceBins,
                                          const hd::LuminanceWeights& weights = {});

/// GPU histogram vs CPU reference. Pixels may only have moved between neighbouring bins (or between
/// an end bin and the below/above counter), and only as many across an edge as lie near it:
/// with d = gpu - cpu over [below, bins..., above], every prefix sum |d[0] + ... + d[k]| must not
/// exceed nearEdges at the edge after k.
struct HistogramComparison
{
    std::uint64_t gpuTotal = 0;  ///< bins + counters
    std::uint64_t cpuTotal = 0;
    std::uint64_t maxBinDifference = 0;
    std::uint64_t l1Difference = 0;  ///< sum over bins of |gpu - cpu|
    bool countersEqual = true;       ///< NaN, Inf and non-positive counters identical
    bool onlyNeighbourMoves = true;
    int firstUnexplainedEdge = -1;  ///< edge index (0..binCount) where the flow exceeds nearEdges
    bool exact() const { return l1Difference == 0 && countersEqual && gpuTotal == cpuTotal; }
};

/// `gpuCounters` are hd::kCounterCount words; `nearEdges` from countNearEdges (binCount + 1 entries).
HistogramComparison compareHistograms(const std::vector<std::uint32_t>& gpuBins,
                                      const std::uint32_t* gpuCounters,
                                      const Histogram& cpu,
                                      const std::vector<std::uint32_t>& nearEdges);

/// A tolerance for countNearEdges that covers a GPU log2 a few ulps off and a luminance one ulp off.
double gpuBinTolerance(float logMin, float logMax, std::uint32_t binCount);

struct LogRange
{
    float logMin = 0.0f;
    float logMax = 0.0f;
};

/// Finite min and max of log2 L over the image, ignoring NaN, +-Inf and L <= 0; nullopt when no
/// pixel has a finite positive luminance.
std::optional<LogRange> autoRange(const float* rgba, int width, int height, const hd::LuminanceWeights& weights = {});

}  // namespace ref
