// HistogramRegistry.h: the groups of histogram methods; each group's file lists its methods
// explicitly, and HistogramRegistry.cpp concatenates the groups in display order.
#pragma once

#include "post/histogram/HistogramMethod.h"

namespace post {

/// Registry entry for a class with `static constexpr std::string_view kId`.
template <typename Method>
HistogramMethodEntry histogramEntry()
{
    return {Method::kId, [] { return std::unique_ptr<HistogramMethod>(std::make_unique<Method>()); }};
}

void appendComputeHistogramMethods(std::vector<HistogramMethodEntry>& list);  ///< GL compute shaders
void appendPaperHistogramMethods(std::vector<HistogramMethodEntry>& list);    ///< the seed papers' GL methods
void appendCudaHistogramMethods(std::vector<HistogramMethodEntry>& list);     ///< CUDA (or "unavailable" entries)

}  // namespace post
