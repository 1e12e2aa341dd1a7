// HistogramDifference.h: the split view's "method A vs B" figure: the bin-by-bin difference of the
// two pipelines' histograms of one frame (PostPipeline::latestSnapshot, read back asynchronously).
// Comparable only when both snapshots are of the same frame and have the same bin count and log2
// range; otherwise the result says why not, and nothing is subtracted (bins of different widths or
// positions do not count the same luminances). Identical methods give 0.
#pragma once

#include "post/PipelineSettings.h"

#include <cstdint>
#include <string>
#include <vector>

namespace post {

struct HistogramDifference
{
    bool comparable = false;
    std::string reason;              ///< why not comparable ("different bins: 256 vs 128", ...)
    std::uint64_t frame = 0;         ///< the frame both snapshots are of
    std::vector<std::int64_t> diff;  ///< A - B per bin
    std::uint64_t maxAbs = 0;        ///< max |A - B| over the bins
    std::uint64_t l1 = 0;            ///< sum of |A - B|
};

/// A's bins minus B's bins, when the two snapshots are comparable (same frame, bins and range).
HistogramDifference histogramDifference(const HistogramSnapshot& a, const HistogramSnapshot& b);

/// "A-B (frame N): max |bin diff| X, L1 Y", or "A-B: not comparable, REASON".
std::string describeHistogramDifference(const HistogramDifference& difference);

}  // namespace post
