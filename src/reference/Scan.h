// Scan.h: CPU reference of the inclusive prefix sum (the histogram -> CDF step).
#pragma once

#include <cstdint>
#include <vector>

namespace ref {

/// out[i] = in[0] + ... + in[i], in uint32 arithmetic like the GPU scans (wraps on overflow).
std::vector<std::uint32_t> inclusiveScan(const std::vector<std::uint32_t>& values);

}  // namespace ref
