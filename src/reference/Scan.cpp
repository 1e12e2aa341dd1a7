#include "reference/Scan.h"

namespace ref {

std::vector<std::uint32_t> inclusiveScan(const std::vector<std::uint32_t>& values)
{
    std::vector<std::uint32_t> out(values.size());
    std::uint32_t running = 0;
    for (std::size_t i = 0; i < values.size(); ++i) {
        running += values[i];
        out[i] = running;
    }
    return out;
}

}  // namespace ref
