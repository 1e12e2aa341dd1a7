#include "reference/Histogram.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace ref {

std::uint64_t Histogram::binTotal() const
{
    std::uint64_t sum = 0;
    for (std::uint32_t count : bins)
        sum += count;
    return sum;
}

std::uint64_t Histogram::total() const
{
    std::uint64_t sum = binTotal();
    for (std::uint64_t count : counters)
        sum += count;
    return sum;
}

namespace {

float luminanceAt(const float* rgba, std::size_t pixel, const hd::LuminanceWeights& weights)
{
    const float* p = rgba + pixel * 4;
    return hd::hdLuminance(p[0], p[1], p[2], weights);
}

}  // namespace

Histogram buildHistogram(const float* rgba,
                         int width,
                         int height,
                         float logMin,
                         float logMax,
                         std::uint32_t binCount,
                         OutOfRange outOfRange,
                         const hd::LuminanceWeights& weights)
{
    Histogram result;
    result.bins.assign(binCount, 0u);
    const std::uint32_t policy = outOfRange == OutOfRange::Separate ? hd::kOutOfRangeSeparate : hd::kOutOfRangeClamp;
    const std::size_t pixels = std::size_t(std::max(width, 0)) * std::size_t(std::max(height, 0));
    for (std::size_t i = 0; i < pixels; ++i) {
        int bin = hd::hdBinOf(luminanceAt(rgba, i, weights), logMin, logMax, binCount, policy);
        if (bin >= 0)
            ++result.bins[std::size_t(bin)];
        else
            ++result.counters[hd::hdCounterOfCode(bin)];
    }
    return result;
}

std::vector<std::uint32_t> countNearEdges(const float* rgba,
                                          int width,
                                          int height,
                                          float logMin,
                                          float logMax,
                                          std::uint32_t binCount,
                                          double toleranceBins,
                                          const hd::LuminanceWeights& weights)
{
    std::vector<std::uint32_t> near(std::size_t(binCount) + 1, 0u);
    const std::size_t pixels = std::size_t(std::max(width, 0)) * std::size_t(std::max(height, 0));
    const double range = double(logMax) - double(logMin);
    if (!(range > 0.0))
        return near;
    for (std::size_t i = 0; i < pixels; ++i) {
        float L = luminanceAt(rgba, i, weights);
        if (!std::isfinite(L) || L <= 0.0f)
            continue;
        double position = (std::log2(double(L)) - logMin) / range * binCount;  // in bins
        double edge = std::round(position);
        if (edge < 0.0 || edge > double(binCount))
            continue;
        if (std::abs(position - edge) <= toleranceBins)
            ++near[std::size_t(edge)];
    }
    return near;
}

HistogramComparison compareHistograms(const std::vector<std::uint32_t>& gpuBins,
                                      const std::uint32_t* gpuCounters,
                                      const Histogram& cpu,
                                      const std::vector<std::uint32_t>& nearEdges)
{
    HistogramComparison result;
    const std::size_t binCount = cpu.bins.size();
    for (std::size_t i = 0; i < hd::kCounterCount; ++i) {
        result.gpuTotal += gpuCounters[i];
        result.cpuTotal += cpu.counters[i];
    }
    for (std::uint32_t counter : {hd::kCounterNaN, hd::kCounterInf, hd::kCounterNonPositive})
        result.countersEqual = result.countersEqual && gpuCounters[counter] == cpu.counters[counter];

    // Signed differences over [below, bins..., above]; edge e lies between entries e and e + 1.
    std::vector<std::int64_t> difference(binCount + 2, 0);
    difference.front() = std::int64_t(gpuCounters[hd::kCounterBelow]) - std::int64_t(cpu.counters[hd::kCounterBelow]);
    difference.back() = std::int64_t(gpuCounters[hd::kCounterAbove]) - std::int64_t(cpu.counters[hd::kCounterAbove]);
    for (std::size_t i = 0; i < binCount; ++i) {
        std::uint32_t gpu = i < gpuBins.size() ? gpuBins[i] : 0u;
        result.gpuTotal += gpu;
        result.cpuTotal += cpu.bins[i];
        difference[i + 1] = std::int64_t(gpu) - std::int64_t(cpu.bins[i]);
        std::uint64_t magnitude = std::uint64_t(std::abs(difference[i + 1]));
        result.maxBinDifference = std::max(result.maxBinDifference, magnitude);
        result.l1Difference += magnitude;
    }
    std::int64_t flow = 0;
    for (std::size_t edge = 0; edge + 1 < difference.size(); ++edge) {
        flow += difference[edge];
        std::int64_t allowed = edge < nearEdges.size() ? std::int64_t(nearEdges[edge]) : 0;
        if (std::abs(flow) > allowed && result.onlyNeighbourMoves) {
            result.onlyNeighbourMoves = false;
            result.firstUnexplainedEdge = int(edge);
        }
    }
    if (result.gpuTotal != result.cpuTotal)
        result.onlyNeighbourMoves = false;
    return result;
}

double gpuBinTolerance(float logMin, float logMax, std::uint32_t binCount)
{
    const double range = double(logMax) - double(logMin);
    if (!(range > 0.0))
        return 0.0;
    const double magnitude = 1.0 + std::max(std::abs(double(logMin)), std::abs(double(logMax)));
    const double log2Error = 2e-7 + 4e-6 * magnitude;  // luminance rounding + a GPU log2/division some ulps off
    return log2Error * binCount / range;
}

std::optional<LogRange> autoRange(const float* rgba, int width, int height, const hd::LuminanceWeights& weights)
{
    const std::size_t pixels = std::size_t(std::max(width, 0)) * std::size_t(std::max(height, 0));
    float smallest = std::numeric_limits<float>::infinity();
    float largest = 0.0f;
    bool any = false;
    for (std::size_t i = 0; i < pixels; ++i) {
        float L = luminanceAt(rgba, i, weights);
        if (!std::isfinite(L) || !(L >= hd::kMinLuminance))
            continue;
        any = true;
        smallest = std::min(smallest, L);
        largest = std::max(largest, L);
    }
    if (!any)
        return std::nullopt;
    return LogRange{hd::hdLog2(smallest), hd::hdLog2(largest)};
}

}  // namespace ref
