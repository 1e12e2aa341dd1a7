#include "post/HistogramDifference.h"

#include "util/Log.h"

#include <algorithm>
#include <cstdlib>

namespace post {

HistogramDifference histogramDifference(const HistogramSnapshot& a, const HistogramSnapshot& b)
{
    HistogramDifference out;
    out.frame = a.frame;
    if (a.frame != b.frame) {
        out.reason = util::format("different frames: {} vs {}", a.frame, b.frame);
        return out;
    }
    if (a.binCount != b.binCount || a.bins.size() != b.bins.size()) {
        out.reason = util::format("different bins: {} vs {}", a.binCount, b.binCount);
        return out;
    }
    if (a.logMin != b.logMin || a.logMax != b.logMax) {
        out.reason = util::format("different ranges: {}..{} vs {}..{} EV", a.logMin, a.logMax, b.logMin, b.logMax);
        return out;
    }
    out.comparable = true;
    out.diff.resize(a.bins.size());
    for (std::size_t i = 0; i < a.bins.size(); ++i) {
        const std::int64_t d = std::int64_t(a.bins[i]) - std::int64_t(b.bins[i]);
        out.diff[i] = d;
        out.maxAbs = std::max<std::uint64_t>(out.maxAbs, std::uint64_t(std::llabs(d)));
        out.l1 += std::uint64_t(std::llabs(d));
    }
    return out;
}

std::string describeHistogramDifference(const HistogramDifference& difference)
{
    if (!difference.comparable)
        return "A-B: not comparable, " + difference.reason;
    return util::format("A-B (frame {}): max |bin diff| {}, L1 {}", difference.frame, difference.maxAbs, difference.l1);
}

}  // namespace post
