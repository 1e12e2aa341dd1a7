#include "reference/Equalize8.h"

namespace ref {

std::vector<std::uint32_t> equalizationLevels(const std::vector<std::uint32_t>& histogram,
                                              std::uint32_t levels,
                                              EqualizeFormula formula)
{
    std::vector<std::uint64_t> cdf(histogram.size());
    std::uint64_t running = 0;
    for (std::size_t i = 0; i < histogram.size(); ++i) {
        running += histogram[i];
        cdf[i] = running;
    }
    const std::uint64_t total = running;
    std::vector<std::uint32_t> out(histogram.size(), 0u);
    if (total == 0)
        return out;

    if (formula == EqualizeFormula::GonzalezWoods) {
        for (std::size_t i = 0; i < cdf.size(); ++i)
            out[i] = std::uint32_t((cdf[i] * (levels - 1) + total / 2) / total);
        return out;
    }

    std::uint64_t cdfMin = 0;
    for (std::uint64_t value : cdf) {
        if (value != 0) {
            cdfMin = value;
            break;
        }
    }
    if (total == cdfMin) {
        // Uniform image: equalization has nothing to spread; keep every level as it is.
        for (std::size_t i = 0; i < out.size(); ++i)
            out[i] = std::uint32_t(i);
        return out;
    }
    const std::uint64_t denominator = total - cdfMin;
    for (std::size_t i = 0; i < cdf.size(); ++i) {
        if (cdf[i] < cdfMin)
            continue;  // no pixel has this level
        out[i] = std::uint32_t(((cdf[i] - cdfMin) * (levels - 1) + denominator / 2) / denominator);
    }
    return out;
}

std::vector<std::uint8_t> equalize8(const std::uint8_t* pixels, std::size_t count)
{
    std::vector<std::uint32_t> histogram(256, 0u);
    for (std::size_t i = 0; i < count; ++i)
        ++histogram[pixels[i]];
    const std::vector<std::uint32_t> levels = equalizationLevels(histogram, 256);
    std::vector<std::uint8_t> out(count);
    for (std::size_t i = 0; i < count; ++i)
        out[i] = std::uint8_t(levels[pixels[i]]);
    return out;
}

}  // namespace ref
