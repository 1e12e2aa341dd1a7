#include "support/BinEdges.h"

#include "shared/HostDevice.h"

#include <bit>
#include <cmath>
#include <limits>

namespace testing_support {

namespace {

/// The code of a grey value with the separate policy: below < bins < above, monotone in v.
int orderedCode(float v, float logMin, float logMax, std::uint32_t bins)
{
    const int code = hd::hdBinOf(hd::hdLuminance(v, v, v), logMin, logMax, bins, hd::kOutOfRangeSeparate);
    if (code == hd::kBinBelow || code == hd::kBinNonPositive)
        return -1;
    if (code == hd::kBinAbove || code == hd::kBinInf)
        return int(bins);
    return code;
}

/// The smallest positive finite float v with orderedCode(v) >= target (bisection on the bits, which
/// order like the values for positive floats).
float smallestWithCodeAtLeast(int target, float logMin, float logMax, std::uint32_t bins)
{
    std::uint32_t low = 1u;  // smallest denormal
    std::uint32_t high = std::bit_cast<std::uint32_t>(std::numeric_limits<float>::max());
    while (low < high) {
        const std::uint32_t middle = low + (high - low) / 2u;
        if (orderedCode(std::bit_cast<float>(middle), logMin, logMax, bins) >= target)
            high = middle;
        else
            low = middle + 1u;
    }
    return std::bit_cast<float>(low);
}

}  // namespace

std::vector<float> greyBinEdges(float logMin, float logMax, std::uint32_t bins)
{
    std::vector<float> edges;
    for (int target = 0; target <= int(bins); ++target)
        edges.push_back(smallestWithCodeAtLeast(target, logMin, logMax, bins));
    return edges;
}

std::vector<float> aroundEdges(const std::vector<float>& edges)
{
    std::vector<float> values;
    for (float edge : edges) {
        values.push_back(std::nextafter(edge, 0.0f));
        values.push_back(edge);
        values.push_back(std::nextafter(edge, std::numeric_limits<float>::infinity()));
    }
    return values;
}

}  // namespace testing_support
