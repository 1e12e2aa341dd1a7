// BinEdges.h: the bin edges of shared/HostDevice.h's hdBinOf found by search, for tests that put
// values exactly on, one ulp below and one ulp above every edge.
#pragma once

#include <cstdint>
#include <vector>

namespace testing_support {

/// For grey pixels (r = g = b = v): the smallest positive v whose bin is >= i, for i = 1..bins-1,
/// plus the smallest v that is in range (not below logMin) and the smallest that is above logMax.
/// Found by bisection over the float bit patterns with the CPU's hdBinOf (monotone in v).
std::vector<float> greyBinEdges(float logMin, float logMax, std::uint32_t bins);

/// Each edge and its two float neighbours (the ulp below and above), in order.
std::vector<float> aroundEdges(const std::vector<float>& edges);

}  // namespace testing_support
