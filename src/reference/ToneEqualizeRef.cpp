#include "reference/ToneEqualizeRef.h"

#include <algorithm>
#include <cmath>

namespace ref {

double decodeSrgb(double encoded)
{
    encoded = std::clamp(encoded, 0.0, 1.0);
    return encoded <= 0.04045 ? encoded / 12.92 : std::pow((encoded + 0.055) / 1.055, 2.4);
}

std::vector<float> equalizeCurveFromCdf(std::span<const std::uint32_t> cdf, bool encodedOutput)
{
    std::vector<float> values(cdf.size(), post::kEqualizeDegenerateValue);
    if (cdf.empty())
        return values;
    const std::uint64_t total = cdf.back();
    std::uint64_t cdfMin = 0;
    for (std::uint32_t c : cdf) {
        if (c != 0u) {
            cdfMin = c;
            break;
        }
    }
    if (total == cdfMin)  // empty, or everything in one bin
        return values;
    for (std::size_t i = 0; i < cdf.size(); ++i) {
        double v = cdf[i] < cdfMin ? 0.0 : double(cdf[i] - cdfMin) / double(total - cdfMin);
        if (encodedOutput)
            v = decodeSrgb(v);
        values[i] = float(v);
    }
    return values;
}

std::vector<float> equalizeCurve(std::span<const std::uint32_t> bins, bool encodedOutput)
{
    std::vector<std::uint32_t> cdf(bins.size());
    std::uint32_t running = 0;
    for (std::size_t i = 0; i < bins.size(); ++i) {
        running += bins[i];
        cdf[i] = running;
    }
    return equalizeCurveFromCdf(cdf, encodedOutput);
}

}  // namespace ref
